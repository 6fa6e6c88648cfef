package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.converge.Gate;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.Key.Kind;
import dev.stsresize.tui.UiEvent.DecisionsLoaded;
import dev.stsresize.tui.UiEvent.LoadFailed;
import dev.stsresize.tui.UiEvent.Pressed;
import dev.stsresize.tui.UiEvent.Resized;
import dev.stsresize.tui.UiEvent.StepFinished;
import dev.stsresize.tui.UiEvent.StepProgress;
import dev.stsresize.tui.Wizard.LogLine;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole behaviour of the UI: state and event in, the next state and the effects to run out. PURE:
 * no I/O, no clock, no lanterna; every rule of the keys and of the wizard's gates is here and tested
 * as plain data.
 */
public final class Update {
    private Update() {}

    /** How often the claims are read again while the wizard waits at the name gate: the kubelet grows file systems meanwhile. */
    static final java.time.Duration CLAIMS_AT_THE_GATE = java.time.Duration.ofSeconds(5);

    public static Transition apply(UiState s, UiEvent e) {
        return UsageFlow.resumeIfShown(readingClaimsAtTheGate(s, e, next(s, e)));
    }

    /**
     * The name gate may wait for minutes while the kubelet grows the file systems: the claim table is read again every
     * {@link #CLAIMS_AT_THE_GATE} from when the gate opens until it closes, so it never shows what the log says has changed.
     */
    private static Transition readingClaimsAtTheGate(UiState before, UiEvent e, Transition t) {
        Wizard w = t.state().wizard();
        if (w == null || w.gate() != Gate.TYPE_NAME) {
            return t;
        }
        boolean opened = before.wizard() == null || before.wizard().gate() != Gate.TYPE_NAME;
        boolean read = e instanceof UiEvent.ClaimsRead c && c.key().equals(w.key());
        if (!opened && !read) {
            return t;
        }
        List<Effect> effects = new ArrayList<>(t.effects());
        effects.add(new Effect.ReadClaims(w.decision(), CLAIMS_AT_THE_GATE));
        return new Transition(t.state(), effects);
    }

    private static Transition next(UiState s, UiEvent e) {
        if (e instanceof Pressed p && p.key().kind() == Kind.CTRL_L) {
            return Transition.of(s, new Effect.Redraw()); // in every view and at every gate: it changes nothing but the screen
        }
        if (e instanceof Pressed p) {
            return key(s, p.key());
        }
        if (e instanceof Resized r) {
            return Transition.of(s.withSize(r.columns(), r.rows()));
        }
        if (e instanceof DecisionsLoaded l) {
            return loaded(s, l.loaded());
        }
        if (e instanceof UiEvent.DecisionsProved p) {
            return proved(s, p.loaded());
        }
        if (e instanceof LoadFailed f) {
            return loadFailed(s, f.message());
        }
        if (e instanceof UiEvent.CopyDecided c) {
            return copyDecided(s, c.decision());
        }
        if (e instanceof UiEvent.CopyRefused r) {
            return Transition.of(s.withFlash(Flash.error(r.key() + " was not decided again with the copy: " + r.message()
                    + "; nothing changed")));
        }
        if (e instanceof StepProgress p) {
            return progress(s, p);
        }
        if (e instanceof UiEvent.ClaimsRead c) {
            Wizard w = s.wizard();
            return w == null || !w.key().equals(c.key()) ? Transition.of(s) : Transition.of(s.withWizard(w.withClaims(c.claims())));
        }
        if (e instanceof UiEvent.WaitTicked t) {
            Wizard w = s.wizard();
            return w == null || !w.key().equals(t.key()) || !w.running() ? Transition.of(s)
                    : Transition.of(s.withWizard(w.withWaiting(t.status())));
        }
        if (e instanceof UiEvent.UsageRead u) {
            return UsageFlow.read(s, u);
        }
        if (e instanceof UiEvent.EditPrepared p) {
            return EditFlow.prepared(s, p.files());
        }
        if (e instanceof UiEvent.EditRefused r) {
            return EditFlow.refused(s, r.message());
        }
        if (e instanceof UiEvent.EditWritten w) {
            return EditFlow.written(s, w.files());
        }
        if (e instanceof UiEvent.Summarized m) {
            Wizard w = s.wizard();
            return w == null || !w.key().equals(m.key()) ? Transition.of(s) : Transition.of(s.withWizard(w.withSummary(m.summary())));
        }
        return finished(s, (StepFinished) e);
    }

