package dev.stsresize.tui;

import dev.stsresize.converge.CopyPlan;
import dev.stsresize.converge.Write;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.TemplateSize;
import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Style;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The diff of one StatefulSet as styled lines, already wrapped to the width: per template its sizes and
 * claims (ordinal, request, capacity, target, phase, scaled away), the StorageClasses, the refusal in
 * plain words, the warnings, and the writes to come as kubectl commands. Pure, so {@link Update} can
 * count the lines to bound the scrolling.
 */
public final class DiffLines {
    private DiffLines() {}

    /** The diff with each claim's conditions as {@code loaded} last read them. */
    public static List<Line> of(Decision d, Loaded loaded, Glyphs g, int width) {
        List<Line> out = new ArrayList<>(of(d, loaded.uid(d), loaded.fieldManager(d), loaded.copy(), claim -> loaded.conditions(d.namespace(), claim), g,
                width));
        if (loaded.unproved(d)) {
            // under the title: the verdict is the objects' alone, and may still become a refusal
            out.addAll(1, Styled.wrap(Styled.of("Decided from the objects read; the server's permission checks and dry runs are not in"
                    + " yet (the header says whether they are being asked): this verdict may still turn into a refusal, and no write"
                    + " starts before they pass.", Style.WARN), width, 2));
        }
        return out;
    }

    /** The diff with, under its title, each claim's usage (used, capacity, free, fills in) and the suggested sizes. */
    public static List<Line> of(Decision d, Loaded loaded, UsageIndex usage, Glyphs g, int width) {
        List<Line> out = new ArrayList<>(of(d, loaded, g, width));
        if (usage == null) {
            return out;
        }
        List<Line> raw = usageLines(d, usage, g);
        List<Line> wrapped = new ArrayList<>();
        raw.forEach(l -> wrapped.addAll(Styled.wrap(l, width, 6)));
        int blank = 0;
        while (blank < out.size() && !out.get(blank).text().isEmpty()) {
            blank++;
        }
        out.addAll(Math.min(blank + 1, out.size()), wrapped);
        return out;
    }

    private static List<Line> usageLines(Decision d, UsageIndex usage, Glyphs g) {
        List<Line> raw = new ArrayList<>();
        var u = usage.of(d);
        List<dev.stsresize.plan.UnmeasuredClaim> unmeasured = usage.report().unmeasured(d.namespace(), d.name());
        if (u.isEmpty()) {
            raw.add(Styled.line().add("usage ", Style.DIM).add(usage.any() ? "unknown for its claims" : usage.status().replaceFirst("^usage:? ", ""), Style.DIM).line());
            unmeasured.forEach(c -> raw.add(Styled.line().add("  " + c.claim() + "  ").add("no usage: " + c.reason(), Style.DIM).line()));
            raw.add(Styled.line().line());
            return raw;
        }
        raw.add(Styled.line().add("usage", Style.BOLD).add("  " + usage.status().replaceFirst("^usage: ", ""), Style.DIM).line());
        for (var c : u.get().claims()) {
            Style style = UsageIndex.style(c.usedPercent());
            raw.add(Styled.line().add("  " + c.claim() + "  ").add(usage.claimLine(c), style).line());
        }
        unmeasured.forEach(c -> raw.add(Styled.line().add("  " + c.claim() + "  ").add("no usage: " + c.reason(), Style.DIM).line()));
        for (var s : u.get().suggestions()) {
            raw.add(Styled.line().add("  suggested ", Style.DIM).add(s.template() + " " + s.current() + " " + g.arrow() + " ")
                    .add(s.suggested(), Style.GOOD).add("  " + s.why() + "  (e edits the manifest)", Style.DIM).line());
        }
        raw.add(Styled.line().line());
        return raw;
    }

    /** {@code fieldManager}: the re-apply's, "" when not read. */
    public static List<Line> of(Decision d, String uid, String fieldManager, Glyphs g, int width) {
        return of(d, uid, fieldManager, CopyOptIn.NONE, claim -> List.of(), g, width);
    }

