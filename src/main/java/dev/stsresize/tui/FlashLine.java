package dev.stsresize.tui;

import dev.stsresize.tui.Styled.Style;

/**
 * The line under the body: the filter being typed, else the last message (errors in red), else nothing.
 * A message too long for the row ends at a word, with an ellipsis.
 */
final class FlashLine {
    private FlashLine() {}

    static void draw(UiState s, Painter p, int row) {
        int w = p.columns();
        if (s.view() == View.LIST && s.filtering()) {
            int col = p.text(1, row, "/", Style.ACCENT, w - 1);
            col += p.text(1 + col, row, s.filter(), Style.BOLD, w - 2 - col);
            p.text(1 + col, row, " ", Style.NORMAL, 1, true); // the cursor
            return;
        }
        Flash f = s.flash();
        if (f == null) {
            if (!s.filter().isEmpty() && s.view() == View.LIST) {
                p.text(1, row, Texts.fitWords("filter: /" + s.filter() + "   (Esc clears it)", w - 2, p.glyphs), Style.DIM, w - 2);
            }
            return;
        }
        Style style = switch (f.level()) {
            case INFO -> Style.ACCENT;
            case WARN -> Style.WARN;
            case ERROR -> Style.BAD;
        };
        p.text(1, row, Texts.fitWords((f.level() == Flash.Level.ERROR ? "error: " : "") + f.text(), w - 2, p.glyphs), style, w - 2);
    }
}