    // ---- results -------------------------------------------------------------------------------

    /**
     * A load: drawn at once. Rows decided from the objects alone wait for their proofs, asked for now;
     * until they are in, the state stays loading (no second load is started behind them).
     */
    private static Transition loaded(UiState s, Loaded l) {
        boolean proving = !l.unproved().isEmpty();
        Decision before = s.selected();
        UiState next = s.withLoaded(l, proving);
        next = next.withCursor(indexOf(next.visible(), before, s.cursor()));
        // with proofs to come, what the rows wait for is on them: "refreshed" and the resume are said once they are in
        if (!proving && !s.loaded().decisions().isEmpty() && (s.flash() == null || s.flash().text().equals("refreshing"))) {
            next = next.withFlash(Flash.info("refreshed: " + l.decisions().size() + " StatefulSet" + (l.decisions().size() == 1 ? "" : "s")));
        } else if (!proving && !l.interrupted().isEmpty() && next.dialog() == null) {
            next = next.withDialog(resumeDialog(l.interrupted().get(0), l.interrupted().size()));
        }
        List<Effect> effects = new ArrayList<>();
        if (proving) {
            effects.add(new Effect.ProveDecisions());
        }
        if (s.loaded().decisions().isEmpty() && s.usage() == null && !l.decisions().isEmpty()) {
            effects.add(new Effect.ReadUsage(java.time.Duration.ZERO)); // the first load starts the timer
        }
        return new Transition(EditFlow.reopen(next), effects);
    }

    /** The proofs of the load shown: verdicts they changed (a refusal, a warning) replace the rows, the cursor stays on its row. */
    private static Transition proved(UiState s, Loaded l) {
        boolean refreshed = s.flash() != null && s.flash().text().equals("refreshing");
        Decision before = s.selected();
        UiState next = s.withLoaded(l, false);
        next = next.withCursor(indexOf(next.visible(), before, s.cursor()));
        if (refreshed) {
            next = next.withFlash(Flash.info("refreshed: " + l.decisions().size() + " StatefulSet" + (l.decisions().size() == 1 ? "" : "s")));
        } else if (!l.interrupted().isEmpty() && next.dialog() == null) {
            next = next.withDialog(resumeDialog(l.interrupted().get(0), l.interrupted().size()));
        }
        return Transition.of(next);
    }

    /** What the start says about a run that stopped: where it stopped, what resuming does, and the command for later. */
    static Dialog.Resume resumeDialog(InterruptedRun r, int count) {
        String state = r.absent()
                ? "StatefulSet " + r.key() + " is ABSENT: its pods and claims keep running, but nothing re-creates a pod that dies"
                        + " until it is re-applied."
                : "StatefulSet " + r.key() + " stands; the run held its Lease in phase " + r.phase() + ".";
        String does = r.pastTheDeleteGate()
                ? "y resumes it now: the manifest's object is re-applied (if absent) and the adoption verified."
                : "y resumes it now: the claims it grows are finished; the orphan delete is not made without your typed name"
                        + " (open the wizard again for that).";
        return new Dialog.Resume("An interrupted run", "The run of " + r.key() + " recorded by " + r.holder() + " at " + r.startedAt()
                + ", stopped in phase " + r.phase() + ". " + state + "\n\n" + does + "\nn leaves it; " + resumeCommand(r.namespace(), r.name())
                + " finishes it later." + (count > 1 ? "\n\n(" + (count - 1) + " more interrupted run(s): the next start offers them.)" : ""),
                r.key());
    }

    private static Transition loadFailed(UiState s, String message) {
        boolean proving = s.loading() && !s.loaded().unproved().isEmpty();
        UiState next = s.withLoading(false).withFlash(Flash.error(proving
                ? "the permission checks and dry runs failed, the rows marked unchecked are not proved: " + message + "; r reads again"
                : message));
        if (s.loaded().decisions().isEmpty()) {
            // nothing to show behind it: say it in full, not in a truncated line
            next = next.withDialog(new Dialog.Error("Could not load the StatefulSets", message + "\n\nPress r to try again, q to quit."));
        }
        return Transition.of(next);
    }

    private static Transition progress(UiState s, StepProgress p) {
        Wizard w = s.wizard();
        if (w == null || !w.key().equals(p.key())) {
            return Transition.of(s);
        }
        return Transition.of(s.withWizard(w.logged(new LogLine(p.step(), p.message(), p.kubectl(), p.warning()))));
    }

