package dev.stsresize.tui;

import dev.stsresize.tui.Styled.Style;

/** The whole screen for a state: header, the view in its box, the flash line, the key hints, a dialog on top. */
public final class Frame {
    private Frame() {
    }

    public static void draw(UiState s, Painter p) {
        int cols = p.columns();
        int rows = p.rows();
        p.clearRect(0, 0, cols, rows);
        if (Layout.tooSmall(cols, rows)) {
            var lines = Styled.wrap(Styled.of("The terminal is " + cols + "x" + rows + "; kubectl-stsresize needs at least "
                    + Layout.MIN_COLUMNS + "x" + Layout.MIN_ROWS + ". Enlarge it, or press q to quit.", Style.WARN), cols, 0);
            for (int i = 0; i < lines.size() && i < rows; i++) {
                p.line(0, i, lines.get(i), cols, false);
            }
            return;
        }
        Header.draw(s, p);
        int boxTop = Layout.BODY_TOP - 1;
        int boxHeight = Layout.bodyRows(rows) + 2;
        p.box(0, boxTop, cols, boxHeight, title(s, p.glyphs), Style.BOLD);
        int left = 2;
        int top = Layout.BODY_TOP;
        int width = Layout.bodyWidth(cols);
        int height = Layout.bodyRows(rows);
        switch (s.view()) {
            case LIST -> ListView.draw(s, p, left, top, width, height);
            case DIFF -> DiffView.draw(s, p, left, top, width, height);
            case HELP -> HelpView.draw(s, p, left, top, width, height);
            case WIZARD -> WizardView.draw(s, p, left, top, width, height);
            case EDIT -> EditView.draw(s, p, left, top, width, height);
            case USAGE -> UsageView.draw(s, p, left, top, width, height);
        }
        FlashLine.draw(s, p, rows - 2);
        KeyHints.draw(s, p, rows - 1);
        if (s.dialog() != null) {
            DialogView.draw(s.dialog(), p);
        }
    }

    private static String title(UiState s, Glyphs glyphs) {
        return switch (s.view()) {
            case LIST -> "StatefulSets" + (s.filter().isEmpty() ? "" : "(/" + s.filter() + ")") + "[" + s.visible().size()
                    + (s.filter().isEmpty() ? "" : "/" + s.loaded().decisions().size()) + "]"
                    + (s.marked().isEmpty() ? "" : " marked " + s.marked().size())
                    // "usage unknown (cannot get nodes/proxy)" is said here for as long as it holds, never as an error
                    + (s.usage() == null ? "" : " " + s.usage().status());
            case USAGE -> "usage, fullest first [" + UsageFlow.rows(s).size() + "]";
            case DIFF -> {
                var d = s.selected();
                int total = DiffView.lines(s, glyphs).size();
                int first = DiffView.first(s, total, Layout.bodyRows(s.rows()));
                yield "diff " + (d == null ? "" : Loaded.key(d)) + (total > Layout.bodyRows(s.rows())
                        ? " [" + (first + 1) + "-" + Math.min(total, first + Layout.bodyRows(s.rows())) + "/" + total + "]" : "");
            }
            case HELP -> {
                int total = KeyHelp.lines(Layout.bodyWidth(s.columns())).size();
                int page = Layout.bodyRows(s.rows());
                int first = Math.max(0, Math.min(s.scroll(), total - page));
                yield "help" + (total > page ? " [" + (first + 1) + "-" + Math.min(total, first + page) + "/" + total + "]" : "");
            }
            case WIZARD -> "resize " + (s.wizard() == null ? "" : s.wizard().key());
            case EDIT -> s.edit() == null ? "edit" : (s.edit().stage() == SizeEdit.Stage.FORM || s.edit().stage() == SizeEdit.Stage.PREPARING
                    ? "edit sizes " : "the manifest's diff ") + "[" + String.join(", ", s.edit().keys()) + "]";
        };
    }
}
