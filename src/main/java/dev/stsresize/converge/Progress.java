package dev.stsresize.converge;

/** Where the converge reports what it does: the CLI prints, a terminal UI posts to its thread. */
@FunctionalInterface
public interface Progress {
    void on(ProgressEvent event);

    /** A wait goes on: what for, for how long, each claim's latest condition. Views that show no waits ignore it. */
    default void waiting(WaitTick tick) {}

    Progress NONE = e -> {};
}