    private static Transition finished(UiState s, StepFinished f) {
        Wizard w = s.wizard();
        if (w == null || !w.key().equals(f.key()) || w.status(f.step()) != StepStatus.RUNNING) {
            return Transition.of(s); // a late answer for a wizard the user left
        }
        if (!f.ok()) {
            Wizard failed = w.with(f.step(), StepStatus.FAILED).logged(new LogLine(f.step(), f.message(), "", true));
            UiState next = s.withWizard(failed).withFlash(Flash.error(f.step().label() + " failed: " + f.message()));
            if (failed.statefulSetAbsent()) {
                next = next.withDialog(new Dialog.Error("The StatefulSet is absent", f.step().label() + " failed: " + f.message()
                        + "\n\nIts pods and claims keep running. Finish with: " + resumeCommand(w.decision())));
            }
            return Transition.of(next);
        }
        Wizard done = w.with(f.step(), StepStatus.DONE);
        if (!saidLast(w, f.step(), f.message())) {
            done = done.logged(new LogLine(f.step(), f.message(), "", false));
        }
        Phase nextStep = done.after(f.step());
        if (nextStep == null) {
            if (f.step() == Phase.RESUME) {
                return Transition.of(s.withWizard(done).withFlash(Flash.info(w.key() + ": the interrupted run is finished and verified")));
            }
            if (f.step() == Phase.REVERT) {
                return Transition.of(s.withWizard(done).withFlash(Flash.info(w.key() + ": " + f.message())));
            }
            if (f.step() == Phase.RESTART) {
                return Transition.of(s.withWizard(done).withFlash(Flash.info(w.key() + ": pods restarted one at a time: " + f.message())));
            }
            return Transition.of(s.withWizard(done).withFlash(Flash.info(w.key() + " converged and verified"
                    + (done.restartOffered() ? "; p offers the pod restarts" : ""))));
        }
        if (nextStep.rowGate().asks()) {
            // the gate's prompt replaces a word said while the step ran ("not yet"): it is no longer true
            UiState next = s.flash() != null && s.flash().level() == Flash.Level.INFO ? s.withFlash(null) : s;
            return Transition.of(next.withWizard(done.withGate(nextStep.rowGate(), "")));
        }
        return Transition.of(s.withWizard(done.with(nextStep, StepStatus.RUNNING)),
                new Effect.RunStep(nextStep, w.decision(), w.uid()));
    }

    // ---- keys ----------------------------------------------------------------------------------

    private static Transition key(UiState pressed, Key k) {
        // an INFO message has been seen once a key is pressed; warnings and errors stay until replaced
        UiState s = pressed.flash() != null && pressed.flash().level() == Flash.Level.INFO ? pressed.withFlash(null) : pressed;
        if (k.kind() == Kind.EOF) {
            return Transition.of(s, new Effect.Quit());
        }
        if (s.dialog() != null) {
            return dialogKey(s, k);
        }
        if (s.view() == View.LIST && s.filtering()) {
            return filterKey(s, k);
        }
        if (s.view() == View.EDIT && s.edit() != null && s.edit().stage() == SizeEdit.Stage.FORM && k.kind() != Kind.CTRL_C) {
            return EditFlow.key(s, k); // the form takes every character, q and ? included
        }
        if (s.view() == View.WIZARD && s.wizard() != null && s.wizard().gate() == Gate.TYPE_NAME
                && k.kind() != Kind.CTRL_C) {
            return nameGateKey(s, k);
        }
        if (k.is('q') || k.kind() == Kind.CTRL_C) {
            return quit(s);
        }
        if (k.is('?') && s.view() != View.HELP) {
            return Transition.of(s.withView(View.HELP, s.view()));
        }
        return switch (s.view()) {
            case LIST -> listKey(s, k);
            case DIFF -> diffKey(s, k);
            case HELP -> helpKey(s, k);
            case WIZARD -> wizardKey(s, k);
            case USAGE -> UsageFlow.key(s, k);
            case EDIT -> s.edit() == null ? Transition.of(s.withView(View.LIST, View.LIST)) : EditFlow.key(s, k);
        };
    }

