package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.tui.Styled.Style;

/**
 * The bottom row: the keys that matter in this view, k9s style, most telling first. Where the row is too
 * narrow, whole hints give way from its end: a hint cut in two reads as another key or another word.
 */
final class KeyHints {
    private KeyHints() {}

    static String of(UiState s) {
        if (s.dialog() instanceof Dialog.ConfirmQuit) {
            return "<y> quit anyway  <n/esc> stay";
        }
        if (s.dialog() instanceof Dialog.Resume) {
            return "<y> resume now  <n/esc> later  <q> quit";
        }
        if (s.dialog() instanceof Dialog.Revert) {
            return "<y> revert  <n/esc> close  <q> quit"; // the dialog asks "Revert now? y/n"
        }
        if (s.dialog() != null) {
            return "<any key> close  <q> quit";
        }
        return switch (s.view()) {
            case LIST -> s.filtering() ? "<enter> keep filter  <esc> clear  <up/down> move"
                    // help and quit before what a narrow terminal leaves out: ? lists every key
                    : "<enter> diff  " + copy(s) + "<a> apply  <?> help  <q> quit  <e> edit size  <space> mark  <u> usage  </> filter  <s> sort:"
                            + s.sort().label() + "  <r> refresh";
            case DIFF -> "<j/k> scroll  " + copy(s) + "<enter/a> apply  <e> edit size  <esc> back  <?> help  <q> quit";
            case HELP -> "<j/k> scroll  <esc> back  <q> quit";
            case WIZARD -> wizard(s.wizard()) + claims(s);
            case USAGE -> "<j/k> move  <enter> its diff  <esc/u> back  <q> quit";
            case EDIT -> s.edit() == null ? "<esc> back" : switch (s.edit().stage()) {
                case FORM -> "type the size  <backspace> erase  <up/down> field  <enter> diff  <esc> cancel";
                case REVIEW -> "<y> write the file  <n/esc> change the sizes  <j/k> scroll  <q> quit";
                case PREPARING, WRITING, WRITTEN -> "<q> quit";
            };
        };
    }

    /** The copy's key, only on a row the copy could take ({@link Update#copyOffered}): one that needs it says so first. */
    private static String copy(UiState s) {
        return Update.copyOffered(s.selected()) ? "<C> copy to bigger volumes  " : "";
    }

    private static String wizard(Wizard w) {
        if (w == null) {
            return "<esc> back";
        }
        return switch (w.gate()) {
            case CONFIRM -> "<y> " + (w.copies() ? "start the copy" : w.current().label()) + "  <n/esc> leave, nothing written  <q> quit";
            case TYPE_NAME -> "type the name, <enter> " + (w.copies() ? "copy" : "orphan-delete") + "  <esc> leave  <ctrl-c> quit";
            case NONE -> w.writeInFlight() ? "a write is in flight: wait  <q> quit (asks first)"
                    : w.status(Phase.WAIT) == StepStatus.RUNNING && !w.goingOn() ? "<c> go on without waiting  <esc> leave, nothing deleted  <q> quit"
                    : w.running() ? "<esc> stop and leave  <q> quit"
                    : w.restartOffered() ? "<p> restart pods by eviction  <esc> back to the list  <q> quit"
                    : w.revertOffered() ? "<v> give the requests back (revert)  <esc> back to the list  <q> quit"
                    : "<esc> back to the list  <q> quit";
        };
    }

    /**
     * The claim table's scroll keys, only while rows are hidden, and only the way that shows some: last, so it gives way first
     * on a narrow row, where the table's own line above or below names the key.
     */
    private static String claims(UiState s) {
        ClaimWindow window = WizardView.claimWindow(s, Glyphs.UNICODE, Layout.bodyWidth(s.columns()), Layout.bodyRows(s.rows()));
        if (window == null || !window.scrolls()) {
            return "";
        }
        boolean above = window.first() > 0;
        boolean below = window.first() + window.shown() < window.total();
        return "  <" + (above && below ? "pgup/pgdn" : above ? "pgup" : "pgdn") + "> more claims";
    }

    static void draw(UiState s, Painter p, int row) {
        int width = p.columns() - 2;
        p.text(1, row, Texts.fitWords(fit(of(s), width), width, p.glyphs), Style.DIM, width);
    }

    /** The hints (two spaces apart) that fit {@code width} whole, from the first; at least the first. */
    static String fit(String hints, int width) {
        String[] each = hints.split(" {2}");
        StringBuilder out = new StringBuilder(each[0]);
        for (int i = 1; i < each.length; i++) {
            if (out.length() + 2 + each[i].codePointCount(0, each[i].length()) > width) {
                break;
            }
            out.append("  ").append(each[i]);
        }
        return out.toString();
    }
}
