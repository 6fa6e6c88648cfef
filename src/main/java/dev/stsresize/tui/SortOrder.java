package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import java.util.Comparator;

/** The list's orders, cycled by {@code s}. Ties always fall back to namespace/name, so the order is stable. */
public enum SortOrder {
    NAME("name", Comparator.comparing((Decision d) -> 0)),
    /** What needs the operator first: refused, blocked, then the work, then the rest. */
    VERDICT("verdict", Comparator.comparing(d -> attention(d.verdict()))),
    CLAIMS("claims to grow", Comparator.comparing((Decision d) -> -d.claimsToGrow().size())),
    /** The fullest first (its fullest claim), then the soonest full; unknown usage last. */
    USED("used %", null);

    private final String label;
    private final Comparator<Decision> order;

    SortOrder(String label, Comparator<Decision> primary) {
        this.label = label;
        this.order = primary == null ? null : primary.thenComparing(Decision::namespace).thenComparing(Decision::name);
    }

    /** The order, given the last usage read (null when none: USED is then by name). */
    public Comparator<Decision> comparator(UsageIndex usage) {
        if (order != null) {
            return order;
        }
        Comparator<Decision> byName = Comparator.comparing(Decision::namespace).thenComparing(Decision::name);
        if (usage == null) {
            return byName;
        }
        return Comparator.comparingDouble((Decision d) -> -usage.usedPercent(d))
                .thenComparing(d -> usage.of(d).flatMap(dev.stsresize.plan.StatefulSetUsage::fillsIn)
                        .orElse(java.time.Duration.ofSeconds(Long.MAX_VALUE)))
                .thenComparing(byName);
    }

    public String label() {
        return label;
    }

    public Comparator<Decision> comparator() {
        return comparator(null);
    }

    public SortOrder next() {
        return values()[(ordinal() + 1) % values().length];
    }

    private static int attention(Verdict v) {
        return switch (v) {
            case REFUSED -> 0;
            case BLOCKED -> 1;
            case GROW, COPY -> 2;
            case GROW_CLAIMS -> 3;
            case ABSENT -> 4;
            case UP_TO_DATE -> 5;
        };
    }
}
