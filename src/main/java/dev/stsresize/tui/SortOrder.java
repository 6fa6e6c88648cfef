package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import java.util.Comparator;

/** The list's orders, cycled by {@code s}. Ties always fall back to namespace/name, so the order is stable. */
public enum SortOrder {
    NAME("name", Comparator.comparing((Decision d) -> 0)),
    /** What needs the operator first: refused, blocked, then the work, then the rest. */
    VERDICT("verdict", Comparator.comparing(d -> attention(d.verdict()))),
    CLAIMS("claims to grow", Comparator.comparing((Decision d) -> -d.claimsToGrow().size()));

    private final String label;
    private final Comparator<Decision> order;

    SortOrder(String label, Comparator<Decision> primary) {
        this.label = label;
        this.order = primary.thenComparing(Decision::namespace).thenComparing(Decision::name);
    }

    public String label() {
        return label;
    }

    public Comparator<Decision> comparator() {
        return order;
    }

    public SortOrder next() {
        return values()[(ordinal() + 1) % values().length];
    }

    private static int attention(Verdict v) {
        return switch (v) {
            case REFUSED -> 0;
            case BLOCKED -> 1;
            case GROW -> 2;
            case GROW_CLAIMS -> 3;
            case ABSENT -> 4;
            case UP_TO_DATE -> 5;
        };
    }
}
