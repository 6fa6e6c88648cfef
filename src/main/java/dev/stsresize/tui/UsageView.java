package dev.stsresize.tui;

import dev.stsresize.plan.Bytes;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Durations;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.tui.Styled.Style;
import java.util.List;

/**
 * {@code u}: every StatefulSet of the namespaces in scope whose usage is known, fullest first, also those the
 * manifest does not declare: so the fullest volumes are found first.
 */
final class UsageView {
    private static final String[] HEADERS = {"NAMESPACE/NAME", "USED", "FULLEST CLAIM", "AVAILABLE", "FILLS IN", "SUGGEST"};

    private UsageView() {}

    static String[] cells(StatefulSetUsage u, UiState s) {
        ClaimUsage c = u.fullest().orElseThrow();
        String suggest = u.suggestions().size() == 1 ? u.suggestions().get(0).suggested()
                : String.join(", ", u.suggestions().stream().map(x -> x.template() + " " + x.suggested()).toList());
        if (suggest.isEmpty() && c.sharedFileSystem()) {
            suggest = "none: shared";
        }
        String fills = s.usage() == null ? u.fillsIn().map(Durations::brief).orElse("") : s.usage().fillsIn(u);
        return new String[] {u.key(), UsageIndex.percent(c.usedPercent()), c.claim(), Bytes.human(c.availableBytes()), fills, suggest};
    }

    static boolean declared(UiState s, StatefulSetUsage u) {
        return s.loaded().decisions().stream().anyMatch(d -> Loaded.key(d).equals(u.key()));
    }

    static void draw(UiState s, Painter p, int left, int top, int width, int height) {
        List<StatefulSetUsage> rows = UsageFlow.rows(s);
        if (rows.isEmpty()) {
            p.text(left, top + 1, s.usage() == null ? "reading usage" + p.glyphs.ellipsis() : s.usage().status(), Style.DIM, width);
            return;
        }
        String[][] cells = new String[rows.size()][];
        int[] w = new int[HEADERS.length];
        for (int c = 0; c < w.length; c++) {
            w[c] = HEADERS[c].length();
        }
        for (int i = 0; i < rows.size(); i++) {
            cells[i] = cells(rows.get(i), s);
            for (int c = 0; c < w.length; c++) {
                w[c] = Math.max(w[c], cells[i][c].length());
            }
        }
        int over = java.util.Arrays.stream(w).sum() + 2 * (w.length - 1) - width;
        for (int c : new int[] {5, 2, 0}) { // the suggestions, the claim's name, then the StatefulSet's give up space
            int give = Math.max(0, Math.min(over, w[c] - (c == 5 ? 7 : 12)));
            w[c] -= give;
            over -= give;
        }
        int col = left;
        for (int c = 0; c < w.length; c++) {
            col += p.text(col, top, c == w.length - 1 ? HEADERS[c] : Texts.pad(HEADERS[c], w[c] + 2), Style.DIM, Math.max(0, left + width - col));
        }
        boolean others = false;
        int selected = Math.min(s.scroll(), rows.size() - 1);
        int first = Layout.listTop(selected, s.rows());
        for (int i = first; i < rows.size() && i - first < height - 1; i++) {
            double pct = rows.get(i).fullest().orElseThrow().usedPercent();
            boolean declared = declared(s, rows.get(i));
            others |= !declared;
            col = left;
            for (int c = 0; c < w.length; c++) {
                Style style = c == 1 || c == 4 ? UsageIndex.style(pct) : c == 5 ? Style.GOOD : c == 0 && !declared ? Style.DIM : Style.NORMAL;
                String fitted = Texts.fit(cells[i][c], w[c], p.glyphs);
                String text = c == w.length - 1 ? fitted : Texts.pad(fitted, w[c] + 2);
                col += p.text(col, top + 1 + i - first, text, style, Math.max(0, left + width - col), i == selected);
            }
        }
        int below = top + 1 + Math.min(rows.size() - first, height - 1) + 1;
        if (others && below < top + height) {
            p.text(left, below++, "dimmed: not in the manifest (add it to the manifest to resize it here)", Style.DIM, width);
        }
        // the claims the kubelet reported nothing for, each with why, as room allows
        for (String line : unmeasuredLines(s)) {
            if (below >= top + height) {
                break;
            }
            p.text(left, below++, Texts.fit(line, width, p.glyphs), Style.DIM, width);
        }
    }

    /** {@code no usage: shop/cache data-cache-0: pod cache-0 is Pending}, one per claim read without usage. */
    static List<String> unmeasuredLines(UiState s) {
        if (s.usage() == null) {
            return List.of();
        }
        List<String> out = new java.util.ArrayList<>();
        s.usage().report().unmeasured().forEach((key, claims) -> claims.forEach(c -> out.add("no usage: " + key + " " + c.claim() + ": "
                + c.reason())));
        return out;
    }
}
