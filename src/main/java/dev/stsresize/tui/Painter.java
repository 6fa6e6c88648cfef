package dev.stsresize.tui;

import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Segment;
import dev.stsresize.tui.Styled.Style;

/**
 * What the views draw on: styled text clipped to a width, boxes, cleared rectangles. The fitting and the
 * segmenting are here; putting characters on a terminal is the subclass's ({@code tui.terminal.LanternaPainter}),
 * so that the views stay free of the terminal.
 */
public abstract class Painter {
    final Glyphs glyphs;

    protected Painter(Glyphs glyphs) {
        this.glyphs = glyphs;
    }

    protected abstract int columns();

    protected abstract int rows();

    /** Puts already fitted text at (col, row) in the style's colour and weight, reversed when asked. */
    protected abstract void put(int col, int row, String fitted, Style style, boolean reverse);

    /** Draws the border of a box from (left, top) of the given size. */
    protected abstract void border(int left, int top, int width, int height);

    protected abstract void clearRect(int left, int top, int width, int height);

    /** Draws {@code text} at (col, row), cut to {@code width} columns with an ellipsis; returns the columns used. */
    int text(int col, int row, String text, Style style, int width, boolean reverse) {
        String fitted = Texts.fit(text, width, glyphs);
        if (fitted.isEmpty()) {
            return 0;
        }
        put(col, row, fitted, style, reverse);
        return fitted.codePointCount(0, fitted.length());
    }

    int text(int col, int row, String text, Style style, int width) {
        return text(col, row, text, style, width, false);
    }

    /** A styled line, segment after segment, clipped at {@code width}. */
    void line(int col, int row, Line line, int width, boolean reverse) {
        int used = 0;
        for (Segment s : line.segments()) {
            if (used >= width) {
                break;
            }
            int room = width - used;
            used += text(col + used, row, s.text(), s.style(), room, reverse);
        }
        if (reverse && used < width) {
            text(col + used, row, " ".repeat(width - used), Style.NORMAL, width - used, true);
        }
    }

    /** A box from (left, top) of the given size, its title in the top border. */
    void box(int left, int top, int width, int height, String title, Style titleStyle) {
        border(left, top, width, height);
        if (!title.isEmpty()) {
            text(left + 2, top, " " + title + " ", titleStyle, width - 4);
        }
    }
}