    private static Transition quit(UiState s) {
        Wizard w = s.wizard();
        if (w != null && w.copies() && w.statefulSetAbsent()) {
            return Transition.of(s.withDialog(new Dialog.ConfirmQuit("A copy is under way", "The claims of " + w.key() + " are being"
                    + " copied, one pod at a time, with the StatefulSet deleted (orphaned) around each pod.\n\nQuitting now stops the"
                    + " copy at its next safe point before the process exits: the copy pod in flight may finish; a pod none of whose"
                    + " claims was re-created yet comes back on its own claims (the StatefulSet is re-applied); one past that is"
                    + " re-applied and waited for first. The run stays recorded; finish it with:\n  " + resumeCommand(w.decision())
                    + "\n\nQuit anyway? y/n")));
        }
        if (w != null && w.writeInFlight()) {
            String message = w.statefulSetAbsent()
                    ? "StatefulSet " + w.key() + " is deleted (orphaned) and not re-applied yet. Its pods and claims keep running,"
                            + " but nothing re-creates a pod that dies until it is re-applied.\n\n" + (w.running()
                                    ? "Quitting now, the run in flight is waited for (up to a minute) before the process exits; if it is stopped,"
                                            + " finish with:\n  "
                                    : "Quitting now leaves it so; finish with:\n  ")
                            + resumeCommand(w.decision()) + "\n\nQuit anyway? y/n"
                    : "A write to " + w.key() + " is running (" + w.current().label() + "). Quitting stops following it; the write"
                            + " may still land.\n\nQuit anyway? y/n";
            return Transition.of(s.withDialog(new Dialog.ConfirmQuit("A write is in flight", message)));
        }
        return Transition.of(s, new Effect.Quit());
    }

    private static Transition dialogKey(UiState s, Key k) {
        if (s.dialog() instanceof Dialog.Resume r) {
            if (k.is('y') || k.is('Y')) {
                Decision d = s.loaded().decisions().stream().filter(x -> Loaded.key(x).equals(r.key())).findFirst().orElse(null);
                if (d == null) {
                    return Transition.of(s.withDialog(null).withFlash(Flash.warn(r.key() + " is not in the list; run " + resumeCommand(r.key()))));
                }
                Wizard w = Wizard.resuming(d, s.loaded().uid(d));
                UiState next = s.withDialog(null).withCursor(indexOf(s.visible(), d, s.cursor()));
                return Transition.of(next.withWizard(w).withView(View.WIZARD, View.LIST), new Effect.RunStep(Phase.RESUME, d, w.uid()));
            }
            if (k.is('q') || k.kind() == Kind.CTRL_C) {
                return Transition.of(s.withDialog(null), new Effect.Quit());
            }
            return Transition.of(s.withDialog(null).withFlash(Flash.warn("not resumed: " + resumeCommand(r.key()) + " finishes it")));
        }
        if (s.dialog() instanceof Dialog.Revert r) {
            Wizard w = s.wizard();
            if ((k.is('y') || k.is('Y')) && w != null && w.key().equals(r.key()) && w.revertOffered()) {
                return Transition.of(s.withDialog(null).withWizard(w.appended(Phase.REVERT)).withFlash(null),
                        new Effect.RunStep(Phase.REVERT, w.decision(), w.uid()));
            }
            if (k.kind() == Kind.CTRL_C) {
                return Transition.of(s.withDialog(null), new Effect.Quit());
            }
            return Transition.of(s.withDialog(null).withFlash(Flash.info("not reverted: kubectl stsresize revert " + r.key() + " does it later")));
        }
        if (s.dialog() instanceof Dialog.ConfirmQuit) {
            if (k.is('y') || k.is('Y') || k.kind() == Kind.CTRL_C) {
                return Transition.of(s, new Effect.Quit());
            }
            return Transition.of(s.withDialog(null).withFlash(Flash.info("still here")));
        }
        if (k.is('q') || k.kind() == Kind.CTRL_C) {
            return Transition.of(s.withDialog(null), new Effect.Quit());
        }
        if (k.is('r') && s.loaded().decisions().isEmpty()) {
            return refresh(s.withDialog(null));
        }
        return Transition.of(s.withDialog(null));
    }

