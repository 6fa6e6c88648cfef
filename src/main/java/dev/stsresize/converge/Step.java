package dev.stsresize.converge;

/** The steps of the converge procedure in docs/design.md, in order. */
public enum Step {
    READ, DECIDE, PROVE, LOCK, GROW, ORPHAN_DELETE, REAPPLY, VERIFY, RESTART, FILE_SYSTEMS, RECORD;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
