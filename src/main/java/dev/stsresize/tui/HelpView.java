package dev.stsresize.tui;

import dev.stsresize.tui.Styled.Line;
import java.util.List;

/** {@link KeyHelp}'s lines, scrolled. */
final class HelpView {
    private HelpView() {}

    static void draw(UiState s, Painter p, int left, int top, int width, int height) {
        List<Line> lines = KeyHelp.lines(width);
        int first = Math.max(0, Math.min(s.scroll(), lines.size() - height));
        for (int i = 0; i < height && first + i < lines.size(); i++) {
            p.line(left, top + i, lines.get(i + first), width, false);
        }
    }
}