    private static Transition filterKey(UiState s, Key k) {
        String f = s.filter();
        return switch (k.kind()) {
            case CHAR -> Transition.of(s.withFilter(f + k.ch(), true).withCursor(0));
            case BACKSPACE -> Transition.of(s.withFilter(f.isEmpty() ? f : f.substring(0, f.length() - 1), true).withCursor(0));
            case ENTER -> Transition.of(s.withFilter(f, false));
            case ESCAPE -> Transition.of(s.withFilter("", false).withCursor(indexOf(s.withFilter("", false).visible(), s.selected(), 0)));
            case CTRL_C -> quit(s);
            case UP, DOWN, PAGE_UP, PAGE_DOWN, HOME, END -> move(s, k);
            default -> Transition.of(s);
        };
    }

    private static Transition listKey(UiState s, Key k) {
        Decision d = s.selected();
        if (k.kind() == Kind.ENTER) {
            return d == null ? Transition.of(s) : Transition.of(s.withView(View.DIFF, View.LIST));
        }
        if (k.is('/')) {
            return Transition.of(s.withFilter(s.filter(), true));
        }
        if (k.is('s')) {
            UiState sorted = s.withSort(s.sort().next());
            return Transition.of(sorted.withCursor(indexOf(sorted.visible(), d, 0)).withFlash(Flash.info("sorted by " + sorted.sort().label())));
        }
        if (k.is('r')) {
            return refresh(s);
        }
        if (k.is('a')) {
            return openWizard(s, View.LIST);
        }
        if (k.is('C')) {
            return copyKey(s);
        }
        if (k.is(' ')) {
            return EditFlow.toggleMark(s);
        }
        if (k.is('u')) {
            return Transition.of(s.withView(View.USAGE, View.LIST));
        }
        if (k.is('e')) {
            return EditFlow.open(s, View.LIST);
        }
        if (k.kind() == Kind.ESCAPE && !s.filter().isEmpty()) {
            UiState cleared = s.withFilter("", false);
            return Transition.of(cleared.withCursor(indexOf(cleared.visible(), d, 0)));
        }
        if (k.kind() == Kind.ESCAPE && !s.marked().isEmpty()) {
            return Transition.of(s.withMarked(java.util.Set.of()).withFlash(Flash.info("marks cleared")));
        }
        return move(s, k);
    }

    /**
     * Whether the copy's key applies to {@code d}: a refusal only for want of expansion that the copy could take, as the
     * decision says ({@link Refusal#copyPossible}). No other row is offered the copy, nor given it by the key.
     */
    static boolean copyOffered(Decision d) {
        return d instanceof Refusal r && r.copyPossible();
    }

    /**
     * C on a row the copy could take: that row decided again, and proved, with the opt-in (the default image, each
     * claim's own class), as {@code plan --copy} decides it; its diff follows, where Enter opens the copy's wizard and its
     * gates. On any other row C does nothing. While the list is read or proved the row may still change: not yet.
     */
    private static Transition copyKey(UiState s) {
        Decision d = s.selected();
        if (!copyOffered(d)) {
            return Transition.of(s);
        }
        if (s.loading()) {
            return Transition.of(s.withFlash(Flash.info("not yet: the list is being read and proved; C once it is in")));
        }
        return Transition.of(s.withFlash(Flash.info("deciding " + Loaded.key(d) + " again with the copy (image "
                + CopyOptIn.DEFAULT_IMAGE + ", each claim's own class)…")), new Effect.DecideCopy(d));
    }

    /** The row decided again with the copy: its diff, saying what the copy will use, or why the copy cannot take it. */
    private static Transition copyDecided(UiState s, Decision d) {
        String key = Loaded.key(d);
        boolean listed = s.loaded().decisions().stream().anyMatch(x -> Loaded.key(x).equals(key));
        if (!listed) {
            return Transition.of(s); // a late answer for a list read again since without it
        }
        UiState next = s.withLoaded(s.loaded().withDecision(d), s.loading());
        next = next.withCursor(indexOf(next.visible(), d, s.cursor()));
        if (s.view() == View.LIST || s.view() == View.DIFF) {
            next = next.withView(View.DIFF, View.LIST);
        }
        Flash said = d.verdict() == Verdict.COPY
                ? Flash.info(key + " is COPY now (image " + CopyOptIn.DEFAULT_IMAGE + ", each claim's own class): Enter opens the wizard")
                : Flash.warn(key + " cannot be copied: " + Texts.verdictWord(d.verdict()) + ": " + d.detail());
        return Transition.of(next.withFlash(said));
    }

    private static Transition refresh(UiState s) {
        if (s.loading()) {
            return Transition.of(s);
        }
        return Transition.of(s.withLoading(true).withFlash(Flash.info("refreshing")), new Effect.LoadDecisions());
    }

