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
        String bar = bar(String.valueOf(p.glyphs.vertical()), p.glyphs.ellipsis(), or(l.context()), or(l.scope()), or(l.cluster()), w);
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
        String manifest = or(l.manifest());
        int room = w - col - "   manifest: ".length();
        if (manifest.length() > room && room > 8) {
            // the file's name is what tells manifests apart: a long path loses its folders first
            manifest = p.glyphs.ellipsis() + manifest.substring(manifest.length() - (room - 1));
        }
        p.text(col, 1, "   manifest: " + manifest, Style.DIM, w - col);
    }

    /**
     * The first row in {@code width}: the server's host and port are what tell clusters apart, so a narrow terminal
     * shortens the context's name and the scope first, then drops the URL's scheme; only then is the end cut.
     */
    static String bar(String vertical, String ellipsis, String context, String scope, String cluster, int width) {
        String start = " stsresize " + vertical + " context: ";
        String whole = start + context + "  scope: " + scope + "  cluster: " + cluster;
        if (whole.length() <= width) {
            return whole;
        }
        String server = cluster.replaceFirst("^[a-z]+://", "").replaceFirst("/.*$", "");
        String end = "  cluster: " + server;
        int room = width - start.length() - "  scope: ".length() - end.length();
        int forContext = Math.min(context.length(), Math.max(4, room - Math.min(scope.length(), Math.max(4, room / 2))));
        int forScope = Math.min(scope.length(), Math.max(4, room - forContext));
        return start + cut(context, forContext, ellipsis) + "  scope: " + cut(scope, forScope, ellipsis) + end;
    }

    private static String cut(String s, int room, String ellipsis) {
        return s.length() <= room ? s : s.substring(0, Math.max(0, room - 1)) + ellipsis;
    }

    private static String or(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
