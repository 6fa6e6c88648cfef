package dev.stsresize.tui;

import dev.stsresize.manifest.Source;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.SuggestedSize;
import dev.stsresize.plan.TemplateSize;
import dev.stsresize.tui.Key.Kind;
import dev.stsresize.tui.SizeEdit.Row;
import dev.stsresize.tui.SizeEdit.Stage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The manifest edited from the UI, as {@link Update}'s part for it: Space marks StatefulSets, {@code e} opens
 * the sizes (the suggestion pre-filled, else the declared size), Enter has the files changed in memory
 * ({@link Effect.PrepareEdit}), the diffs are shown, {@code y} writes them ({@link Effect.WriteEdit}), and the
 * reload opens the first one's diff, from where the wizard goes on as usual. PURE.
 */
final class EditFlow {
    private EditFlow() {}

    /** Space: marks or unmarks the StatefulSet under the cursor, and moves down (as k9s does). */
    static Transition toggleMark(UiState s) {
        Decision d = s.selected();
        if (d == null) {
            return Transition.of(s);
        }
        Set<String> marked = new HashSet<>(s.marked());
        if (!marked.remove(Loaded.key(d))) {
            marked.add(Loaded.key(d));
        }
        UiState next = s.withMarked(marked).withCursor(Math.min(s.cursor() + 1, s.visible().size() - 1));
        return Transition.of(next.withFlash(Flash.info(marked.isEmpty() ? "no StatefulSet marked"
                : marked.size() + " marked: e edits their sizes together, Space unmarks")));
    }

    /** {@code e}: the form for the marked StatefulSets, else the one under the cursor; refused as a whole, naming why. */
    static Transition open(UiState s, View from) {
        List<Decision> chosen = chosen(s);
        if (chosen.isEmpty()) {
            return Transition.of(s);
        }
        List<Row> rows = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        for (Decision d : chosen) {
            String refusal = refusal(s.loaded(), d);
            if (!refusal.isEmpty()) {
                refusals.add(refusal);
                continue;
            }
            rows.addAll(rows(s.loaded(), s.usage(), d));
        }
        if (!refusals.isEmpty()) {
            String others = chosen.size() > refusals.size() ? "\n\nUnmark it (Space) to edit the others." : "";
            return Transition.of(s.withDialog(new Dialog.Error("The manifest cannot be edited here",
                    String.join("\n\n", refusals) + "\n\nNothing was written." + others)));
        }
        return Transition.of(s.withEdit(SizeEdit.form(rows)).withView(View.EDIT, from).withFlash(null));
    }

    /** The marked StatefulSets in the list's order (also those the filter hides), else the selected one. */
    private static List<Decision> chosen(UiState s) {
        if (s.marked().isEmpty()) {
            return s.selected() == null ? List.of() : List.of(s.selected());
        }
        return s.loaded().decisions().stream().filter(d -> s.marked().contains(Loaded.key(d))).sorted(s.sort().comparator(s.usage())).toList();
    }

    /** Why this StatefulSet's manifest cannot be edited from here, "" when it can. */
    static String refusal(Loaded l, Decision d) {
        Source src = l.source(d);
        String key = Loaded.key(d);
        if (src == null) {
            return "Where StatefulSet " + key + " is declared is not known; edit its manifest by hand, then press r.";
        }
        if (src.file().equals("<stdin>")) {
            return "StatefulSet " + key + " came on standard input (document " + src.document() + ", line " + src.line()
                    + "), which cannot be edited in place. Save the manifest to a file and open it with -f FILE, or run"
                    + " kubectl stsresize set-size -f FILE " + key + " TEMPLATE=SIZE.";
        }
        if (d.templates().isEmpty()) {
            return "StatefulSet " + key + " (" + src.file() + ", line " + src.line() + ") declares no volumeClaimTemplate: it has no"
                    + " size to edit.";
        }
        return "";
    }

    /**
     * The templates offered: those with a suggested size, pre-filled with it; when none is suggested, every
     * template, pre-filled with the size the file declares.
     */
    private static List<Row> rows(Loaded l, UsageIndex usage, Decision d) {
        String file = l.source(d).file();
        List<Row> suggested = new ArrayList<>();
        List<Row> all = new ArrayList<>();
        for (TemplateSize t : d.templates()) {
            String declared = t.declared().toString();
            Optional<SuggestedSize> hint = usage == null ? Optional.empty() : usage.suggestion(d, t.name());
            hint.ifPresent(h -> suggested.add(new Row(d.namespace(), d.name(), t.name(), file, declared, h.suggested(), h.why())));
            all.add(new Row(d.namespace(), d.name(), t.name(), file, declared, declared, ""));
        }
        return suggested.isEmpty() ? all : suggested;
    }

