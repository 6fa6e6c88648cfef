package dev.stsresize.tui;

import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Style;
import java.util.ArrayList;
import java.util.List;

/** A dialog centred over the body: its title in the border, its message wrapped. */
final class DialogView {
    private DialogView() {}

    static void draw(Dialog d, Painter p) {
        int width = Math.min(p.columns() - 4, 76);
        List<Line> lines = new ArrayList<>();
        for (String paragraph : d.message().split("\n", -1)) {
            lines.addAll(Styled.wrap(Styled.of(paragraph, Style.NORMAL), width - 4, 2));
        }
        int height = Math.min(p.rows() - 4, lines.size() + 2);
        int left = (p.columns() - width) / 2;
        int top = Math.max(1, (p.rows() - height) / 2);
        p.clearRect(left, top, width, height);
        Style titleStyle = d instanceof Dialog.Error ? Style.BAD : Style.WARN;
        p.box(left, top, width, height, d.title(), titleStyle);
        for (int i = 0; i < height - 2 && i < lines.size(); i++) {
            p.line(left + 2, top + 1 + i, lines.get(i), width - 4, false);
        }
    }
}
