package dev.stsresize.cluster;

/**
 * A pod's log as read ({@code GET pods/NAME/log}): untrusted text, bounded. {@code complete} is false when the
 * log was longer than {@link #LIMIT_BYTES} and {@code text} holds only its beginning.
 */
public record PodLog(String text, boolean complete) {
    /** What is read of one log: a copy pod's output is a few lines per thousand files of progress, far below. */
    public static final int LIMIT_BYTES = 4 * 1024 * 1024;
}
