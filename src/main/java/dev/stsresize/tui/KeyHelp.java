package dev.stsresize.tui;

import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Style;
import java.util.ArrayList;
import java.util.List;

/** Every key, per view, as wrapped lines: the one list of them (a key added to {@link Update} is added here). Pure. */
public final class KeyHelp {
    private static final int KEY_WIDTH = 18;
    private static final String[][] KEYS = {
        {"Everywhere", ""},
        {"?", "this help (Esc or ? closes it)"},
        {"q", "quit; asks first while a write is in flight or the StatefulSet is deleted and not yet re-applied"},
        {"Ctrl-C", "quit, the same as q; twice when it asks"},
        {"Ctrl-L", "draw the whole screen again (a resize does it by itself)"},
        {"", ""},
        {"List", ""},
        {"Up/Down, k/j", "move the selection"},
        {"PgUp/PgDn", "a page up or down"},
        {"g/G, Home/End", "first or last StatefulSet"},
        {"Enter", "the diff of the selected StatefulSet"},
        {"a", "apply: open the resize wizard (GROW, GROW CLAIMS and COPY rows)"},
        {"C", "on a row REFUSED only because its class cannot expand: decide it again with the copy to bigger volumes (as"
                + " --copy: the default image, each claim's own class), then its diff; Enter opens the copy's wizard, whose gates"
                + " ask as apply --copy's do"},
        {"/", "filter by name, verdict, reason, template or class; Enter keeps it, Esc clears it"},
        {"s", "sort: by name, by verdict (refused first), by claims to grow, by used % (fullest first)"},
        {"r", "refresh: read the manifest and the cluster again"},
        {"u", "usage: every StatefulSet of the namespaces in scope, fullest first (Enter opens its diff)"},
        {"Space", "mark or unmark the StatefulSet (several are edited together with e)"},
        {"e", "edit the size in the manifest file: the suggested size pre-filled (else the declared one), then the file's diff; y writes it"},
        {"Esc", "clear the filter, then the marks"},
        {"", ""},
        {"Diff", ""},
        {"j/k, PgUp/PgDn", "scroll; g/G to the top or the end"},
        {"Enter or a", "open the resize wizard"},
        {"C", "a refused row the copy can take: decide it again with the copy (as in the list)"},
        {"e", "edit the size in the manifest file"},
        {"Esc", "back to the list"},
        {"", ""},
        {"Wizard", ""},
        {"y / n", "at the grow gate: grow the claims, or leave with nothing written"},
        {"name, Enter", "at the delete gate: type the StatefulSet's name exactly to orphan-delete it (a copy: to start copying,"
                + " one pod at a time, its downtime stated above)"},
        {"c", "while waiting for capacity: go on now; the resizer keeps working (the recreate needs only the grown requests)"},
        {"p", "after adoption, when a file system waits: restart those pods one at a time by eviction"},
        {"v", "after a resize that failed or ran out of time: lower the claims that did not grow back (revert)"},
        {"Esc", "leave before the orphan delete (nothing irreversible); after it, stay until it is re-applied"},
        {"PgDn/PgUp", "scroll the claim table when some claims are out of view (a line below or above it counts them);"
                + " at every gate, the name gate included"},
        {"", ""},
        {"Edit sizes", ""},
        {"text, Backspace", "change the focused size at the caret; Left/Right, Home/End move it; Up/Down or Tab move between templates"},
        {"Enter", "show the file's unified diff (nothing written yet); there y writes the file, n goes back"},
        {"Esc", "cancel: nothing written"},
    };

    private KeyHelp() {}

    public static List<Line> lines(int width) {
        List<Line> out = new ArrayList<>();
        for (String[] k : KEYS) {
            if (k[1].isEmpty()) {
                out.add(Styled.of(k[0], Style.BOLD));
            } else {
                out.addAll(Styled.wrap(Styled.line().add("  " + Texts.pad(k[0], KEY_WIDTH), Style.ACCENT).add(k[1]).line(), width, KEY_WIDTH + 2));
            }
        }
        return out;
    }
}
