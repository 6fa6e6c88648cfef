package dev.stsresize.tui;

import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.Styled.Style;
import java.util.Map;

/** The top two rows: where the decisions come from (context, cluster, scope, manifest) and the count per verdict. */
final class Header {
    private Header() {}

    static void draw(UiState s, Painter p) {
        int w = p.columns();
        Loaded l = s.loaded();
        // what identifies the target first: a truncated header loses the snapshot's file name, not the namespaces
        String bar = " stsresize " + p.glyphs.vertical() + " context: " + or(l.context()) + "  scope: " + or(l.scope())
                + "  cluster: " + or(l.cluster());
        p.text(0, 0, Texts.pad(bar, w), Style.BOLD, w, true);
        int col = 1;
        if (s.loading() && l.decisions().isEmpty()) {
            col += p.text(col, 1, "loading" + p.glyphs.ellipsis(), Style.DIM, w - col);
        } else {
            col += p.text(col, 1, l.decisions().size() + " StatefulSet" + (l.decisions().size() == 1 ? "" : "s") + ":", Style.NORMAL, w - col);
            String sep = "";
            for (Map.Entry<Verdict, Integer> e : l.counts().entrySet()) {
                col += p.text(col, 1, sep + " " + e.getValue() + " ", Style.BOLD, w - col);
                col += p.text(col, 1, Texts.verdictWord(e.getKey()), DiffLines.verdictStyle(e.getKey()), w - col);
                sep = " " + p.glyphs.dot();
            }
            if (!l.unproved().isEmpty()) {
                // short: the rows say which verdicts wait, the diff says for what
                col += p.text(col, 1, "  " + (s.loading() ? "checking" + p.glyphs.ellipsis() : "unchecked (r)"), Style.DIM, w - col);
            }
        }
        p.text(col, 1, "   manifest: " + or(l.manifest()), Style.DIM, w - col);
    }

    private static String or(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
