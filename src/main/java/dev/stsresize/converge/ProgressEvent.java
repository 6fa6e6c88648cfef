package dev.stsresize.converge;

/**
 * One thing that happened, for a view to show. {@code kubectl} is the equivalent command of a write
 * (empty for reads and waits); {@code warning} marks what the operator must look at.
 */
public record ProgressEvent(String namespace, String name, Step step, String message, String kubectl, boolean warning) {
    public ProgressEvent {
        kubectl = kubectl == null ? "" : kubectl;
    }

    public static ProgressEvent info(String ns, String name, Step step, String message) {
        return new ProgressEvent(ns, name, step, message, "", false);
    }

    public static ProgressEvent write(String ns, String name, Step step, String message, String kubectl) {
        return new ProgressEvent(ns, name, step, message, kubectl, false);
    }

    public static ProgressEvent warn(String ns, String name, Step step, String message) {
        return new ProgressEvent(ns, name, step, message, "", true);
    }
}
