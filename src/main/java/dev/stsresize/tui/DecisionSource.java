package dev.stsresize.tui;

/**
 * Where the decisions come from: a snapshot file, or the cluster through the Cluster port. A source
 * that asks a server for proofs answers in two parts, so that the list is drawn as soon as the LISTs
 * are answered: {@link #loadFirst} the decisions from the objects alone, then {@link #prove} the same
 * load with the server's permissions and dry runs in.
 */
@FunctionalInterface
public interface DecisionSource {
    /** Reads, decides and proves; a failure is thrown with a message fit for the user. */
    Loaded load() throws Exception;

    /**
     * What the list shows first: the decisions from the objects read, with those whose proofs are still
     * to come named in {@link Loaded#unproved()}. A source with nothing to prove answers its whole load.
     */
    default Loaded loadFirst() throws Exception {
        return load();
    }

    /** The last {@link #loadFirst} with every proof in; a source with nothing to prove answers its whole load. */
    default Loaded prove() throws Exception {
        return load();
    }
}
