package dev.stsresize.render;

import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.TemplateSize;
import dev.stsresize.plan.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The human plan: per StatefulSet its verdict, each template's live -> declared size, each claim's
 * request and capacity -> target with its StorageClass and expansion (✓/✗), the findings and the
 * warnings, then a one-line summary. Colour comes from the {@link Palette} only; without it the
 * text is identical, so the plain form is what tests and pipes see.
 *
 * <p>With a width (the terminal's), every line fits it: the claim table shrinks its widest
 * shrinkable columns (claim names lose their middle, keeping the ordinal; class names keep their
 * ✓/✗; phase and action lose their end), each cut marked with an ellipsis; sentences wrap at a
 * word. Never cut: the namespace/name and the verdict of a heading, and the quantities.
 */
public final class TableRenderer {
    private static final String[] CLAIM_HEADER = {"CLAIM", "REQUEST", "CAPACITY", "", "TARGET", "CLASS", "PHASE", "ACTION"};
    private static final int CLAIM = 0;
    private static final int CLASS = 5;
    private static final int PHASE = 6;
    private static final int ACTION = 7;
    /** The columns that may shrink, and how narrow each may get. */
    private static final int[] SHRINKABLE = {CLAIM, CLASS, PHASE, ACTION};
    private static final int[] MIN_WIDTH = {9, 0, 0, 0, 0, 7, 5, 6};
    static final String ELLIPSIS = "…";
    static final int MIN_TERMINAL = 20;
    private static final String KEEP = "keep (at or above target)";
    private static final String KEEP_SHORT = "keep (≥ target)";
    private static final String INDENT = "  ";
    private static final String HANGING = "    ";

    private final Palette p;
    private final int width;
    private final CopyOptIn copy;

    public TableRenderer(Palette palette) {
        this(palette, 0);
    }

    /** @param width the columns every line must fit in (the terminal's); 0 or less: no limit */
    public TableRenderer(Palette palette, int width) {
        this(palette, width, CopyOptIn.NONE);
    }

    /**
     * @param width the columns every line must fit in (the terminal's); 0 or less: no limit
     * @param copy the operator's opt-in to the copy: a copied claim's action names its new volume's class
     */
    public TableRenderer(Palette palette, int width, CopyOptIn copy) {
        this.p = palette;
        this.copy = copy == null ? CopyOptIn.NONE : copy;
        // narrower than this, nothing readable fits: the lines are cut as at 20 columns
        this.width = width <= 0 ? 0 : Math.max(width, MIN_TERMINAL);
    }

    public String render(List<Decision> decisions) {
        return render(decisions, Map.of());
    }

    /**
     * With the usage read from the cluster: a StatefulSet whose usage is known gets one line more, its fullest
     * claim's USED, its soonest FILLS IN and the SUGGESTed size of each template that needs one.
     *
     * @param usage by {@code namespace/name}
     */
    public String render(List<Decision> decisions, Map<String, StatefulSetUsage> usage) {
        StringBuilder out = new StringBuilder();
        for (Decision d : decisions) {
            StatefulSetUsage u = usage.get(dev.stsresize.plan.Metadata.key(d.namespace(), d.name()));
            block(d, Optional.ofNullable(u), out);
            if (u != null) {
                prose(UsageText.line(u), UsageText.percentStyle(p, u), out);
            }
            out.append('\n');
        }
        out.append(summaryLines(decisions)).append('\n');
        return out.toString();
    }

    private void block(Decision d, Optional<StatefulSetUsage> usage, StringBuilder out) {
        out.append(heading(d)).append('\n');
        for (TemplateSize t : d.templates()) {
            out.append(templateLine(t)).append('\n');
        }
        if (!d.claims().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            List<ClaimState> claims = d.claims();
            for (ClaimState c : claims) {
                rows.add(new String[] {c.name(), text(c.request()), text(c.capacity()), c.grow() ? "→" : "", c.target().toString(),
                    (c.storageClass() == null ? "(none)" : c.storageClass()) + " " + mark(c),
                    c.phase() == null ? "-" : c.phase(), action(d, c, copy)});
            }
            if (width > 0 && tableWidth(widths(rows)) > width) {
                // too wide: the short form of an action says the same before anything is cut
                rows.forEach(r -> r[ACTION] = r[ACTION].replace(KEEP, KEEP_SHORT));
            }
            int[] widths = fit(widths(rows));
            for (String[] row : rows) {
                cut(row, widths);
            }
            out.append(INDENT).append(p.dim(line(CLAIM_HEADER, widths))).append('\n');
            for (int i = 0; i < rows.size(); i++) {
                out.append(INDENT).append(claimLine(rows.get(i), widths, claims.get(i), d)).append('\n');
            }
        } else if (d.verdict() != Verdict.ABSENT) {
            prose("no claims of its templates exist yet", p::dim, out);
        }
        if (d instanceof Refusal r) {
            for (Finding f : r.findings()) {
                String text = f.reason().label() + ": " + f.message();
                prose(text, f.reason().permanent() ? p::red : p::yellow, out);
            }
        } else {
            prose(d.detail(), p::dim, out);
        }
        CopyDowntime.paragraph(d, usage).ifPresent(text -> prose(text, p::yellow, out));
        for (String w : d.warnings()) {
            prose("warning: " + w, p::yellow, out);
        }
    }

    /** namespace/name and the verdict, whole; the verdict's explanation only as far as it fits. */
    private String heading(Decision d) {
        String name = d.namespace() + "/" + d.name();
        String word = d.verdict().label().toUpperCase(java.util.Locale.ROOT).replace('-', ' ');
        String explanation = switch (d.verdict()) {
            case GROW -> " (grow claims, orphan-delete, re-apply)";
            case GROW_CLAIMS -> " (no recreate)";
            case COPY -> " (copy each claim to a bigger volume, one pod at a time)";
            default -> "";
        };
        String verdict = switch (d.verdict()) {
            case GROW, GROW_CLAIMS, COPY, UP_TO_DATE, ABSENT -> word;
            case REFUSED, BLOCKED -> word + ": " + ((Refusal) d).reason().label();
        };
        if (width > 0 && !explanation.isEmpty()) {
            int room = width - length(name) - 2 - length(verdict);
            explanation = room >= length(explanation) ? explanation : room >= 8 ? endCut(explanation, room) : "";
        }
        String styled = switch (d.verdict()) {
            case GROW, GROW_CLAIMS, COPY -> p.green(verdict) + p.dim(explanation);
            case UP_TO_DATE, ABSENT -> p.dim(verdict);
            case REFUSED -> p.red(verdict);
            case BLOCKED -> p.yellow(verdict);
        };
        return p.bold(name) + "  " + styled;
    }

    /** "  template NAME: sizes": the name loses its middle when the line would not fit. */
    private String templateLine(TemplateSize t) {
        String sizes;
        String plainSizes;
        if (t.live() == null) {
            plainSizes = t.declared() + " (not in the cluster)";
            sizes = t.declared() + p.dim(" (not in the cluster)");
        } else if (!t.changes()) {
            plainSizes = t.live() + " (unchanged)";
            sizes = p.dim(plainSizes);
        } else {
            boolean grows = t.live().isLessThan(t.declared());
            String to = grows ? t.declared().toString() : t.declared() + " (shrink)";
            plainSizes = t.live() + " → " + to;
            sizes = p.dim(t.live().toString()) + " → " + (grows ? p.green(to) : p.red(to));
        }
        String name = t.name();
        String prefix = INDENT + "template ";
        if (width > 0) {
            int room = width - length(prefix) - 2 - length(plainSizes);
            if (room < length(name)) {
                name = middleCut(name, Math.max(room, 5));
            }
        }
        return prefix + name + ": " + sizes;
    }

    /** A sentence at the block's indent, wrapped at words to the width (continuation lines hang). */
    private void prose(String text, java.util.function.UnaryOperator<String> style, StringBuilder out) {
        for (String l : wrap(text, width, INDENT, HANGING)) {
            int lead = l.length() - l.stripLeading().length();
            out.append(l, 0, lead).append(style.apply(l.substring(lead))).append('\n');
        }
    }

    /**
     * Lines of at most {@code width} columns (0: one line), the first starting with {@code first},
     * the others with {@code rest}; breaks at spaces, and inside a word only when it alone is too long.
     */
    static List<String> wrap(String text, int width, String first, String rest) {
        List<String> lines = new ArrayList<>();
        if (width <= 0 || length(first) + length(text) <= width || width - Math.max(length(first), length(rest)) < 1) {
            lines.add(first + text);
            return lines;
        }
        StringBuilder line = new StringBuilder(first);
        boolean empty = true;
        for (String word : text.split(" ", -1)) {
            if (!empty && length(line.toString()) + 1 + length(word) > width) {
                lines.add(line.toString());
                line = new StringBuilder(rest);
                empty = true;
            } else if (!empty) {
                line.append(' ');
            }
            String w = word;
            // a word longer than a whole line is broken where each line ends
            while (length(w) > width - length(rest) && length(line.toString()) + length(w) > width) {
                int room = width - length(line.toString());
                if (room > 0) {
                    int cut = w.offsetByCodePoints(0, room);
                    line.append(w, 0, cut);
                    w = w.substring(cut);
                }
                lines.add(line.toString());
                line = new StringBuilder(rest);
            }
            line.append(w);
            empty = false;
        }
        lines.add(line.toString());
        return lines;
    }

    /** ✓ the class allows expansion, ✗ it does not, ? it could not be read (never shown as allowed). */
    static String mark(ClaimState c) {
        return !c.classKnown() ? "?" : c.expandable() ? "✓" : "✗";
    }

    /** The claim's action column: grow, needs growth (refused or blocked), keep; ", scaled away" when so. */
    private static String action(Decision d, ClaimState c, CopyOptIn copy) {
        String where = c.scaledAway() ? ", scaled away" : "";
        if (c.resizeFailed()) {
            return "resize failed" + where; // requested, never grown: not "at or above target"
        }
        if (c.lagging()) {
            return "resizing" + where; // requested, volume not grown yet
        }
        if (!c.grow()) {
            return KEEP + where;
        }
        if (c.copy()) {
            return "copy to " + copy.classFor(c.storageClass()) + where;
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
                String mark = mark(c);
                styled = cell.replace(mark, !c.classKnown() ? p.yellow(mark) : c.expandable() ? p.green(mark) : p.red(mark));
            } else if (i == cells.length - 1 && c.resizeFailed()) {
                styled = p.yellow(cell);
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

    /** The columns' widths narrowed, widest shrinkable first, until the table fits the width (or none can shrink). */
    private int[] fit(int[] w) {
        if (width <= 0) {
            return w;
        }
        while (tableWidth(w) > width) {
            int widest = -1;
            for (int c : SHRINKABLE) {
                int min = Math.max(MIN_WIDTH[c], CLAIM_HEADER[c].length());
                if (w[c] > min && (widest < 0 || w[c] > w[widest])) {
                    widest = c;
                }
            }
            if (widest < 0) {
                break;
            }
            w[widest]--;
        }
        return w;
    }

    private static int tableWidth(int[] w) {
        int total = INDENT.length();
        for (int i = 0; i < w.length; i++) {
            total += w[i] + (i < w.length - 1 ? 2 : 0);
        }
        return total;
    }

    /** Cuts the cells of one row to their columns' widths, each cut marked with an ellipsis. */
    private static void cut(String[] row, int[] w) {
        row[CLAIM] = middleCut(row[CLAIM], w[CLAIM]);
        if (length(row[CLASS]) > w[CLASS]) {
            // "name ✓": the name is cut, the expansion mark stays
            String mark = row[CLASS].substring(row[CLASS].length() - 2);
            row[CLASS] = endCut(row[CLASS].substring(0, row[CLASS].length() - 2), w[CLASS] - 2) + mark;
        }
        row[PHASE] = endCut(row[PHASE], w[PHASE]);
        row[ACTION] = endCut(row[ACTION], w[ACTION]);
    }

    /** {@code s} in at most {@code max} columns, its end replaced by an ellipsis when cut. */
    static String endCut(String s, int max) {
        if (length(s) <= max) {
            return s;
        }
        if (max <= 1) {
            return ELLIPSIS;
        }
        return s.substring(0, s.offsetByCodePoints(0, max - 1)).stripTrailing() + ELLIPSIS;
    }

    /** {@code s} in at most {@code max} columns, its middle replaced by an ellipsis (the end, an ordinal, kept). */
    static String middleCut(String s, int max) {
        int n = length(s);
        if (n <= max) {
            return s;
        }
        if (max <= 1) {
            return ELLIPSIS;
        }
        int tail = (max - 1) / 2;
        int head = max - 1 - tail;
        return s.substring(0, s.offsetByCodePoints(0, head)) + ELLIPSIS + s.substring(s.offsetByCodePoints(0, n - tail));
    }

    private static int length(String s) {
        return s.codePointCount(0, s.length());
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

    private String summaryLines(List<Decision> decisions) {
        return String.join("\n", wrap(summary(decisions), width, "", "  "));
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
