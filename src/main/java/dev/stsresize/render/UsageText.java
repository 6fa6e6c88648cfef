package dev.stsresize.render;

import dev.stsresize.plan.Bytes;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Durations;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.SuggestedSize;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/** The words for usage, shared by the plan's table and the usage command: the same figures read the same everywhere. */
public final class UsageText {
    /** From here a volume is worth a look (yellow), and from here it is urgent (red). */
    public static final int WARN_PERCENT = 80;
    public static final int ALERT_PERCENT = 90;

    private UsageText() {}

    /** {@code used 92 % (data-ledger-0: 9.2Gi of 10Gi), fills in 3h; suggest data 10Gi → 14Gi}. */
    public static String line(StatefulSetUsage u) {
        StringBuilder b = new StringBuilder("used ");
        ClaimUsage c = u.fullest().orElseThrow();
        b.append(percent(c)).append(" (").append(c.claim()).append(": ").append(Bytes.human(c.usedBytes())).append(" of ")
                .append(Bytes.human(c.capacityBytes())).append(')');
        u.fillsIn().ifPresent(f -> b.append(", fills in ").append(Durations.brief(f)));
        if (!u.suggestions().isEmpty()) {
            b.append("; suggest ").append(suggestions(u));
        }
        return b.toString();
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
        return String.format(Locale.ROOT, "%d %%", (long) Math.floor(c.usedPercent()));
    }

    static UnaryOperator<String> percentStyle(Palette p, StatefulSetUsage u) {
        double used = u.fullest().map(ClaimUsage::usedPercent).orElse(0.0);
        return used >= ALERT_PERCENT ? p::red : used >= WARN_PERCENT ? p::yellow : p::dim;
    }
}
