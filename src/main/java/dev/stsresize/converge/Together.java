package dev.stsresize.converge;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Requests that do not depend on each other, sent at once: on a far API server a step then costs one
 * round trip, not one per claim or pod. The port's calls are synchronous, so each goes on a thread of
 * its own; over HTTP/2 they share the one connection. Only reads, and writes whose order among
 * themselves no rule depends on (the claims' patches, each checked from its own answer), are sent
 * together. The assessment's reads and proofs, the converge's steps and {@code usage}'s LISTs all go through here.
 *
 * <p>At most {@link #IN_FLIGHT} tasks run at once, process-wide: a task holds one of that many lanes
 * while it runs, and a task sends its requests one after another, so no more requests than lanes are
 * on the wire. kube-apiserver serves 100 streams on one HTTP/2 connection
 * (http2Options.MaxConcurrentStreams); 64 leaves room for the usage read's kubelet summaries (32 in
 * flight, {@code UsageReader}) beside them, so nothing waits for a second connection.
 *
 * <p>A task may itself send tasks together (a step read beside a write, whose reads go out together).
 * It then holds a lane while it waits for them: were its tasks to wait for a free lane, lanes held by
 * waiting tasks could take every lane, and nothing would move again (the pool-starvation deadlock). So
 * only a thread that holds no lane waits for one; a task that finds every lane taken runs its tasks
 * itself, in the lane it holds, one after another.
 */
public final class Together {
    /** A JVM property that sets {@link #IN_FLIGHT} (the plan benchmark compares 1 with the default). */
    static final String IN_FLIGHT_PROPERTY = "stsresize.inFlight";

    /** Tasks running at once, process-wide (see the class comment for why 64). */
    static final int IN_FLIGHT = Math.max(1, Integer.getInteger(IN_FLIGHT_PROPERTY, 64));

    private static final Semaphore LANES = new Semaphore(IN_FLIGHT);

    /** Whether this thread runs a task in a lane now: then it never waits for another lane. */
    private static final ThreadLocal<Boolean> IN_A_LANE = ThreadLocal.withInitial(() -> false);

    /**
     * The threads the tasks run on: as many as lanes are taken (each task took its lane before it was
     * handed over, so no task queues here), daemon, ended after a minute idle: a run's steps come
     * seconds apart, a command ends soon after.
     */
    private static final ExecutorService POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60L, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "stsresize-together");
                t.setDaemon(true);
                return t;
            });

    private Together() {
    }

    /**
     * Every task sent at once, the results in the tasks' order once all are answered; one task alone runs on
     * this thread. Every task finishes before anything is thrown (a write sent is a write to account for),
     * then the first failure in the tasks' order is thrown as its task threw it.
     */
    public static <T> List<T> all(List<Callable<T>> tasks) {
        return all(tasks, x -> { });
    }

    /**
     * As {@link #all(List)}, each answer handed to {@code inOrder} as soon as it and every one before it
     * are answered (and none of those failed): what they told is then told in the tasks' order.
     */
    static <T> List<T> all(List<Callable<T>> tasks, Consumer<T> inOrder) {
        List<T> results = new ArrayList<>();
        RuntimeException first = null;
        for (Future<T> f : sendAll(tasks)) {
            try {
                T r = join(f);
                if (first == null) {
                    inOrder.accept(r);
                    results.add(r);
                }
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
        return results;
    }

    /** A task's answer, or what it threw (then the answer is null). */
    record Settled<T>(T value, RuntimeException failure) {}

    /**
     * Every task sent at once (one alone on this thread), each one's answer or failure in the tasks' order once
     * all are answered: for a caller that must account for each write that went through beside one that failed.
     */
    static <T> List<Settled<T>> settled(List<Callable<T>> tasks) {
        List<Settled<T>> results = new ArrayList<>();
        for (Future<T> f : sendAll(tasks)) {
            try {
                results.add(new Settled<>(join(f), null));
            } catch (RuntimeException e) {
                results.add(new Settled<>(null, e));
            }
        }
        return results;
    }

    /** Two different calls at once: {@code a}'s answer, once {@code b} has been answered too. */
    static <A> A both(Callable<A> a, Runnable b) {
        return Together.<A>all(List.of(a, () -> {
            b.run();
            return null;
        })).get(0);
    }

    /**
     * A task sent now, on its own thread, for a caller that has something else to do meanwhile: {@link #join} it
     * later. When every lane is taken it waits for one, or, called from a task, runs here before this answers.
     */
    static <T> Future<T> start(Callable<T> task) {
        if (LANES.tryAcquire()) {
            return inALane(task);
        }
        if (IN_A_LANE.get()) {
            // this thread's lane is taken by the caller, who waits for this task: it runs here
            FutureTask<T> here = new FutureTask<>(task);
            here.run();
            return here;
        }
        LANES.acquireUninterruptibly();
        return inALane(task);
    }

    /** The answer of a task sent with {@link #start}: waits for it; its failure thrown as it threw it. */
    static <T> T join(Future<T> f) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    // the request is on the wire: its answer is waited for, the interrupt kept for the caller
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            throw thrownBy(e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** What a task threw, to be thrown again as it was: an unchecked exception or an error as is, anything else wrapped. */
    static RuntimeException thrownBy(ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof Error err) {
            throw err;
        }
        return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
    }

    /** Threads waiting for a lane now: for the tests that show the limit holds. */
    static int waitingForALane() {
        return LANES.getQueueLength();
    }

    /** Each task sent, the last (or only) one run on this thread meanwhile, in a lane like the others. */
    private static <T> List<Future<T>> sendAll(List<Callable<T>> tasks) {
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < tasks.size() - 1; i++) {
            futures.add(start(tasks.get(i)));
        }
        if (!tasks.isEmpty()) {
            futures.add(here(tasks.get(tasks.size() - 1)));
        }
        return futures;
    }

    /** A task run on this thread, in the lane this thread holds or in one it waits for. */
    private static <T> Future<T> here(Callable<T> task) {
        FutureTask<T> here = new FutureTask<>(task);
        if (IN_A_LANE.get()) {
            here.run();
            return here;
        }
        LANES.acquireUninterruptibly();
        runInALane(here);
        return here;
    }

    /** The task handed to a thread of its own, in the lane already taken for it. */
    private static <T> Future<T> inALane(Callable<T> task) {
        FutureTask<T> f = new FutureTask<>(task);
        try {
            POOL.execute(() -> runInALane(f));
        } catch (RuntimeException | Error e) {
            LANES.release();
            throw e;
        }
        return f;
    }

    /** Runs the task holding the lane taken for it; the lane is given back when it ends, however it ends. */
    private static void runInALane(FutureTask<?> task) {
        IN_A_LANE.set(true);
        try {
            task.run();
        } finally {
            IN_A_LANE.set(false);
            LANES.release();
        }
    }
}
