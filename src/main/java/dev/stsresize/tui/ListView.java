package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.Styled.Style;
import java.util.List;

/**
 * One row per declared StatefulSet: namespace/name, verdict, each template's live → declared size,
 * claims to grow, StorageClass with expansion. Columns take their natural width; when the terminal is
 * narrow the least telling ones (class, templates, the verdict's reason) shrink first, then whole columns
 * give way (class, templates, grow; with usage, then suggest and fills in). The name is never cut while
 * a column could give way: a row is found by its name. Once usage is known, USED, FILLS IN and SUGGEST
 * come after the verdict (the diff says the reason in full; an incident looks for the name and the fill).
 */
final class ListView {
    private static final String[] BASE_HEADERS = {"NAMESPACE/NAME", "VERDICT", "TEMPLATES", "GROW", "CLASS"};
    private static final int[] BASE_MIN = {12, 10, 10, 4, 6};
    /** Which columns give up space first, down to their minimum. */
    private static final int[] BASE_SHRINK = {4, 2, 1};
    /** Which columns give way, whole, when shrinking is not enough. */
    private static final int[] BASE_DROP = {4, 2, 3};
    /** Once usage is known: how full, when full, what size, before the templates (what an incident looks at first). */
    private static final String[] USAGE_HEADERS = {"NAMESPACE/NAME", "VERDICT", "USED", "FILLS IN", "SUGGEST", "TEMPLATES", "GROW", "CLASS"};
    private static final int[] USAGE_MIN = {12, 10, 4, 8, 7, 10, 4, 6};
    private static final int[] USAGE_SHRINK = {7, 5, 1, 4};
    private static final int[] USAGE_DROP = {7, 5, 6, 4, 3};
    private static final int NAME = 0;
    private static final int VERDICT = 1;
    private static final int WIDE_GAP = 2;

    private ListView() {}

    static void draw(UiState s, Painter p, int left, int top, int width, int height) {
        boolean usage = s.usage() != null && s.usage().any();
        String[] headers = usage ? USAGE_HEADERS : BASE_HEADERS;
        List<Decision> rows = s.visible();
        if (rows.isEmpty()) {
            String why = s.loading() ? "loading" + p.glyphs.ellipsis()
                    : s.loaded().decisions().isEmpty() ? "the manifest declares no StatefulSet in scope"
                    : "no StatefulSet matches /" + s.filter() + "  (Esc clears the filter)";
            p.text(left, top + 1, why, Style.DIM, width);
            return;
        }
        String[][] cells = new String[rows.size()][];
        for (int i = 0; i < rows.size(); i++) {
            cells[i] = usage ? usageCells(rows.get(i), s.usage(), p.glyphs) : cells(rows.get(i), p.glyphs);
            if (s.loaded().unproved(rows.get(i))) {
                cells[i][VERDICT] += " " + unprovedMark(s, p.glyphs);
            }
        }
        int[] w = widths(headers, cells, width, usage ? USAGE_MIN : BASE_MIN, usage ? USAGE_SHRINK : BASE_SHRINK, usage ? USAGE_DROP : BASE_DROP);
        int grow = headers.length - 2;
        int last = lastShown(w);
        int gap = total(w, WIDE_GAP) <= width ? WIDE_GAP : 1;
        int col = left;
        for (int c = 0; c < headers.length; c++) {
            if (w[c] > 0) {
                p.text(col, top, headers[c], Style.DIM, w[c]);
                col += w[c] + gap;
            }
        }
        int page = height - 1;
        int first = Layout.listTop(Math.min(s.cursor(), rows.size() - 1), s.rows());
        for (int i = first; i < rows.size() && i - first < page; i++) {
            Decision d = rows.get(i);
            boolean selected = i == Math.min(s.cursor(), rows.size() - 1);
            int row = top + 1 + i - first;
            if (s.marked().contains(Loaded.key(d))) {
                p.text(left - 1, row, "*", Style.ACCENT, 1); // in the padding: a mark moves no column
            }
            Style base = d.verdict() == Verdict.UP_TO_DATE || d.verdict() == Verdict.ABSENT ? Style.DIM : Style.NORMAL;
            // a volume filling up is what the operator came for: its name is never dimmed
            Style name = usage && s.usage().usedPercent(d) >= UsageIndex.WARN_PERCENT ? UsageIndex.style(s.usage().usedPercent(d)) : base;
            col = left;
            for (int c = 0; c < headers.length; c++) {
                if (w[c] == 0) {
                    continue;
                }
                Style style = c == NAME ? name : base;
                if (c == VERDICT) {
                    style = DiffLines.verdictStyle(d.verdict());
                } else if (c == grow && d.verdict().hasWork()) {
                    style = Style.GOOD;
                } else if (usage && (c == 2 || c == 3)) {
                    style = UsageIndex.style(s.usage().usedPercent(d)); // yellow from 80 %, red from 90 %
                } else if (usage && c == 4) {
                    style = Style.ACCENT;
                }
                boolean isClass = c == headers.length - 1;
                String cell = isClass ? classCell(cells[i][c], w[c], p.glyphs) : cells[i][c];
                String text = c == last ? cell : Texts.pad(Texts.fit(cell, w[c], p.glyphs), w[c] + gap);
                col += p.text(col, row, text, style, c == last ? left + width - col : w[c] + gap, selected);
            }
            if (selected && col < left + width) {
                p.text(col, row, " ".repeat(left + width - col), Style.NORMAL, left + width - col, true);
            }
        }
    }

