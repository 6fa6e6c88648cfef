package dev.stsresize.tui;

import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.TextCharacter;
import com.googlecode.lanterna.TextColor;
import com.googlecode.lanterna.screen.TerminalScreen;
import com.googlecode.lanterna.terminal.virtual.DefaultVirtualTerminal;
import dev.stsresize.tui.terminal.TerminalFrame;
import dev.stsresize.tui.terminal.Theme;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;

/** A state drawn by the real {@link TerminalFrame} through a lanterna screen onto a {@link DefaultVirtualTerminal}, read back as text. */
final class VirtualScreen {
    final DefaultVirtualTerminal terminal;

    private VirtualScreen(DefaultVirtualTerminal terminal) {
        this.terminal = terminal;
    }

    static VirtualScreen draw(UiState state, Theme theme, Glyphs glyphs) {
        DefaultVirtualTerminal vt = new DefaultVirtualTerminal(new TerminalSize(state.columns(), state.rows()));
        try {
            TerminalScreen screen = new TerminalScreen(vt);
            screen.startScreen();
            new TerminalFrame(theme, glyphs).draw(state, screen.newTextGraphics());
            screen.refresh();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new VirtualScreen(vt);
    }

    /** The screen as text, one line per row, trailing spaces kept off so that golden files stay readable. */
    String text() {
        return ofTerminal(terminal);
    }

    static String ofTerminal(DefaultVirtualTerminal terminal) {
        TerminalSize size = terminal.getTerminalSize();
        StringBuilder b = new StringBuilder();
        for (int row = 0; row < size.getRows(); row++) {
            StringBuilder line = new StringBuilder();
            for (int col = 0; col < size.getColumns(); col++) {
                line.append(terminal.getCharacter(col, row).getCharacterString());
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }

    /** Every foreground and background colour used on the screen. */
    Set<TextColor> colours() {
        Set<TextColor> out = new HashSet<>();
        TerminalSize size = terminal.getTerminalSize();
        for (int row = 0; row < size.getRows(); row++) {
            for (int col = 0; col < size.getColumns(); col++) {
                TextCharacter c = terminal.getCharacter(col, row);
                out.add(c.getForegroundColor());
                out.add(c.getBackgroundColor());
            }
        }
        return out;
    }

    /** The first row containing {@code text}, or -1. */
    int rowOf(String text) {
        String[] lines = text().split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(text)) {
                return i;
            }
        }
        return -1;
    }

    TextCharacter at(int col, int row) {
        return terminal.getCharacter(col, row);
    }
}
