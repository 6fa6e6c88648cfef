package dev.stsresize.tui;

import dev.stsresize.tui.SizeEdit.Row;
import dev.stsresize.tui.SizeEdit.Stage;
import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Style;
import java.util.ArrayList;
import java.util.List;

/** The text of the size edit: the form (one field per template), or the files' unified diffs to confirm. Pure. */
final class EditLines {
    private EditLines() {}

    static List<Line> of(SizeEdit e, int width) {
        return e.stage() == Stage.REVIEW || e.stage() == Stage.WRITING || e.stage() == Stage.WRITTEN ? diff(e, width) : form(e, width);
    }

    /** The index of the focused field's line, so the view can show the cursor there. */
    static int focusLine(SizeEdit e) {
        return 2 + e.focus() * 2;
    }

    private static List<Line> form(SizeEdit e, int width) {
        List<Line> out = new ArrayList<>();
        out.add(Styled.of("New size per volumeClaimTemplate; only the quantity in the file changes.", Style.DIM));
        out.add(Styled.of("", Style.NORMAL));
        for (int i = 0; i < e.rows().size(); i++) {
            Row r = e.rows().get(i);
            boolean focused = i == e.focus();
            Styled.Builder field = Styled.line().add(focused ? "> " : "  ", Style.ACCENT).add(r.key() + " ", Style.BOLD)
                    .add(r.template() + "  ").add(r.declared(), Style.DIM).add(" -> ");
            if (!focused) {
                field.add("[" + r.value() + "]");
            } else if (e.caret() >= r.value().length()) {
                field.add("[" + r.value() + "_]", Style.ACCENT); // the caret after the value, where typing appends
            } else {
                // the caret on a character: typing goes before it, as in a shell's line
                field.add("[" + r.value().substring(0, e.caret()), Style.ACCENT).add(r.value().substring(e.caret(), e.caret() + 1), Style.CARET)
                        .add(r.value().substring(e.caret() + 1) + "]", Style.ACCENT);
            }
            out.add(field.add(r.problem().isEmpty() ? "" : "  not larger / not a size", Style.WARN).line());
            String where = "    " + r.file() + (r.hint().isEmpty() ? "" : "  suggested: " + r.hint());
            out.addAll(Styled.wrap(Styled.of(where, Style.DIM), width, 4));
        }
        out.add(Styled.of("", Style.NORMAL));
        out.add(Styled.of(e.stage() == Stage.PREPARING ? "reading the file…" : "Enter shows the file's diff (nothing is written yet)",
                Style.DIM));
        return out;
    }

    private static List<Line> diff(SizeEdit e, int width) {
        List<Line> out = new ArrayList<>();
        for (String l : e.diffLines()) {
            Style style = l.startsWith("+++") || l.startsWith("---") ? Style.BOLD
                    : l.startsWith("+") ? Style.GOOD : l.startsWith("-") ? Style.BAD : l.startsWith("@@") ? Style.ACCENT : Style.NORMAL;
            out.add(Styled.of(l, style));
        }
        out.add(Styled.of("", Style.NORMAL));
        out.add(Styled.of(e.stage() == Stage.REVIEW ? "y writes the file, then its diff opens for the wizard; n changes the sizes."
                : "writing…", Style.DIM));
        return out;
    }
}
