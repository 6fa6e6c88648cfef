package dev.stsresize.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polling for what controllers do asynchronously: a generous deadline, never an asserted duration. */
public final class Await {
    private Await() {}

    /** Polls {@code condition} every {@code poll} until it holds; fails naming {@code what} after {@code deadline}. */
    public static void until(String what, Duration deadline, Duration poll, BooleanSupplier condition) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + deadline.toSeconds() + " s waiting until " + what);
            }
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what, e);
            }
        }
    }
}
