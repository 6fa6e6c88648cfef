package dev.stsresize.converge;

/**
 * Called after every write the converge makes, with what was written. Production passes
 * {@link #NONE}; crash tests throw from it to stop the converge right after a given write and then
 * prove that a re-run or {@code resume} finishes the work.
 */
@FunctionalInterface
public interface Checkpoint {
    void afterWrite(String what);

    Checkpoint NONE = w -> {};
}
