package dev.stsresize.tui;

import dev.stsresize.plan.Bytes;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Durations;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.SuggestedSize;
import dev.stsresize.usage.UsageReport;
import dev.stsresize.usage.UsageSamples;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The last usage read as the UI shows it: per StatefulSet its fullest claim, time to full and suggestions, and
 * one line on where the figures stand ("sampled for 3m", "usage unknown (cannot get nodes/proxy)"). PURE.
 *
 * @param report the read, with rates from the samples when Prometheus gave none
 * @param sampledFor how long the UI's successive reads span (zero until the second read)
 * @param paused no next read is scheduled: the screen showed nothing that needs usage when this read came
 *     (the wizard); the next screen that shows it asks for a read at once
 */
public record UsageIndex(UsageReport report, Duration sampledFor, boolean paused) {
    public UsageIndex(UsageReport report, Duration sampledFor) {
        this(report, sampledFor, false);
    }

    UsageIndex resumed() {
        return new UsageIndex(report, sampledFor, false);
    }

    /** From 80 % a volume is shown as filling, from 90 % as nearly full (the KubePersistentVolumeFillingUp thresholds' spirit). */
    public static final double WARN_PERCENT = 80;
    public static final double BAD_PERCENT = 90;

    public Optional<StatefulSetUsage> of(Decision d) {
        return report.of(d.namespace(), d.name());
    }

    /** The fullest claim's used percentage, or -1 when unknown (sorts last). */
    public double usedPercent(Decision d) {
        return of(d).flatMap(StatefulSetUsage::fullest).map(ClaimUsage::usedPercent).orElse(-1.0);
    }

    /** The suggested size of a template, if one is. */
    public Optional<SuggestedSize> suggestion(Decision d, String template) {
        return of(d).flatMap(u -> u.suggestions().stream().filter(s -> s.template().equals(template)).findFirst());
    }

    /** The USED column: "92%", "" when unknown. */
    public String usedCell(Decision d) {
        double p = usedPercent(d);
        return p < 0 ? "" : percent(p);
    }

    /** The FILLS IN column: "3h"; "sampling" while the UI's reads are too few for a rate; "" when none is known. */
    public String fillsInCell(Decision d) {
        return of(d).map(this::fillsIn).orElse("");
    }

    /** "3h"; "sampling" before the reads span {@link UsageSamples#ENOUGH} (and no Prometheus rate); "" otherwise. */
    String fillsIn(StatefulSetUsage u) {
        return u.fillsIn().map(Durations::brief).orElse(sampling() ? SAMPLING : "");
    }

    /** The UI's own reads are still too few for a time to full. */
    boolean sampling() {
        return sampledFor.compareTo(UsageSamples.ENOUGH) < 0;
    }

    static final String SAMPLING = "sampling";

    /** The SUGGEST column: "14Gi" (several templates: "data 14Gi, wal 2Gi"), "" when none. */
    public String suggestCell(Decision d) {
        List<SuggestedSize> s = of(d).map(StatefulSetUsage::suggestions).orElse(List.of());
        if (s.size() == 1) {
            return s.get(0).suggested() + (s.get(0).cappedByQuota() ? " (quota)" : "");
        }
        return String.join(", ", s.stream().map(x -> x.template() + " " + x.suggested()).toList());
    }

    /** True when any usage is known: the list then has its usage columns. */
    public boolean any() {
        return !report.fullestFirst().isEmpty();
    }

    /**
     * The one line the header gives usage: what is unknown, else how long it has been sampled (and, before a time to
     * full can be known, for how long it must be).
     */
    public String status() {
        List<String> notes = report.notes().stream().filter(n -> !n.startsWith("growth measured") && !n.startsWith("growth not yet known"))
                .toList();
        if (!any()) {
            return notes.isEmpty() ? "usage: none read" : notes.get(0);
        }
        String base = sampledFor.isZero() ? "usage: read once" : "usage: sampled for " + Durations.brief(sampledFor);
        if (sampling()) {
            base += " (time to full after " + Durations.brief(UsageSamples.ENOUGH) + ")";
        }
        return notes.isEmpty() ? base : base + "; " + notes.get(0);
    }

    /** Style of a percentage: from 80 % WARN, from 90 % BAD. */
    public static Styled.Style style(double percent) {
        return percent >= BAD_PERCENT ? Styled.Style.BAD : percent >= WARN_PERCENT ? Styled.Style.WARN : Styled.Style.NORMAL;
    }

    /** Rounded down as {@link ClaimUsage#shownPercent} is. */
    static String percent(double p) {
        return (long) Math.floor(p + 1e-6) + "%";
    }

    /**
     * One claim as the diff shows it: used as the alert measures it, the bytes available, the capacity and the time to
     * full; on a shared file system, said.
     */
    String claimLine(ClaimUsage c) {
        String line = "used " + percent(c.usedPercent()) + "  available " + Bytes.human(c.availableBytes()) + " of " + Bytes.human(c.capacityBytes())
                + "  fills in " + c.fillsIn().map(Durations::brief).orElse(sampling() ? "? (" + SAMPLING + ")" : "?");
        return c.sharedFileSystem() ? line + "  shared file system (" + Bytes.human(c.capacityBytes()) + " reported for a "
                + Bytes.human(c.claimBytes()) + " claim): no size suggested" : line;
    }
}
