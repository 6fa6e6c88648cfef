package dev.stsresize.converge;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Requests of one converge step that do not depend on each other, sent at once: on a far API server a
 * step then costs one round trip, not one per claim or pod. The port's calls are synchronous, so each
 * goes on a thread of its own (daemon threads, kept while idle); over HTTP/2 they share the one
 * connection. Only reads, and writes whose order among themselves no rule depends on (the claims'
 * patches, each checked from its own answer), are sent together.
 */
final class Together {
    /** Threads idle for a minute end: a run's steps come seconds apart, a command ends soon after. */
    private static final ExecutorService POOL = new java.util.concurrent.ThreadPoolExecutor(0, Integer.MAX_VALUE, 60L,
            java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.SynchronousQueue<>(), r -> {
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
    static <T> List<T> all(List<Callable<T>> tasks) {
        List<Settled<T>> settled = settled(tasks);
        for (Settled<T> s : settled) {
            if (s.failure() != null) {
                throw s.failure();
            }
        }
        return settled.stream().map(Settled::value).toList();
    }

    /** A task's answer, or what it threw (then the answer is null). */
    record Settled<T>(T value, RuntimeException failure) {}

    /**
     * Every task sent at once (one alone on this thread), each one's answer or failure in the tasks' order once
     * all are answered: for a caller that must account for each write that went through beside one that failed.
     */
    static <T> List<Settled<T>> settled(List<Callable<T>> tasks) {
        List<Settled<T>> results = new ArrayList<>();
        if (tasks.size() == 1) {
            try {
                results.add(new Settled<>(call(tasks.get(0)), null));
            } catch (RuntimeException e) {
                results.add(new Settled<>(null, e));
            }
            return results;
        }
        List<Future<T>> futures = new ArrayList<>();
        for (Callable<T> t : tasks) {
            futures.add(POOL.submit(t));
        }
        for (Future<T> f : futures) {
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

    /** A task sent now, on its own thread, for a caller that has something else to do meanwhile: {@link #join} it later. */
    static <T> Future<T> start(Callable<T> task) {
        return POOL.submit(task);
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

    /** A task run on this thread, a checked exception wrapped. */
    static <T> T call(Callable<T> task) {
        try {
            return task.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
