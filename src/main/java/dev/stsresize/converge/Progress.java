package dev.stsresize.converge;

/** Where the converge reports what it does: the CLI prints, a terminal UI posts to its thread. */
@FunctionalInterface
public interface Progress {
    void on(ProgressEvent event);

    Progress NONE = e -> {};
}