    private static List<Line> of(Decision d, String uid, String fieldManager, CopyOptIn copy,
            java.util.function.Function<String, List<String>> conditions, Glyphs g, int width) {
        List<Line> raw = new ArrayList<>();
        raw.add(Styled.line().add(Loaded.key(d), Style.BOLD).add("   ").add(Texts.verdict(d), verdictStyle(d.verdict()))
                .add("   " + summary(d), Style.DIM).line());
        raw.add(Styled.line().line());
        for (TemplateSize t : d.templates()) {
            template(d, t, g, conditions, raw);
        }
        classes(d, g, raw);
        if (d instanceof Refusal r) {
            raw.add(Styled.line().line());
            raw.add(Styled.of(d.verdict() == Verdict.REFUSED ? "Refused: nothing will be written" : "Blocked for now: nothing will be written",
                    d.verdict() == Verdict.REFUSED ? Style.BAD : Style.WARN));
            for (Finding f : r.findings()) {
                raw.add(Styled.line().add("  " + Texts.plain(f.reason()) + ".", f.reason().permanent() ? Style.BAD : Style.WARN).line());
                raw.add(Styled.line().add("    " + f.reason().label() + ": " + f.message(), Style.DIM).line());
            }
        }
        if (!d.warnings().isEmpty()) {
            raw.add(Styled.line().line());
            raw.add(Styled.of("Warnings", Style.WARN));
            for (String w : d.warnings()) {
                raw.add(Styled.line().add("  ! ", Style.WARN).add(w).line());
            }
        }
        List<Line> out = new ArrayList<>();
        for (Line l : raw) {
            out.addAll(Styled.wrap(l, width, 6));
        }
        if (d.claimsToCopy().isEmpty()) {
            writes(d, uid, fieldManager, width, out);
        } else {
            copyWrites(d, copy, width, out);
        }
        return out;
    }

    private static String summary(Decision d) {
        return switch (d.verdict()) {
            case GROW -> "grow claims, orphan-delete, re-apply";
            case GROW_CLAIMS -> "grow the lagging claims, no recreate";
            case COPY -> "copy each claim to a bigger volume, one pod at a time";
            case UP_TO_DATE -> "nothing to do";
            case ABSENT -> "not in the cluster: kubectl apply creates it";
            case REFUSED, BLOCKED -> "";
        };
    }

    private static void template(Decision d, TemplateSize t, Glyphs g, java.util.function.Function<String, List<String>> conditions,
            List<Line> out) {
        Styled.Builder head = Styled.line().add("template ", Style.DIM).add(t.name(), Style.BOLD).add("  ");
        if (t.live() == null) {
            head.add(t.declared().toString()).add(" (not in the cluster)", Style.DIM);
        } else if (!t.changes()) {
            head.add(t.live() + " (unchanged)", Style.DIM);
        } else if (t.live().isLessThan(t.declared())) {
            head.add(t.live().toString()).add(" " + g.arrow() + " ").add(t.declared().toString(), Style.GOOD);
        } else {
            head.add(t.live().toString()).add(" " + g.arrow() + " ").add(t.declared() + " (shrink)", Style.BAD);
        }
        out.add(head.line());
        List<ClaimState> claims = d.claims().stream().filter(c -> c.template().equals(t.name())).toList();
        if (claims.isEmpty()) {
            if (d.verdict() != Verdict.ABSENT) {
                out.add(Styled.of("  no claims of this template exist yet", Style.DIM));
            }
            out.add(Styled.line().line());
            return;
        }
        int nameWidth = Math.max(5, claims.stream().mapToInt(c -> c.name().length()).max().orElse(5));
        out.add(Styled.of("  " + Texts.pad("ORD", 4) + Texts.pad("CLAIM", nameWidth + 2) + Texts.pad("REQUEST", 9)
                + Texts.pad("CAPACITY", 10) + Texts.pad("TARGET", 8) + Texts.pad("PHASE", 9) + "ACTION", Style.DIM));
        for (ClaimState c : claims) {
            Styled.Builder b = Styled.line().add("  " + Texts.pad(String.valueOf(c.ordinal()), 4) + Texts.pad(c.name(), nameWidth + 2)
                    + Texts.pad(text(c.request()), 9) + Texts.pad(text(c.capacity()), 10));
            b.add(Texts.pad(c.target().toString(), 8), c.grow() ? (d.verdict().hasWork() ? Style.GOOD : Style.WARN) : Style.DIM);
            String phase = c.phase() == null ? "-" : c.phase();
            b.add(Texts.pad(phase, 9), c.bound() ? Style.NORMAL : Style.WARN);
            b.add(action(d, c), c.grow() ? Style.NORMAL : Style.DIM);
            if (c.scaledAway()) {
                b.add("  scaled away", Style.ACCENT);
            }
            List<String> cond = conditions.apply(c.name());
            if (!cond.isEmpty()) {
                b.add("  " + String.join(", ", cond), Style.WARN);
            }
            out.add(b.line());
        }
        out.add(Styled.line().line());
    }