    private static Transition move(UiState s, Key k) {
        int n = s.visible().size();
        if (n == 0) {
            return Transition.of(s.withCursor(0));
        }
        int page = Layout.listRows(s.rows());
        int c = Math.min(s.cursor(), n - 1);
        int next = switch (k.kind()) {
            case UP -> c - 1;
            case DOWN -> c + 1;
            case PAGE_UP -> c - page;
            case PAGE_DOWN -> c + page;
            case HOME -> 0;
            case END -> n - 1;
            case CHAR -> switch (k.ch()) {
                case 'k' -> c - 1;
                case 'j' -> c + 1;
                case 'g' -> 0;
                case 'G' -> n - 1;
                default -> c;
            };
            default -> c;
        };
        return Transition.of(s.withCursor(Math.max(0, Math.min(n - 1, next))));
    }

    private static Transition diffKey(UiState s, Key k) {
        if (k.kind() == Kind.ESCAPE || k.kind() == Kind.LEFT) {
            return Transition.of(s.withView(View.LIST, View.LIST));
        }
        if (k.kind() == Kind.ENTER || k.is('a')) {
            return openWizard(s, View.DIFF);
        }
        if (k.is('e')) {
            return EditFlow.open(s, View.DIFF);
        }
        if (k.is('C')) {
            return copyKey(s);
        }
        Decision d = s.selected();
        int lines = d == null ? 0 : DiffLines.of(d, s.loaded(), s.usage(), Glyphs.UNICODE, Layout.bodyWidth(s.columns())).size();
        return scroll(s, k, lines);
    }

    private static Transition helpKey(UiState s, Key k) {
        if (k.kind() == Kind.ESCAPE || k.is('?')) {
            return Transition.of(s.withView(s.back(), View.LIST));
        }
        return scroll(s, k, KeyHelp.lines(Layout.bodyWidth(s.columns())).size());
    }

    static Transition scroll(UiState s, Key k, int lines) {
        int page = Layout.bodyRows(s.rows());
        int max = Math.max(0, lines - page);
        int next = switch (k.kind()) {
            case UP -> s.scroll() - 1;
            case DOWN -> s.scroll() + 1;
            case PAGE_UP -> s.scroll() - page;
            case PAGE_DOWN -> s.scroll() + page;
            case HOME -> 0;
            case END -> max;
            case CHAR -> switch (k.ch()) {
                case 'k' -> s.scroll() - 1;
                case 'j' -> s.scroll() + 1;
                case 'g' -> 0;
                case 'G' -> max;
                default -> s.scroll();
            };
            default -> s.scroll();
        };
        return Transition.of(s.withScroll(Math.max(0, Math.min(max, next))));
    }

    // ---- the wizard ----------------------------------------------------------------------------

    private static Transition openWizard(UiState s, View from) {
        Decision d = s.selected();
        if (d == null) {
            return Transition.of(s);
        }
        if (!d.verdict().hasWork()) {
            return Transition.of(s.withFlash(Flash.warn(Loaded.key(d) + " is " + Texts.verdict(d) + ": nothing to apply")));
        }
        if (s.wizard() != null && s.wizard().writeInFlight()) {
            return Transition.of(s.withFlash(Flash.warn("the wizard of " + s.wizard().key() + " has a write in flight; finish it first")));
        }
        Wizard w = Wizard.start(d, s.loaded().uid(d));
        return Transition.of(s.withWizard(w).withView(View.WIZARD, from).withFlash(null),
                new Effect.RunStep(w.steps().get(0), d, w.uid()));
    }

