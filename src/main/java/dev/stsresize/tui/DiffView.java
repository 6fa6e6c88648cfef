package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Style;
import java.util.List;

/** The selected StatefulSet's diff ({@link DiffLines}), scrolled to {@code scroll}. */
final class DiffView {
    private DiffView() {}

    /** The lines of the diff and the first one shown, for the box title's position. */
    static List<Line> lines(UiState s, Glyphs g) {
        Decision d = s.selected();
        return d == null ? List.of() : DiffLines.of(d, s.loaded(), s.usage(), g, Layout.bodyWidth(s.columns()));
    }

    static int first(UiState s, int total, int height) {
        return Math.max(0, Math.min(s.scroll(), total - height));
    }

    static void draw(UiState s, Painter p, int left, int top, int width, int height) {
        List<Line> lines = lines(s, p.glyphs);
        if (lines.isEmpty()) {
            p.text(left, top, "nothing selected", Style.DIM, width);
            return;
        }
        int first = first(s, lines.size(), height);
        for (int i = 0; i < height && first + i < lines.size(); i++) {
            p.line(left, top + i, lines.get(first + i), width, false);
        }
    }
}
