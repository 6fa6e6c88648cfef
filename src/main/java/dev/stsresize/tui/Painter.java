package dev.stsresize.tui;

import com.googlecode.lanterna.SGR;
import com.googlecode.lanterna.TextColor;
import com.googlecode.lanterna.graphics.TextGraphics;
import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Segment;
import dev.stsresize.tui.Styled.Style;

/** Draws styled text on a lanterna {@link TextGraphics}, clipped to a width, with the theme's colours and the locale's glyphs. */
final class Painter {
    final TextGraphics g;
    final Theme theme;
    final Glyphs glyphs;

    Painter(TextGraphics g, Theme theme, Glyphs glyphs) {
        this.g = g;
        this.theme = theme;
        this.glyphs = glyphs;
    }

    int columns() {
        return g.getSize().getColumns();
    }

    int rows() {
        return g.getSize().getRows();
    }

    /** Draws {@code text} at (col, row), cut to {@code width} columns with an ellipsis; returns the columns used. */
    int text(int col, int row, String text, Style style, int width, boolean reverse) {
        String fitted = Texts.fit(text, width, glyphs);
        if (fitted.isEmpty()) {
            return 0;
        }
        g.setForegroundColor(theme.foreground(style));
        g.setBackgroundColor(TextColor.ANSI.DEFAULT);
        g.clearModifiers();
        if (theme.bold(style)) {
            g.enableModifiers(SGR.BOLD);
        }
        if (reverse) {
            g.enableModifiers(theme.selection());
        }
        g.putString(col, row, fitted);
        g.clearModifiers();
        g.setForegroundColor(TextColor.ANSI.DEFAULT);
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
        g.clearModifiers();
        g.setForegroundColor(theme.colour() ? TextColor.ANSI.CYAN : TextColor.ANSI.DEFAULT);
        int right = left + width - 1;
        int bottom = top + height - 1;
        g.drawLine(left + 1, top, right - 1, top, glyphs.horizontal());
        g.drawLine(left + 1, bottom, right - 1, bottom, glyphs.horizontal());
        g.drawLine(left, top + 1, left, bottom - 1, glyphs.vertical());
        g.drawLine(right, top + 1, right, bottom - 1, glyphs.vertical());
        g.setCharacter(left, top, glyphs.topLeft());
        g.setCharacter(right, top, glyphs.topRight());
        g.setCharacter(left, bottom, glyphs.bottomLeft());
        g.setCharacter(right, bottom, glyphs.bottomRight());
        g.setForegroundColor(TextColor.ANSI.DEFAULT);
        if (!title.isEmpty()) {
            text(left + 2, top, " " + title + " ", titleStyle, width - 4);
        }
    }

    void clearRect(int left, int top, int width, int height) {
        g.clearModifiers();
        g.setForegroundColor(TextColor.ANSI.DEFAULT);
        g.setBackgroundColor(TextColor.ANSI.DEFAULT);
        g.fillRectangle(new com.googlecode.lanterna.TerminalPosition(left, top), new com.googlecode.lanterna.TerminalSize(width, height), ' ');
    }
}