    private static Transition wizardKey(UiState s, Key k) {
        Wizard w = s.wizard();
        if (w == null) {
            return Transition.of(s.withView(View.LIST, View.LIST));
        }
        if (k.kind() == Kind.PAGE_UP || k.kind() == Kind.PAGE_DOWN) {
            return scrollClaims(s, k); // at every gate and while steps run: the table is read throughout
        }
        if (w.gate() == Gate.CONFIRM) {
            if (k.is('y') || k.is('Y')) {
                String unproved = unprovedInList(s, w);
                if (unproved != null) {
                    // waiting is said once (the proofs end it); a failure or a refusal stays until replaced
                    boolean waiting = s.loading() && s.loaded().unproved().contains(w.key());
                    return Transition.of(s.withFlash(waiting ? Flash.info(unproved) : Flash.warn(unproved)));
                }
                Phase step = w.current();
                return Transition.of(s.withWizard(w.withGate(Gate.NONE, "").with(step, StepStatus.RUNNING)),
                        new Effect.RunStep(step, w.decision(), w.uid()));
            }
            if (k.is('n') || k.kind() == Kind.ESCAPE) {
                return leave(s, w);
            }
            return Transition.of(s.withFlash(Flash.warn("press y to " + w.current().label() + ", n or Esc to leave")));
        }
        if ((k.is('y') || k.is('Y')) && w.status(Phase.CHECK) == StepStatus.RUNNING) {
            return Transition.of(s.withFlash(Flash.info("not yet: the check is asking the server for " + w.key()
                    + "'s permissions and the dry run of every write; y is asked for once they pass")));
        }
        if (k.is('c') && w.status(Phase.WAIT) == StepStatus.RUNNING && !w.goingOn()) {
            return Transition.of(s.withWizard(w.wentOn()).withFlash(Flash.info("going on: the resizer keeps working; the recreate needs only the grown requests")), new Effect.GoOn(w.decision()));
        }
        if (k.is('v') && w.revertOffered()) {
            return Transition.of(s.withDialog(new Dialog.Revert("Give the requests back", "The resize of " + w.key() + " did not"
                    + " complete. y lowers each claim whose capacity is still below its request back to its size before the run,"
                    + " where the server allows it (each patch dry-run first); claims that grew are left alone, nothing is deleted,"
                    + " and the run's Lease and record are freed.\n\nThe same from a shell: kubectl stsresize revert " + w.key()
                    + "\n\nRevert now? y/n", w.key())));
        }
        if (k.is('p') && w.restartOffered()) {
            return Transition.of(s.withWizard(w.appended(Phase.RESTART)).withFlash(null),
                    new Effect.RunStep(Phase.RESTART, w.decision(), w.uid()));
        }
        if (k.kind() != Kind.ESCAPE) {
            return Transition.of(s);
        }
        if (w.writeInFlight()) {
            return Transition.of(s.withFlash(Flash.warn(w.statefulSetAbsent()
                    ? "the StatefulSet is absent until the re-apply: stay until it is back (q quits, and says how to resume)"
                    : "a write is running: wait for it to finish")));
        }
        return leave(s, w);
    }

    /**
     * Why the first write may not start yet, or null when it may: the list's own proofs of the
     * StatefulSet (permissions, dry runs) must be in and still find work. The wizard's check proved it
     * too, but an answer of the server that disagrees with it means the cluster changed in between.
     */
    private static String unprovedInList(UiState s, Wizard w) {
        Loaded l = s.loaded();
        Decision listed = l.decisions().stream().filter(d -> Loaded.key(d).equals(w.key())).findFirst().orElse(null);
        if (listed == null) {
            return null; // no longer in the manifest's scope: the check's proofs are the only ones
        }
        if (l.unproved(listed) && !s.loading()) {
            return "the list's permission checks and dry runs of " + w.key() + " failed, so y is not accepted: Esc, then r in the"
                    + " list reads and proves again";
        }
        if (l.unproved(listed)) {
            return "waiting for the server's permission checks and dry runs of the list (" + w.key() + "); y is accepted once they"
                    + " are in";
        }
        if (!listed.verdict().hasWork()) {
            return "the server's proofs now answer " + w.key() + " is " + Texts.verdict(listed) + ": nothing was written; Esc leaves,"
                    + " the diff says why";
        }
        return null;
    }

    /**
     * PgDn shows the claim rows below those shown, PgUp those above, a page at a time; at either end, or when every row fits,
     * nothing moves. From the rows the screen shows now ({@link ClaimWindow}), so a scroll left past the end by a taller
     * terminal or fewer claims moves from where the table stands.
     */
    private static Transition scrollClaims(UiState s, Key k) {
        ClaimWindow now = claimWindow(s);
        if (now == null || !now.scrolls()) {
            return Transition.of(s);
        }
        int page = Math.max(1, now.shown());
        int next = k.kind() == Kind.PAGE_DOWN ? now.first() + page : now.first() - page;
        UiState moved = s.withWizard(s.wizard().withClaimsFrom(next));
        // kept as the screen shows it: past the last page the table stands at its last page, and PgUp goes on from there
        return Transition.of(s.withWizard(s.wizard().withClaimsFrom(claimWindow(moved).first())));
    }