    /** What a verdict decided from the objects alone waits for: the server's proofs, asked now, or failed (r asks again). */
    static String unprovedMark(UiState s, Glyphs g) {
        return s.loading() ? "checking" + g.ellipsis() : "unchecked";
    }

    static String[] cells(Decision d, Glyphs g) {
        return new String[] {Loaded.key(d), Texts.verdict(d), Texts.templates(d, g), Texts.claimsToGrow(d), Texts.classes(d, g)};
    }

    static String[] usageCells(Decision d, UsageIndex u, Glyphs g) {
        return new String[] {Loaded.key(d), Texts.verdict(d), u.usedCell(d), u.fillsInCell(d), u.suggestCell(d), Texts.templates(d, g),
            Texts.claimsToGrow(d), Texts.classes(d, g)};
    }

    /** A single class cut keeps its expansion mark: "fast-o… ✓", the mark is what the column is for. */
    static String classCell(String cell, int width, Glyphs g) {
        int len = cell.codePointCount(0, cell.length());
        boolean marked = cell.endsWith(" " + g.yes()) || cell.endsWith(" " + g.no()) || cell.endsWith(" ?");
        if (len <= width || !marked || cell.contains(", ") || width < 4) {
            return cell;
        }
        String mark = cell.substring(cell.lastIndexOf(' '));
        return Texts.fit(cell.substring(0, cell.lastIndexOf(' ')), width - mark.length(), g) + mark;
    }

    /** The widths of the columns without usage at {@code width}; 0 for a column that gave way. */
    static int[] widths(String[][] cells, int width) {
        return widths(BASE_HEADERS, cells, width, BASE_MIN, BASE_SHRINK, BASE_DROP);
    }

    /**
     * Natural widths, then, until the row fits with one space between columns: the columns of
     * {@code shrinkOrder} shrunk down to {@code min}, else the next column of {@code dropOrder} left out
     * (width 0) and the others at their natural width again. Only when name and verdict alone do not fit
     * does the verdict shrink to its minimum, and then the name.
     */
    static int[] widths(String[] headers, String[][] cells, int width, int[] min, int[] shrinkOrder, int[] dropOrder) {
        int[] natural = new int[headers.length];
        for (int c = 0; c < natural.length; c++) {
            natural[c] = headers[c].length();
        }
        for (String[] row : cells) {
            for (int c = 0; c < natural.length; c++) {
                natural[c] = Math.max(natural[c], row[c].codePointCount(0, row[c].length()));
            }
        }
        boolean[] dropped = new boolean[headers.length];
        for (int drop = 0; ; drop++) {
            int[] w = natural.clone();
            for (int c = 0; c < w.length; c++) {
                if (dropped[c]) {
                    w[c] = 0;
                }
            }
            shrink(w, min, shrinkOrder, total(w, 1) - width);
            if (total(w, 1) <= width || drop == dropOrder.length) {
                shrink(w, new int[] {1, min[VERDICT]}, new int[] {VERDICT, NAME}, total(w, 1) - width);
                return w;
            }
            dropped[dropOrder[drop]] = true;
        }
    }

    /** Takes {@code over} columns from the columns of {@code order}, each down to its {@code min}. */
    private static void shrink(int[] w, int[] min, int[] order, int over) {
        for (int c : order) {
            if (over <= 0) {
                return;
            }
            if (w[c] == 0) {
                continue;
            }
            int give = Math.min(over, Math.max(0, w[c] - min[c]));
            w[c] -= give;
            over -= give;
        }
    }

    private static int lastShown(int[] w) {
        int last = 0;
        for (int c = 0; c < w.length; c++) {
            if (w[c] > 0) {
                last = c;
            }
        }
        return last;
    }

    /** The columns shown (width above 0) and a gap between each two. */
    private static int total(int[] w, int gap) {
        int t = 0;
        int shown = 0;
        for (int x : w) {
            if (x > 0) {
                t += x;
                shown++;
            }
        }
        return t + gap * Math.max(0, shown - 1);
    }
}
