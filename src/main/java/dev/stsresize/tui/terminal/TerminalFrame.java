package dev.stsresize.tui.terminal;

import com.googlecode.lanterna.graphics.TextGraphics;
import dev.stsresize.tui.Frame;
import dev.stsresize.tui.Glyphs;
import dev.stsresize.tui.UiState;

/** The {@link Frame} of a state drawn on a lanterna {@link TextGraphics}, in a theme and with the locale's glyphs. */
public final class TerminalFrame {
    private final Theme theme;
    private final Glyphs glyphs;

    public TerminalFrame(Theme theme, Glyphs glyphs) {
        this.theme = theme;
        this.glyphs = glyphs;
    }

    public void draw(UiState s, TextGraphics g) {
        Frame.draw(s, new LanternaPainter(g, theme, glyphs));
    }
}
