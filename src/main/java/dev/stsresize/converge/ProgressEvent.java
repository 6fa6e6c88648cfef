package dev.stsresize.converge;

/**
 * One thing that happened, for a view to show. {@code write} is the write it reports (null for reads
 * and waits), {@link #kubectl()} its equivalent command; {@code warning} marks what the operator must
 * look at.
 */
public record ProgressEvent(String namespace, String name, Phase step, String message, Write write, boolean warning) {
    public static ProgressEvent info(String ns, String name, Phase step, String message) {
        return new ProgressEvent(ns, name, step, message, null, false);
    }

    public static ProgressEvent write(String ns, String name, Phase step, String message, Write write) {
        return new ProgressEvent(ns, name, step, message, write, false);
    }

    public static ProgressEvent warn(String ns, String name, Phase step, String message) {
        return new ProgressEvent(ns, name, step, message, null, true);
    }

    /** Whether this is the run's last event, its outcome (a view that reads the result back may skip it). */
    public boolean isOutcome() {
        return step == Phase.RECORD;
    }

    /** The kubectl command equivalent to the write reported, "" when none (a read, a wait, the lock). */
    public String kubectl() {
        return write == null ? "" : write.kubectl();
    }
}
