package dev.stsresize.tui;

import dev.stsresize.tui.Styled.Line;
import java.util.List;

/** The size edit ({@link EditLines}): the form, or the files' diffs scrolled to {@code scroll}. */
final class EditView {
    private EditView() {}

    static List<Line> lines(UiState s) {
        return s.edit() == null ? List.of() : EditLines.of(s.edit(), Layout.bodyWidth(s.columns()));
    }

    static void draw(UiState s, Painter p, int left, int top, int width, int height) {
        List<Line> lines = lines(s);
        int first = Math.max(0, Math.min(s.scroll(), lines.size() - height));
        for (int i = 0; i < height && first + i < lines.size(); i++) {
            p.line(left, top + i, lines.get(first + i), width, false);
        }
    }
}
