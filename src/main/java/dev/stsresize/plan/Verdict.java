package dev.stsresize.plan;

/** What converging one declared StatefulSet takes; the label is the JSON contract's word. */
public enum Verdict {
    /** A template grows: grow the claims, orphan-delete and re-apply the StatefulSet. */
    GROW("grow"),
    /** The templates already declare the sizes but some claims lag: grow them, no recreate. */
    GROW_CLAIMS("grow-claims"),
    /**
     * Opted in ({@link CopyOptIn}): the claims to grow cannot grow in place, so each is copied to a bigger volume of the
     * same name, one pod at a time, and the StatefulSet orphan-deleted and re-applied around each.
     */
    COPY("copy"),
    /** Nothing to converge. */
    UP_TO_DATE("up-to-date"),
    /** Permanent: the manifest asks for something that is not a pure growth (exit 2). */
    REFUSED("refused"),
    /** Transient: the growth is sound but cannot proceed now (exit 1). */
    BLOCKED("blocked"),
    /** Not in the cluster: a normal apply creates it. */
    ABSENT("absent");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** True when the converge has writes to make. */
    public boolean hasWork() {
        return this == GROW || this == GROW_CLAIMS || this == COPY;
    }
}
