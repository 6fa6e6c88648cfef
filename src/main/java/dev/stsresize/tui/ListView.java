package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.Styled.Style;
import java.util.List;

/**
 * One row per declared StatefulSet: namespace/name, verdict, each template's live → declared size,
 * claims to grow, StorageClass with expansion. Columns take their natural width; when the terminal is
 * narrow the least telling ones (templates, class, then name) shrink first, the verdict last.
 */
final class ListView {
    private static final String[] HEADERS = {"NAMESPACE/NAME", "VERDICT", "TEMPLATES", "GROW", "CLASS"};
    private static final int[] MIN = {12, 10, 10, 4, 6};
    /** Which column gives up space first. */
    private static final int[] SHRINK_ORDER = {4, 0, 2, 1};
    private static final int WIDE_GAP = 2;

    private ListView() {}

    static void draw(UiState s, Painter p, int left, int top, int width, int height) {
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
            cells[i] = cells(rows.get(i), p.glyphs);
        }
        int[] w = widths(cells, width);
        int gap = total(w, WIDE_GAP) <= width ? WIDE_GAP : 1;
        int col = left;
        for (int c = 0; c < HEADERS.length; c++) {
            p.text(col, top, HEADERS[c], Style.DIM, w[c]);
            col += w[c] + gap;
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
            col = left;
            for (int c = 0; c < HEADERS.length; c++) {
                Style style = base;
                if (c == 1) {
                    style = DiffLines.verdictStyle(d.verdict());
                } else if (c == 3 && d.verdict().hasWork()) {
                    style = Style.GOOD;
                }
                String cell = c == 4 ? classCell(cells[i][c], w[c], p.glyphs) : cells[i][c];
                String text = c == HEADERS.length - 1 ? cell : Texts.pad(Texts.fit(cell, w[c], p.glyphs), w[c] + gap);
                col += p.text(col, row, text, style, c == HEADERS.length - 1 ? left + width - col : w[c] + gap, selected);
            }
            if (selected && col < left + width) {
                p.text(col, row, " ".repeat(left + width - col), Style.NORMAL, left + width - col, true);
            }
        }
    }

    static String[] cells(Decision d, Glyphs g) {
        return new String[] {Loaded.key(d), Texts.verdict(d), Texts.templates(d, g), Texts.claimsToGrow(d), Texts.classes(d, g)};
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

    /** Natural widths, shrunk in {@link #SHRINK_ORDER} down to {@link #MIN} until the row fits with one space between columns. */
    static int[] widths(String[][] cells, int width) {
        int[] w = new int[HEADERS.length];
        for (int c = 0; c < w.length; c++) {
            w[c] = HEADERS[c].length();
        }
        for (String[] row : cells) {
            for (int c = 0; c < w.length; c++) {
                w[c] = Math.max(w[c], row[c].codePointCount(0, row[c].length()));
            }
        }
        int over = total(w, 1) - width;
        for (int c : SHRINK_ORDER) {
            if (over <= 0) {
                break;
            }
            int give = Math.min(over, Math.max(0, w[c] - MIN[c]));
            w[c] -= give;
            over -= give;
        }
        return w;
    }

    private static int total(int[] w, int gap) {
        int t = gap * (w.length - 1);
        for (int x : w) {
            t += x;
        }
        return t;
    }
}
