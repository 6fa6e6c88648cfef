package dev.stsresize.cluster;

import java.time.Duration;

/** Waits between retries; a test passes one that records the waits instead. */
@FunctionalInterface
public interface Sleeper {
    Sleeper REAL = d -> Thread.sleep(d.toMillis());

    void sleep(Duration duration) throws InterruptedException;
}