    private static String action(Decision d, ClaimState c) {
        if (!c.grow()) {
            return "keep";
        }
        return !d.verdict().hasWork() ? "needs growth" : c.copy() ? "copy" : "grow";
    }

    private static void classes(Decision d, Glyphs g, List<Line> out) {
        Texts.expansionByClass(d, "").forEach((name, e) -> out.add(Styled.line().add("StorageClass ", Style.DIM)
                .add(name.isEmpty() ? "(none: the claim names no class)" : name, Style.BOLD)
                .add("  allowVolumeExpansion ").add(e.equals("true") ? g.yes() + " true" : e.equals("false") ? g.no() + " false"
                        : "? unknown (StorageClasses cannot be read; the claim's dry-run patch decides)",
                        e.equals("true") ? Style.GOOD : e.equals("false") ? Style.BAD : Style.WARN).line()));
    }

    /** The writes, each command and file laid out to be copied as it is ({@link CopyableLines}). */
    private static void writes(Decision d, String uid, String fieldManager, int width, List<Line> out) {
        List<Write> writes = Write.planned(d, uid, fieldManager);
        if (writes.isEmpty()) {
            return;
        }
        out.add(Styled.line().line());
        out.addAll(Styled.wrap(Styled.of("Writes to come, as kubectl would make them (the wizard asks before each)", Style.BOLD), width, 6));
        int n = 1;
        for (Write w : writes) {
            out.addAll(CopyableLines.command(Styled.line().add(String.format("%2d. ", n++), Style.DIM).line(), w.command(), Style.ACCENT, width, 6));
            if (w instanceof Write.OrphanDelete del) {
                out.addAll(CopyableLines.json(Styled.line().add("    " + Write.DELETE_OPTIONS_FILE + ": ", Style.DIM).line(), del.options(),
                        Style.NORMAL, width, 6));
            }
            if (w instanceof Write.Apply a) {
                out.addAll(Styled.wrap(Styled.line().add("    " + Write.REAPPLY_FILE + ": ", Style.DIM).add(a.file()).line(), width, 6));
            }
        }
    }

    /**
     * A copy's writes, step by step as the copy makes them ({@link CopyPlan}): its orphan delete and re-apply are made
     * once per pod, among writes of volumes whose names are known only as the copy goes, so the wizard shows each
     * command as it sends it.
     */
    private static void copyWrites(Decision d, CopyOptIn copy, int width, List<Line> out) {
        out.add(Styled.line().line());
        out.addAll(Styled.wrap(Styled.of("Writes to come, a copy (the wizard asks before the first, and shows each as kubectl would make"
                + " it when it is sent)", Style.BOLD), width, 6));
        for (CopyPlan.Line l : CopyPlan.of(d, copy)) {
            out.addAll(l.claim() ? Styled.wrap(Styled.line().add("   · ", Style.DIM).add(l.text(), Style.ACCENT).line(), width, 5)
                    : Styled.wrap(Styled.line().add(" - ", Style.DIM).add(l.text()).line(), width, 3));
        }
    }

    private static String text(Quantity q) {
        return q == null ? "-" : q.toString();
    }

    static Style verdictStyle(Verdict v) {
        return switch (v) {
            case GROW, GROW_CLAIMS, COPY -> Style.GOOD;
            case REFUSED -> Style.BAD;
            case BLOCKED -> Style.WARN;
            case UP_TO_DATE, ABSENT -> Style.DIM;
        };
    }
}
