package dev.stsresize.tui;

import java.util.ArrayList;
import java.util.List;

/**
 * Text with styles, as plain data: what a view turns into lanterna calls. Keeping it free of lanterna
 * lets the diff's lines be built (and counted, for scrolling) by pure code.
 */
public final class Styled {
    /** {@code CARET}: the character under a text field's caret, drawn reversed. */
    public enum Style { NORMAL, BOLD, DIM, GOOD, BAD, WARN, ACCENT, CARET }

    public record Segment(String text, Style style) {}

    public record Line(List<Segment> segments) {
        public Line {
            segments = List.copyOf(segments);
        }

        public String text() {
            StringBuilder b = new StringBuilder();
            segments.forEach(s -> b.append(s.text()));
            return b.toString();
        }

        public int width() {
            return text().codePointCount(0, text().length());
        }
    }

    /** Builds one line segment by segment. */
    public static final class Builder {
        private final List<Segment> segments = new ArrayList<>();

        public Builder add(String text, Style style) {
            if (!text.isEmpty()) {
                segments.add(new Segment(text, style));
            }
            return this;
        }

        public Builder add(String text) {
            return add(text, Style.NORMAL);
        }

        public Line line() {
            return new Line(segments);
        }
    }

    private Styled() {}

    public static Builder line() {
        return new Builder();
    }

    public static Line of(String text, Style style) {
        return new Builder().add(text, style).line();
    }

    /**
     * Wraps a line at {@code width} code points, continuation lines indented by {@code indent} spaces;
     * breaks at the last space when there is one, so that commands stay readable.
     */
    public static List<Line> wrap(Line line, int width, int indent) {
        List<Line> out = new ArrayList<>();
        if (line.width() <= width || width <= indent + 8) {
            out.add(line);
            return out;
        }
        List<Segment> current = new ArrayList<>();
        int used = 0;
        int limit = width;
        for (Segment s : line.segments()) {
            String rest = s.text();
            while (!rest.isEmpty()) {
                int room = limit - used;
                int len = rest.codePointCount(0, rest.length());
                if (len <= room) {
                    current.add(new Segment(rest, s.style()));
                    used += len;
                    break;
                }
                int cut = rest.offsetByCodePoints(0, room);
                // break after a space in the last two thirds of the line, else after a slash (a long URL) near
                // the end, else where the width ends: a command keeps its words whole where it can
                int space = cut > 0 ? rest.lastIndexOf(' ', cut - 1) : -1;
                int slash = cut > 0 ? rest.lastIndexOf('/', cut - 1) : -1;
                if (space > 0 && space > cut - (limit - indent) * 2 / 3) {
                    cut = space + 1;
                } else if (slash > 0 && slash > cut - 30) {
                    cut = slash + 1;
                }
                current.add(new Segment(rest.substring(0, cut), s.style()));
                out.add(new Line(current));
                current = new ArrayList<>();
                current.add(new Segment(" ".repeat(indent), Style.NORMAL));
                used = indent;
                rest = rest.substring(cut);
            }
        }
        if (!current.isEmpty()) {
            out.add(new Line(current));
        }
        return out;
    }
}