    /** A key while the edit is shown. */
    static Transition key(UiState s, Key k) {
        SizeEdit e = s.edit();
        return switch (e.stage()) {
            case FORM -> formKey(s, e, k);
            case REVIEW -> reviewKey(s, e, k);
            case PREPARING, WRITING, WRITTEN -> k.kind() == Kind.ESCAPE && e.stage() == Stage.PREPARING
                    ? Transition.of(s.withEdit(e.at(Stage.FORM))) // the answer is then dropped
                    : Transition.of(s);
        };
    }

    private static Transition formKey(UiState s, SizeEdit e, Key k) {
        return switch (k.kind()) {
            case CHAR -> Transition.of(s.withEdit(e.typed(k.ch())));
            case BACKSPACE -> Transition.of(s.withEdit(e.erased()));
            case LEFT -> Transition.of(s.withEdit(e.caretAt(e.caret() - 1)));
            case RIGHT -> Transition.of(s.withEdit(e.caretAt(e.caret() + 1)));
            case HOME -> Transition.of(s.withEdit(e.caretAt(0)));
            case END -> Transition.of(s.withEdit(e.caretAt(e.focused().value().length())));
            case UP -> Transition.of(s.withEdit(e.focus(e.focus() - 1)));
            case DOWN, TAB -> Transition.of(s.withEdit(e.focus(e.focus() + 1)));
            case ESCAPE -> leave(s, "edit cancelled: nothing written");
            case ENTER -> {
                String problem = e.problem();
                if (!problem.isEmpty()) {
                    yield Transition.of(s.withFlash(Flash.error(problem)));
                }
                yield Transition.of(s.withEdit(e.at(Stage.PREPARING)).withFlash(null), new Effect.PrepareEdit(e.changes()));
            }
            default -> Transition.of(s);
        };
    }

    private static Transition reviewKey(UiState s, SizeEdit e, Key k) {
        if (k.is('y') || k.is('Y')) {
            return Transition.of(s.withEdit(e.at(Stage.WRITING)).withFlash(null), new Effect.WriteEdit(e.files()));
        }
        if (k.is('n') || k.kind() == Kind.ESCAPE) {
            return Transition.of(s.withEdit(e.at(Stage.FORM)).withScroll(0).withFlash(Flash.info("not written: change the sizes, or Esc")));
        }
        return Update.scroll(s, k, e.diffLines().size());
    }

    private static Transition leave(UiState s, String message) {
        return Transition.of(s.withEdit(null).withView(s.back() == View.DIFF ? View.DIFF : View.LIST, View.LIST)
                .withFlash(Flash.info(message)));
    }

    // ---- results -------------------------------------------------------------------------------

    static Transition prepared(UiState s, List<SizeEdit.FileChange> files) {
        SizeEdit e = s.edit();
        if (e == null || e.stage() != Stage.PREPARING) {
            return Transition.of(s); // the operator went back meanwhile
        }
        String names = String.join(", ", files.stream().map(SizeEdit.FileChange::file).toList());
        return Transition.of(s.withEdit(e.prepared(files)).withScroll(0).withFlash(Flash.info("y writes " + names + "; n changes the sizes")));
    }

    static Transition refused(UiState s, String message) {
        SizeEdit e = s.edit();
        if (e == null) {
            return Transition.of(s);
        }
        return Transition.of(s.withEdit(e.at(Stage.FORM)).withDialog(new Dialog.Error("The manifest is not edited",
                message + "\n\nNothing was written.")));
    }

    static Transition written(UiState s, List<String> files) {
        SizeEdit e = s.edit();
        if (e == null) {
            return Transition.of(s);
        }
        UiState next = s.withEdit(e.at(Stage.WRITTEN)).withMarked(Set.of()).withView(View.LIST, View.LIST).withLoading(true)
                .withFlash(Flash.info("wrote " + String.join(", ", files) + "; reloading"));
        return Transition.of(next, new Effect.LoadDecisions());
    }

    /** After the reload that follows a write: the first edited StatefulSet's diff, from where Enter runs the wizard. */
    static UiState reopen(UiState s) {
        SizeEdit e = s.edit();
        if (e == null || e.stage() != Stage.WRITTEN) {
            return s;
        }
        List<String> keys = e.keys();
        int at = -1;
        for (int i = 0; i < s.visible().size(); i++) {
            if (Loaded.key(s.visible().get(i)).equals(keys.get(0))) {
                at = i;
            }
        }
        String sizes = String.join(", ", e.rows().stream().map(r -> r.name() + " " + r.template() + " " + r.declared() + " → "
                + r.value().strip()).toList());
        UiState next = s.withEdit(null);
        if (at < 0) {
            return next.withFlash(Flash.warn("written (" + sizes + "), but " + keys.get(0) + " is not in the list; clear the filter"));
        }
        return next.withCursor(at).withView(View.DIFF, View.LIST).withFlash(Flash.info("manifest written (" + sizes + "): Enter"
                + " runs the wizard" + (keys.size() > 1 ? "; the others are in the list" : "")));
    }
}