    private static ClaimWindow claimWindow(UiState s) {
        return WizardView.claimWindow(s, Glyphs.UNICODE, Layout.bodyWidth(s.columns()), Layout.bodyRows(s.rows()));
    }

    /** The delete gate: the operator types the StatefulSet's name; only the exact name passes. */
    private static Transition nameGateKey(UiState s, Key k) {
        Wizard w = s.wizard();
        String typed = w.typed();
        return switch (k.kind()) {
            case CHAR -> Transition.of(s.withWizard(w.withGate(Gate.TYPE_NAME, typed + k.ch())));
            case BACKSPACE -> Transition.of(s.withWizard(w.withGate(Gate.TYPE_NAME,
                    typed.isEmpty() ? typed : typed.substring(0, typed.length() - 1))));
            case ESCAPE -> leave(s, w);
            case PAGE_UP, PAGE_DOWN -> scrollClaims(s, k); // no name holds them: the table scrolls here too
            case ENTER -> {
                if (!typed.equals(w.decision().name())) {
                    yield Transition.of(s.withWizard(w.withGate(Gate.TYPE_NAME, "")).withFlash(Flash.error(
                            "\"" + typed + "\" is not \"" + w.decision().name() + "\": nothing was deleted; type its name exactly")));
                }
                Phase step = w.current();
                yield Transition.of(s.withWizard(w.withGate(Gate.NONE, "").with(step, StepStatus.RUNNING)).withFlash(null),
                        new Effect.RunStep(step, w.decision(), w.uid()));
            }
            default -> Transition.of(s);
        };
    }

    /** Leave the wizard: nothing irreversible happened (the callers check); a finished one refreshes the list. */
    private static Transition leave(UiState s, Wizard w) {
        List<Effect> effects = new ArrayList<>();
        String message;
        if (w.finished()) {
            message = w.key() + " converged; the list is refreshed";
        } else if (w.status(Phase.REVERT) == StepStatus.DONE) {
            message = "left " + w.key() + ": the claims' requests were given back, StatefulSet is untouched";
        } else if (w.status(Phase.WAIT) == StepStatus.FAILED) {
            // the requests were raised, the volumes did not follow: "grown" would say room they do not have
            message = "left " + w.key() + " before the delete: the claims' requests were raised but their resize failed"
                    + " (kubectl stsresize revert " + w.key() + " gives them back), StatefulSet is untouched";
        } else if (w.wrote()) {
            message = "left " + w.key() + " before the delete: claims are grown, StatefulSet is untouched";
        } else {
            message = "left " + w.key() + ": nothing was written";
        }
        // always: a runner may hold the Lease at a gate with no step running (the name gate), and must release it
        effects.add(new Effect.CancelSteps(w.decision()));
        // an ended wizard's hint says "<esc> back to the list" (KeyHints): there it goes, not to the diff it came from
        boolean ended = w.gate() == Gate.NONE && !w.running();
        UiState next = s.withWizard(null).withView(!ended && s.back() == View.DIFF ? View.DIFF : View.LIST, View.LIST)
                .withFlash(Flash.info(message));
        if (w.wrote() && !next.loading()) {
            next = next.withLoading(true);
            effects.add(new Effect.LoadDecisions());
        }
        return new Transition(next, effects);
    }

    /** The step's last log entry already says this: the end of a step is not logged twice. */
    private static boolean saidLast(Wizard w, Phase step, String message) {
        for (int i = w.log().size() - 1; i >= 0; i--) {
            LogLine l = w.log().get(i);
            if (l.step() == step) {
                return l.message().equals(message);
            }
        }
        return false;
    }

    static String resumeCommand(Decision d) {
        return resumeCommand(d.namespace(), d.name());
    }

    static String resumeCommand(String namespace, String name) {
        return resumeCommand(namespace + "/" + name);
    }

    static String resumeCommand(String key) {
        return "kubectl stsresize resume " + key;
    }

    private static int indexOf(List<Decision> visible, Decision d, int fallback) {
        if (d != null) {
            for (int i = 0; i < visible.size(); i++) {
                if (visible.get(i).namespace().equals(d.namespace()) && visible.get(i).name().equals(d.name())) {
                    return i;
                }
            }
        }
        return Math.max(0, Math.min(fallback, visible.size() - 1));
    }
}
