package dev.stsresize.render;

import dev.stsresize.plan.Bytes;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Durations;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.SuggestedSize;
import dev.stsresize.plan.UnmeasuredClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The words for usage, shared by the plan's table and the usage command: the same figures read the same everywhere.
 * USED is the alert's measure, {@code 1 − available ÷ capacity} ({@link ClaimUsage#usedPercent}), always shown with
 * the bytes still available beside it.
 */
public final class UsageText {
    /** From here a volume is worth a look (yellow), and from here it is urgent (red). */
    public static final int WARN_PERCENT = 80;
    public static final int ALERT_PERCENT = 90;
    /** Unmeasured claims named in one line; more are counted. */
    static final int NAMED_UNMEASURED = 3;

    private UsageText() {}

    /**
     * {@code used 92 % (data-ledger-0: 819Mi of 10Gi available), fills in 3h; suggest data 10Gi → 14Gi}, then the
     * claims on a shared file system and those with no usage, each with why.
     */
    public static String line(StatefulSetUsage u) {
        StringBuilder b = new StringBuilder("used ");
        ClaimUsage c = u.fullest().orElseThrow();
        b.append(percent(c)).append(" (").append(c.claim()).append(": ").append(available(c)).append(')');
        u.fillsIn().ifPresent(f -> b.append(", fills in ").append(Durations.brief(f)));
        if (!u.suggestions().isEmpty()) {
            b.append("; suggest ").append(suggestions(u));
        }
        shared(u).ifPresent(s -> b.append("; ").append(s));
        if (!u.unmeasured().isEmpty()) {
            b.append("; ").append(unmeasured(u.unmeasured()));
        }
        return b.toString();
    }

    /** {@code 819Mi of 10Gi available}. */
    public static String available(ClaimUsage c) {
        return Bytes.human(c.availableBytes()) + " of " + Bytes.human(c.capacityBytes()) + " available";
    }

    /**
     * {@code data-web-0 on a shared file system (100Gi for a 1Gi claim): its fullness is that disk's, no size suggested};
     * empty when no claim is.
     */
    public static java.util.Optional<String> shared(StatefulSetUsage u) {
        List<ClaimUsage> shared = u.claims().stream().filter(ClaimUsage::sharedFileSystem).toList();
        if (shared.isEmpty()) {
            return java.util.Optional.empty();
        }
        ClaimUsage first = shared.get(0);
        String names = shared.size() == 1 ? first.claim() : shared.size() + " claims (" + first.claim() + ", …)";
        return java.util.Optional.of(names + " on a shared file system (" + sharedWhy(first) + "): its fullness is that disk's,"
                + " no size suggested");
    }

    /** {@code 100Gi reported for a 1Gi claim}. */
    public static String sharedWhy(ClaimUsage c) {
        return Bytes.human(c.capacityBytes()) + " reported for a " + Bytes.human(c.claimBytes()) + " claim";
    }

    /** {@code no usage for data-ledger-2 (pod ledger-2 is Pending)}, the first few named, the rest counted. */
    public static String unmeasured(List<UnmeasuredClaim> claims) {
        List<String> named = new ArrayList<>();
        for (UnmeasuredClaim c : claims.subList(0, Math.min(NAMED_UNMEASURED, claims.size()))) {
            named.add(c.claim() + " (" + c.reason() + ")");
        }
        String more = claims.size() > NAMED_UNMEASURED ? " and " + (claims.size() - NAMED_UNMEASURED) + " more" : "";
        return "no usage for " + String.join(", ", named) + more;
    }

    /** {@code data 10Gi → 14Gi, wal 2Gi → 3Gi} (a size the quota caps marked {@code (quota)}). */
    public static String suggestions(StatefulSetUsage u) {
        return u.suggestions().stream().map(UsageText::suggestion).collect(Collectors.joining(", "));
    }

    static String suggestion(SuggestedSize s) {
        return s.template() + " " + s.current() + " → " + s.suggested() + (s.cappedByQuota() ? " (quota)" : "");
    }

    /** {@code 92 %}, rounded down so that 89.6 % is never shown as the 90 % that colours red. */
    public static String percent(ClaimUsage c) {
        return String.format(Locale.ROOT, "%d %%", c.shownPercent());
    }

    static UnaryOperator<String> percentStyle(Palette p, StatefulSetUsage u) {
        double used = u.fullest().map(ClaimUsage::usedPercent).orElse(0.0);
        return used >= ALERT_PERCENT ? p::red : used >= WARN_PERCENT ? p::yellow : p::dim;
    }
}
