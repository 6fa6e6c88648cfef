package dev.stsresize.tui;

/** Where the decisions come from: a snapshot file today, the cluster through the Cluster port next. */
@FunctionalInterface
public interface DecisionSource {
    /** Reads and decides; a failure is thrown with a message fit for the user. */
    Loaded load() throws Exception;
}
