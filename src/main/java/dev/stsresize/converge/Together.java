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
        if (tasks.size() == 1) {
            return List.of(call(tasks.get(0)));
        }
        List<Future<T>> futures = new ArrayList<>();
        for (Callable<T> t : tasks) {
            futures.add(POOL.submit(t));
        }
        List<T> results = new ArrayList<>();
        RuntimeException first = null;
        for (Future<T> f : futures) {
            try {
                results.add(join(f));
            } catch (RuntimeException e) {
                first = first == null ? e : first;
                results.add(null);
            }
        }
        if (first != null) {
            throw first;
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
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static <T> T call(Callable<T> task) {
        try {
            return task.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
