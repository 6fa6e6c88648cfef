package dev.stsresize.render;

import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.TemplateSize;
import dev.stsresize.plan.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The human plan: per StatefulSet its verdict, each template's live -> declared size, each claim's
 * request and capacity -> target with its StorageClass and expansion (✓/✗), the findings and the
 * warnings, then a one-line summary. Colour comes from the {@link Palette} only; without it the
 * text is identical, so the plain form is what tests and pipes see.
 */
public final class TableRenderer {
    private static final String[] CLAIM_HEADER = {"CLAIM", "REQUEST", "CAPACITY", "", "TARGET", "CLASS", "PHASE", "ACTION"};
    private final Palette p;

    public TableRenderer(Palette palette) {
        this.p = palette;
    }

    public String render(List<Decision> decisions) {
        StringBuilder out = new StringBuilder();
        for (Decision d : decisions) {
            block(d, out);
            out.append('\n');
        }
        out.append(summary(decisions)).append('\n');
        return out.toString();
    }

    private void block(Decision d, StringBuilder out) {
        out.append(p.bold(d.namespace() + "/" + d.name())).append("  ").append(verdict(d)).append('\n');
        for (TemplateSize t : d.templates()) {
            out.append("  template ").append(t.name()).append(": ").append(templateSizes(t)).append('\n');
        }
        if (!d.claims().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            List<ClaimState> claims = d.claims();
            for (ClaimState c : claims) {
                rows.add(new String[] {c.name(), text(c.request()), text(c.capacity()), c.grow() ? "→" : "", c.target().toString(),
                    (c.storageClass() == null ? "(none)" : c.storageClass()) + " " + (c.expandable() ? "✓" : "✗"),
                    c.phase() == null ? "-" : c.phase(), action(d, c)});
            }
            int[] widths = widths(rows);
            out.append("  ").append(p.dim(line(CLAIM_HEADER, widths))).append('\n');
            for (int i = 0; i < rows.size(); i++) {
                out.append("  ").append(claimLine(rows.get(i), widths, claims.get(i), d)).append('\n');
            }
        } else if (d.verdict() != Verdict.ABSENT) {
            out.append("  ").append(p.dim("no claims of its templates exist yet")).append('\n');
        }
        if (d instanceof Refusal r) {
            for (Finding f : r.findings()) {
                String text = f.reason().label() + ": " + f.message();
                out.append("  ").append(f.reason().permanent() ? p.red(text) : p.yellow(text)).append('\n');
            }
        } else {
            out.append("  ").append(p.dim(d.detail())).append('\n');
        }
        for (String w : d.warnings()) {
            out.append("  ").append(p.yellow("warning: " + w)).append('\n');
        }
    }

    private String verdict(Decision d) {
        String word = d.verdict().label().toUpperCase(java.util.Locale.ROOT).replace('-', ' ');
        return switch (d.verdict()) {
            case GROW -> p.green(word) + p.dim(" (grow claims, orphan-delete, re-apply)");
            case GROW_CLAIMS -> p.green(word) + p.dim(" (no recreate)");
            case UP_TO_DATE, ABSENT -> p.dim(word);
            case REFUSED -> p.red(word + ": " + ((Refusal) d).reason().label());
            case BLOCKED -> p.yellow(word + ": " + ((Refusal) d).reason().label());
        };
    }

    private String templateSizes(TemplateSize t) {
        if (t.live() == null) {
            return t.declared() + p.dim(" (not in the cluster)");
        }
        if (!t.changes()) {
            return p.dim(t.live() + " (unchanged)");
        }
        boolean grows = t.live().isLessThan(t.declared());
        String to = grows ? p.green(t.declared().toString()) : p.red(t.declared() + " (shrink)");
        return p.dim(t.live().toString()) + " → " + to;
    }

    private static String action(Decision d, ClaimState c) {
        String where = c.scaledAway() ? ", scaled away" : "";
        if (!c.grow()) {
            return "keep (at or above target)" + where;
        }
        return (d.verdict().hasWork() ? "grow" : "needs growth") + where;
    }

    private String claimLine(String[] cells, int[] widths, ClaimState c, Decision d) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String cell = cells[i];
            String styled = cell;
            if (i == 4 && c.grow()) {
                styled = d.verdict().hasWork() ? p.green(cell) : p.yellow(cell);
            } else if (i == 5) {
                String mark = c.expandable() ? "✓" : "✗";
                styled = cell.replace(mark, c.expandable() ? p.green(mark) : p.red(mark));
            } else if (i == cells.length - 1 && !c.grow()) {
                styled = p.dim(cell);
            }
            // pad after styling, so that colour never spans the gap between columns
            b.append(styled);
            if (i < cells.length - 1) {
                b.append(" ".repeat(widths[i] - cell.codePointCount(0, cell.length()) + 2));
            }
        }
        return b.toString().stripTrailing();
    }

    private static int[] widths(List<String[]> rows) {
        int[] w = new int[CLAIM_HEADER.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = CLAIM_HEADER[i].length();
        }
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], r[i].codePointCount(0, r[i].length()));
            }
        }
        return w;
    }

    private static String line(String[] cells, int[] widths) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            b.append(pad(cells[i], widths[i])).append(i < cells.length - 1 ? "  " : "");
        }
        return b.toString().stripTrailing();
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.codePointCount(0, s.length())));
    }

    private static String text(Quantity q) {
        return q == null ? "-" : q.toString();
    }

    static String summary(List<Decision> decisions) {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        decisions.forEach(d -> counts.merge(d.verdict(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        counts.forEach((v, n) -> parts.add(n + " " + v.label()));
        return decisions.size() + " StatefulSet" + (decisions.size() == 1 ? "" : "s")
                + (parts.isEmpty() ? "" : ": " + String.join(", ", parts));
    }
}
