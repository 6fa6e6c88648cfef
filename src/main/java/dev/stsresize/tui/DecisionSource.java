package dev.stsresize.tui;

import dev.stsresize.plan.Decision;

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

    /**
     * {@code d}, a refusal the copy could answer ({@link dev.stsresize.plan.Refusal#copyPossible}), decided again and
     * proved with the operator's opt-in to the copy (the default image, each claim's own class): a copy plan, or why the
     * copy cannot take it. The source keeps the opt-in for that StatefulSet, so a refresh decides it alike.
     */
    default Decision decideCopy(Decision d) throws Exception {
        throw new IllegalStateException("a copy is decided from the cluster: this list is read from a snapshot (--live), so nothing"
                + " can be copied; open the UI on the cluster (without --live)");
    }
}
