package dev.stsresize.tui.terminal;

import com.googlecode.lanterna.SGR;
import com.googlecode.lanterna.TerminalPosition;
import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.TextColor;
import com.googlecode.lanterna.graphics.TextGraphics;
import dev.stsresize.tui.Glyphs;
import dev.stsresize.tui.Painter;
import dev.stsresize.tui.Styled.Style;

/** Puts the views' text on a lanterna {@link TextGraphics} with the theme's colours and the locale's glyphs. */
final class LanternaPainter extends Painter {
    private final TextGraphics g;
    private final Theme theme;
    private final Glyphs glyphs;

    LanternaPainter(TextGraphics g, Theme theme, Glyphs glyphs) {
        super(glyphs);
        this.g = g;
        this.theme = theme;
        this.glyphs = glyphs;
    }

    @Override
    protected int columns() {
        return g.getSize().getColumns();
    }

    @Override
    protected int rows() {
        return g.getSize().getRows();
    }

    @Override
    protected void put(int col, int row, String fitted, Style style, boolean reverse) {
        g.setForegroundColor(theme.foreground(style));
        g.setBackgroundColor(TextColor.ANSI.DEFAULT);
        g.clearModifiers();
        if (theme.bold(style)) {
            g.enableModifiers(SGR.BOLD);
        }
        if (reverse || style == Style.CARET) {
            g.enableModifiers(theme.selection());
        }
        g.putString(col, row, fitted);
        g.clearModifiers();
        g.setForegroundColor(TextColor.ANSI.DEFAULT);
    }

    @Override
    protected void border(int left, int top, int width, int height) {
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
    }

    @Override
    protected void clearRect(int left, int top, int width, int height) {
        g.clearModifiers();
        g.setForegroundColor(TextColor.ANSI.DEFAULT);
        g.setBackgroundColor(TextColor.ANSI.DEFAULT);
        g.fillRectangle(new TerminalPosition(left, top), new TerminalSize(width, height), ' ');
    }
}
