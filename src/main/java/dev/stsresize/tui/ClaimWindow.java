package dev.stsresize.tui;

import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Style;
import java.util.ArrayList;
import java.util.List;

/**
 * The wizard's claim rows that fit a room, from a first row: the rows above and below it counted on a line each that names
 * the key which shows them, so every claim is visible or counted with the way to it. Shared by {@link WizardView} (what
 * is drawn) and {@link Update} (where PgUp/PgDn move to), so the keys move what the screen shows. Pure.
 *
 * @param first the first row shown: the one asked for, clamped so the table never scrolls past its last row
 * @param shown how many rows are shown from {@code first}
 * @param total how many rows there are
 */
record ClaimWindow(int first, int shown, int total, List<Line> lines) {
    static final String UP_KEY = "PgUp";
    static final String DOWN_KEY = "PgDn";

    ClaimWindow {
        lines = List.copyOf(lines);
    }

    /** Rows are hidden: the table scrolls (the key hints say so only then). */
    boolean scrolls() {
        return shown < total;
    }

    /** {@code rows} in {@code room} lines, from row {@code from}; every row whole when all fit. */
    static ClaimWindow of(List<List<Line>> rows, int room, int from, int width) {
        int total = rows.size();
        if (rows.stream().mapToInt(List::size).sum() <= room) {
            return new ClaimWindow(0, total, total, rows.stream().flatMap(List::stream).toList());
        }
        int first = Math.max(0, Math.min(from, lastFirst(rows, room, width)));
        List<Line> out = new ArrayList<>(first > 0 ? note(first, "above", UP_KEY, width) : List.of());
        int shown = 0;
        for (int i = first; i < total; i++) {
            int below = total - i - 1;
            int noteBelow = below > 0 ? note(below, "below", DOWN_KEY, width).size() : 0;
            if (out.size() + rows.get(i).size() + noteBelow > room) {
                break;
            }
            out.addAll(rows.get(i));
            shown++;
        }
        if (first + shown < total) {
            out.addAll(note(total - first - shown, "below", DOWN_KEY, width));
        }
        if (shown == 0 && out.size() > room) {
            // no row fits between the lines that count the others (below the 70x22 the UI is made for): one line counts them
            // all, rather than a count the frame would cut off
            return new ClaimWindow(first, 0, total, Styled.wrap(Styled.line().add("  … " + total + " more claim" + (total == 1 ? "" : "s")
                    + ": a taller terminal shows " + (total == 1 ? "it" : "them"), Style.WARN).line(), width, 4));
        }
        return new ClaimWindow(first, shown, total, out);
    }

    /** The first row from which the last rows fill the room under the line counting those above: further is past the end. */
    private static int lastFirst(List<List<Line>> rows, int room, int width) {
        int first = rows.size() - 1;
        int used = rows.get(first).size();
        while (first > 0 && used + rows.get(first - 1).size() + note(first - 1, "above", UP_KEY, width).size() <= room) {
            first--;
            used += rows.get(first).size();
        }
        return first;
    }

    /** "… 3 more claims below: PgDn", wrapped to {@code width}. */
    private static List<Line> note(int hidden, String where, String key, int width) {
        if (hidden == 0) {
            return List.of();
        }
        return Styled.wrap(Styled.line().add("  … " + hidden + " more claim" + (hidden == 1 ? "" : "s") + " " + where + ": " + key,
                Style.WARN).line(), width, 4);
    }
}
