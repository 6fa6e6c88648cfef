package dev.stsresize.cluster;

import java.util.Optional;

/**
 * An open watch on one object. Single-threaded: one reader calls {@link #next()} until it is done,
 * then {@link #close()}.
 */
public interface ObjectWatch extends AutoCloseable {
    /**
     * Blocks for the next event. Empty when the stream ended — the server's watch timeout, or a
     * dropped connection; the caller resumes by watching again from {@link #lastResourceVersion()}.
     *
     * @throws ClusterException for an ERROR event, e.g. 410 Expired when the resourceVersion is too
     *     old (re-read the object, then watch from its resourceVersion)
     */
    Optional<WatchEvent> next();

    /** The resourceVersion of the last event or bookmark seen, or the one the watch started from. */
    String lastResourceVersion();

    @Override
    void close();
}
