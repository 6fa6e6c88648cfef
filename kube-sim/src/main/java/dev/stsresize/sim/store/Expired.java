package dev.stsresize.sim.store;

/**
 * A watch asked for a resourceVersion older than the bounded event history keeps; the server answers
 * it like etcd compaction: 410 "too old resource version: R (oldest)".
 */
public final class Expired extends RuntimeException {
    public Expired(long requested, long oldest) {
        super("too old resource version: " + requested + " (" + oldest + ")");
    }
}
