package dev.stsresize.sim.store;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A live feed of store events for one watcher: events replayed from history first, then every new
 * one in resourceVersion order. Unbounded, so a slow reader never blocks writers.
 */
public final class Subscription implements AutoCloseable {
    private final BlockingQueue<StoreEvent> queue = new LinkedBlockingQueue<>();
    private final Predicate<StoreEvent> filter;
    private final Runnable onClose;
    private volatile boolean closed;

    Subscription(Predicate<StoreEvent> filter, Runnable onClose) {
        this.filter = filter;
        this.onClose = onClose;
    }

    void offer(StoreEvent e) {
        if (!closed && filter.test(e)) {
            queue.add(e);
        }
    }

    /** The next event, or null after {@code millis} without one. */
    public StoreEvent poll(long millis) throws InterruptedException {
        return queue.poll(millis, TimeUnit.MILLISECONDS);
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            onClose.run();
        }
    }
}
