package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.converge.Gate;
import dev.stsresize.converge.Write;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.render.CopyDowntime;
import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Style;
import dev.stsresize.tui.Wizard.LogLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The wizard: the steps as a checklist (pending, running, done, failed), the gate waiting for the
 * operator, then the log of what the steps did with the kubectl command of each write, newest last.
 */
final class WizardView {
    private WizardView() {}

    static void draw(UiState s, Painter p, int left, int top, int width, int height) {
        Wizard w = s.wizard();
        if (w == null) {
            return;
        }
        Glyphs g = p.glyphs;
        Head head = head(s, w, g, width, height);
        List<Line> lines = new ArrayList<>(head.lines());
        GateLines gateParts = head.gate();
        int commandsAt = head.commandsAt();
        if (w.summary() != null && w.status(Phase.RESTART) != StepStatus.RUNNING) {
            // every row of what was verified, or a line that says how many a short terminal leaves out
            List<List<Line>> rows = summary(w, g).stream().map(l -> Styled.wrap(l, width, 6)).toList();
            lines.addAll(fitted(rows, height - lines.size(), "row of the summary", width));
        } else if (!w.claims().isEmpty()) {
            // every claim's row, or those from the scroll's first that fit and a line above and below that counts the rest and
            // names the key that shows them; the claims before the gate's commands, which are copy aids: each shown whole or
            // not at all, never cut (a cut command is not shell)
            lines.add(claimHeader(w));
            lines.addAll(window(head, w, g, width, height).lines());
        }
        lines.addAll(commandsAt, fittedCommands(gateParts.commands(), height - lines.size(), width));
        // the newest entries that fit whole: an entry cut in half would show a command without its step
        int room = height - lines.size() - 1;
        List<List<Line>> entries = new ArrayList<>();
        for (LogLine l : w.log()) {
            List<Line> entry = new ArrayList<>(Styled.wrap(Styled.line().add(Texts.pad(l.step().label(), 15), Style.DIM)
                    .add(l.message(), l.warning() ? Style.WARN : Style.NORMAL).line(), width, 15));
            if (!l.kubectl().isEmpty()) {
                entry.addAll(CopyableLines.command(Styled.line().add(" ".repeat(15) + "$ ", Style.DIM).line(), l.kubectl(), Style.ACCENT, width, 17));
            }
            entries.add(entry);
        }
        List<Line> shown = new ArrayList<>();
        for (int i = entries.size() - 1; i >= 0 && shown.size() + entries.get(i).size() <= room; i--) {
            shown.addAll(0, entries.get(i));
        }
        if (!shown.isEmpty()) {
            lines.add(Styled.of("Log" + (shown.size() < entries.stream().mapToInt(List::size).sum() ? " (newest)" : ""), Style.BOLD));
            lines.addAll(shown);
        }
        for (int i = 0; i < height && i < lines.size(); i++) {
            p.line(left, top + i, lines.get(i), width, false);
        }
    }

    /** What stands above the claim table or the summary: the title, the checklist, the gate's words and the waits. */
    private record Head(List<Line> lines, GateLines gate, int commandsAt) {}

    private static Head head(UiState s, Wizard w, Glyphs g, int width, int height) {
        Decision d = w.decision();
        List<Line> lines = new ArrayList<>(title(w, g, width));
        lines.add(Styled.line().line());
        GateLines gateParts = gateOrOutcome(w, g, width, s.usage() == null ? Optional.empty() : s.usage().of(d));
        List<Line> gate = gateParts.all();
        boolean table = w.summary() == null && !w.claims().isEmpty();
        int tableLines = table ? 1 + claimRows(w, g, width).stream().mapToInt(List::size).sum() : 0;
        List<Line> waitLines = waitLines(s, w, g, width);
        // the waits counted too: a checklist a row per step that leaves the claims no room hides claims a line could show
        if (w.summary() != null || w.steps().contains(Phase.RESTART)
                || lines.size() + w.steps().size() + 1 + gate.size() + waitLines.size() + tableLines > height) {
            // the summary, or a gate on a short terminal, needs the room: the checklist on one line
            Styled.Builder b = Styled.line().add("  ");
            for (int i = 0; i < w.steps().size(); i++) {
                b.add(mark(w.statuses().get(i), g) + " ", style(w.statuses().get(i))).add(w.steps().get(i).label() + "  ", Style.DIM);
            }
            lines.addAll(Styled.wrap(b.line(), width, 2));
        } else {
            for (int i = 0; i < w.steps().size(); i++) {
                Phase step = w.steps().get(i);
                StepStatus status = w.statuses().get(i);
                lines.add(Styled.line().add("  " + mark(status, g) + " ", style(status)).add(Texts.pad(step.label(), 15),
                        status == StepStatus.PENDING ? Style.DIM : Style.BOLD)
                        .add(step.purposeIn(d), Style.DIM).add(step.writes() ? "  write" : "", Style.WARN).line());
            }
        }
        lines.add(Styled.line().line());
        lines.addAll(gateParts.said());
        int commandsAt = lines.size();
        lines.addAll(waitLines);
        return new Head(lines, gateParts, commandsAt);
    }

    /** What the first write waits for, and the running step's wait as last told. */
    private static List<Line> waitLines(UiState s, Wizard w, Glyphs g, int width) {
        List<Line> lines = new ArrayList<>();
        String waits = waitsFor(s, w);
        if (waits != null) {
            lines.addAll(Styled.wrap(Styled.line().add(" " + g.running() + " ", Style.ACCENT).add(waits, Style.DIM).line(), width, 3));
        }
        if (w.waiting() != null && w.running()) {
            lines.addAll(Styled.wrap(Styled.line().add(" " + g.running() + " ", Style.ACCENT).add(w.waiting().sentence(), Style.DIM).line(),
                    width, 3));
        }
        return lines;
    }

    /**
     * The claim rows the table shows, from the wizard's scroll ({@link Wizard#claimsFrom()}); null when no table is drawn.
     * {@link Update} moves the scroll by it, with the glyphs the diff's scroll also assumes.
     */
    static ClaimWindow claimWindow(UiState s, Glyphs g, int width, int height) {
        Wizard w = s.wizard();
        if (w == null || w.claims().isEmpty() || w.summary() != null && w.status(Phase.RESTART) != StepStatus.RUNNING) {
            return null;
        }
        return window(head(s, w, g, width, height), w, g, width, height);
    }

    private static ClaimWindow window(Head head, Wizard w, Glyphs g, int width, int height) {
        // the table's header, and a line for the gate's commands
        int room = height - head.lines().size() - 1 - (head.gate().commands().isEmpty() ? 0 : 1);
        return ClaimWindow.of(claimRows(w, g, width), room, w.claimsFrom(), width);
    }

    /** What the first write waits for before y may start it: the check's proofs, or the list's (null when nothing). */
    static String waitsFor(UiState s, Wizard w) {
        if (w.status(Phase.CHECK) == StepStatus.RUNNING) {
            return "waiting for the server: permission checks and the dry run of every write (check); y is asked for once they pass";
        }
        Decision listed = s.loaded().decisions().stream().filter(d -> Loaded.key(d).equals(w.key())).findFirst().orElse(null);
        if (w.gate() == Gate.CONFIRM && listed != null && s.loaded().unproved(listed)) {
            return s.loading() ? "waiting for the list's permission checks and dry runs of " + w.key() + "; y is accepted once they are in"
                    : "the list's permission checks and dry runs failed: y is not accepted; Esc, then r reads and proves again";
        }
        return null;
    }

    private static String mark(StepStatus status, Glyphs g) {
        return switch (status) {
            case PENDING -> g.pending();
            case RUNNING -> g.running();
            case DONE -> g.yes();
            case FAILED -> g.no();
        };
    }

    private static Style style(StepStatus status) {
        return switch (status) {
            case PENDING -> Style.DIM;
            case RUNNING -> Style.ACCENT;
            case DONE -> Style.GOOD;
            case FAILED -> Style.BAD;
        };
    }

    /**
     * The title: what is resized, its templates and claims, then its classes with their expansion mark; the classes on a
     * row of their own when the whole does not fit, each class whole with its mark (a ✓ never alone on a row).
     */
    static List<Line> title(Wizard w, Glyphs g, int width) {
        Decision d = w.decision();
        int claims = w.copies() ? d.claimsToCopy().size() : d.claimsToGrow().size();
        String what = "   " + Texts.templates(d, g) + "   " + claims + " claim" + (claims == 1 ? "" : "s") + (w.copies() ? " to copy" : " to grow");
        String classes = Texts.classes(d, g);
        Line whole = Styled.line().add("Resize ", Style.BOLD).add(w.key(), Style.BOLD).add(what + "   " + classes, Style.DIM).line();
        if (whole.width() <= width) {
            return List.of(whole);
        }
        List<Line> out = new ArrayList<>(Styled.wrap(Styled.line().add("Resize ", Style.BOLD).add(w.key(), Style.BOLD).add(what, Style.DIM)
                .line(), width, 2));
        StringBuilder row = new StringBuilder("  ");
        for (String one : classes.split(", ")) {
            if (row.length() > 2 && row.length() + 2 + one.length() > width) {
                out.add(Styled.of(row.toString(), Style.DIM));
                row = new StringBuilder("  ");
            }
            row.append(row.length() > 2 ? ", " : "").append(one);
        }
        out.add(Styled.of(row.toString(), Style.DIM));
        return out;
    }

    /** {@code rows} whole in {@code room} lines, or the first that fit and one line that says how many {@code what}s are not shown. */
    static List<Line> fitted(List<List<Line>> rows, int room, String what, int width) {
        int all = rows.stream().mapToInt(List::size).sum();
        if (all <= room) {
            return rows.stream().flatMap(List::stream).toList();
        }
        List<Line> out = new ArrayList<>();
        int shown = 0;
        for (List<Line> r : rows) {
            if (out.size() + r.size() + note(rows.size() - shown - 1, what, width).size() > room) {
                break;
            }
            out.addAll(r);
            shown++;
        }
        out.addAll(note(rows.size() - shown, what, width));
        return out;
    }

    /** "… 2 more rows of the summary: a taller terminal shows them", wrapped to {@code width}. */
    private static List<Line> note(int hidden, String what, int width) {
        String plural = what.startsWith("row ") ? "rows" + what.substring(3) : what + "s";
        return Styled.wrap(Styled.line().add("  … " + hidden + " more " + (hidden == 1 ? what : plural) + ": a taller terminal shows "
                + (hidden == 1 ? "it" : "them"), Style.WARN).line(), width, 4);
    }

    /** The gate's commands that fit whole in {@code room}, then a line for those left out: a command is never cut. */
    private static List<Line> fittedCommands(List<List<Line>> commands, int room, int width) {
        return commands.isEmpty() ? List.of() : fitted(commands, Math.max(1, room), "command", width);
    }

    private static Line claimHeader(Wizard w) {
        int nameWidth = Math.max(5, w.claims().stream().mapToInt(c -> c.name().length()).max().orElse(5));
        return Styled.of("  " + Texts.pad("CLAIM", nameWidth + 2) + Texts.pad("REQUEST", 9) + Texts.pad("CAPACITY", 10)
                + Texts.pad("TARGET", 8) + "STATE", Style.DIM);
    }

    /** Each claim as last read: request, capacity, target, and what the resizer says (its conditions). */
    static List<Line> claims(Wizard w, Glyphs g, int width) {
        List<Line> out = new ArrayList<>();
        out.add(claimHeader(w));
        claimRows(w, g, width).forEach(out::addAll);
        return out;
    }

    /** Each claim's rows: its line, and its resizer's word while it is on its way. */
    private static List<List<Line>> claimRows(Wizard w, Glyphs g, int width) {
        List<List<Line>> rows = new ArrayList<>();
        int nameWidth = Math.max(5, w.claims().stream().mapToInt(c -> c.name().length()).max().orElse(5));
        // the wait ended on the resizer's failure: a claim still below its target is no longer "resizing"
        boolean waitFailed = w.status(Phase.WAIT) == StepStatus.FAILED;
        for (ClaimProgress c : w.claims()) {
            List<Line> out = new ArrayList<>();
            if (waitFailed && c.state() == ClaimProgress.State.RESIZING) {
                Line l = Styled.line().add("  " + Texts.pad(c.name(), nameWidth + 2) + Texts.pad(or(c.request()), 9)
                        + Texts.pad(or(c.capacity()), 10) + Texts.pad(c.target(), 8)).add(g.no() + " resize failed", Style.BAD).line();
                out.addAll(Styled.wrap(l, width, nameWidth + 4));
                rows.add(out);
                continue;
            }
            Style st = switch (c.state()) {
                case GROWN, COPIED -> Style.GOOD;
                case INFEASIBLE, GONE -> Style.BAD;
                case FILE_SYSTEM_PENDING -> Style.WARN;
                case RESIZING, COPYING, REBINDING -> Style.ACCENT;
                case REQUESTED_LESS, TO_COPY -> Style.DIM;
            };
            String mark = switch (c.state()) {
                case GROWN, COPIED -> g.yes();
                case INFEASIBLE, GONE -> g.no();
                case FILE_SYSTEM_PENDING -> "!";
                case RESIZING, COPYING, REBINDING -> g.running();
                case REQUESTED_LESS, TO_COPY -> g.pending();
            };
            List<String> extra = c.conditions().stream().filter(x -> !(x.equals("FileSystemResizePending")
                    && c.state() == ClaimProgress.State.FILE_SYSTEM_PENDING) && !(x.equals("Resizing") && c.state() == ClaimProgress.State.RESIZING)).toList();
            String conditions = extra.isEmpty() ? "" : " (" + String.join(", ", extra) + ")";
            Line l = Styled.line().add("  " + Texts.pad(c.name(), nameWidth + 2) + Texts.pad(or(c.request()), 9)
                    + Texts.pad(or(c.capacity()), 10) + Texts.pad(c.target(), 8)).add(mark + " " + c.state().label(), st)
                    .add(conditions, Style.DIM).line();
            out.addAll(Styled.wrap(l, width, nameWidth + 4));
            if (!c.latest().isEmpty() && !c.state().equals(ClaimProgress.State.GROWN)) {
                // the resizer's own word, for a claim still on its way: a failure reads as one
                boolean bad = c.latest().contains("Failed") || c.latest().contains("Infeasible") || c.latest().contains("Error");
                out.addAll(Styled.wrap(Styled.line().add("    " + c.latest(), bad ? Style.WARN : Style.DIM).line(), width, 6));
            }
            rows.add(out);
        }
        return rows;
    }

    /** What was verified, from the objects read back: pods with UIDs and owners, claims with capacity, or what is not so. */
    static List<Line> summary(Wizard w, Glyphs g) {
        Summary m = w.summary();
        List<Line> out = new ArrayList<>();
        if (m.converged()) {
            out.add(Styled.line().add(" " + g.yes() + " " + (m.outcome().equals("converged") ? "Converged" : "Claims grown"), Style.GOOD)
                    .add(": verified from the objects read back", Style.DIM).line());
        } else {
            out.add(Styled.line().add(" " + g.no() + " Not converged", Style.BAD).add(": " + m.outcome()
                    + (m.reason().isEmpty() ? "" : " (" + m.reason() + ")"), Style.BAD).line());
            out.add(Styled.line().add("   " + m.detail(), Style.WARN).line());
        }
        if (m.converged() && w.copies() && !m.detail().isEmpty()) {
            // the run's own words: the downtime of each pod, the old volumes kept and the command that frees them
            out.add(Styled.line().add("   " + m.detail(), Style.NORMAL).line());
        }
        if (m.converged() && m.spaceUsable() != null) {
            out.add(m.spaceUsable() ? Styled.line().add("   The pods can write to the new space now", Style.GOOD).add(": every file system"
                    + " grown", Style.DIM).line()
                    : Styled.line().add("   The pods cannot use all of the new space yet", Style.WARN).add(": see each claim's file system",
                            Style.DIM).line());
        }
        if (!m.newUid().isEmpty() && !m.oldUid().isEmpty() && !m.newUid().equals(m.oldUid())) {
            out.add(Styled.line().add("   StatefulSet UID ", Style.DIM).add(shortUid(m.oldUid())).add(" " + g.arrow() + " ", Style.DIM)
                    .add(shortUid(m.newUid()), Style.BOLD).add(" (re-created)", Style.DIM).line());
        }
        for (Summary.PodCheck p : m.pods()) {
            boolean same = p.sameUid();
            boolean owned = m.ownedByNew(p);
            boolean ok = (same || p.restarted() && !p.uidAfter().isEmpty()) && owned;
            String uid = same ? "UID " + shortUid(p.uidBefore()) + " unchanged"
                    : w.copies() && p.restarted() && !p.uidAfter().isEmpty() ? "re-created on its new volumes (UID " + shortUid(p.uidAfter()) + ")"
                    : p.restarted() && !p.uidAfter().isEmpty() ? "restarted for its file system (UID " + shortUid(p.uidBefore()) + " " + g.arrow()
                            + " " + shortUid(p.uidAfter()) + ")"
                    : "UID " + shortUid(p.uidBefore()) + " " + g.arrow() + " " + (p.uidAfter().isEmpty() ? "gone" : shortUid(p.uidAfter()));
            out.add(Styled.line().add("   " + (ok ? g.yes() : g.no()) + " ", ok ? Style.GOOD : Style.BAD)
                    .add("pod " + p.name(), Style.BOLD)
                    .add("  " + uid, same || p.restarted() ? Style.NORMAL : Style.BAD)
                    .add("  owner " + (owned ? "the new StatefulSet" : p.owner().isEmpty() ? "none" : shortUid(p.owner())), owned ? Style.NORMAL : Style.BAD)
                    .line());
        }
        for (Summary.ClaimCheck c : m.claims()) {
            Style st = c.atTarget() ? Style.GOOD : c.fileSystemPending() ? Style.WARN : Style.BAD;
            out.add(Styled.line().add("   " + (c.atTarget() ? g.yes() : "!") + " ", st).add("claim " + c.name(), Style.BOLD)
                    .add("  " + (c.from().isEmpty() ? "?" : c.from()) + " " + g.arrow() + " " + c.to() + "  capacity " + or(c.capacity()), Style.NORMAL)
                    .add(fileSystem(c), c.fileSystem().equals("grown") ? Style.DIM : Style.WARN).line());
        }
        if (w.restartOffered()) {
            out.add(Styled.line().add(" " + g.running() + " ", Style.WARN).add("p", Style.ACCENT)
                    .add(" restarts those pods one at a time by eviction (PodDisruptionBudgets hold, each Ready before the next);"
                            + " Esc leaves them: the file system grows at their next restart", Style.DIM).line());
        }
        for (String warning : m.warnings()) {
            out.add(Styled.line().add("   ! ", Style.WARN).add(warning, Style.DIM).line());
        }
        return out;
    }

    /** The claim's file system in the summary's words: as the run followed it, else as the claim reads now. */
    private static String fileSystem(Summary.ClaimCheck c) {
        return switch (c.fileSystem()) {
            case "grown" -> "  file system grown";
            case "waits-for-restart" -> "  file system waits for a restart" + (c.pod().isEmpty() ? "" : " of pod " + c.pod());
            case "pending" -> "  file system still growing (the kubelet)";
            case "no-pod" -> "  file system grows when a pod mounts it";
            default -> c.fileSystemPending() ? "  file system waits" + (c.pod().isEmpty() ? " (no pod mounts it)" : " for pod " + c.pod()) : "";
        };
    }

    static String shortUid(String uid) {
        return uid.length() > 8 ? uid.substring(0, 8) : uid.isEmpty() ? "-" : uid;
    }

    private static String or(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }

    /** What the wizard says at its gate, and each command it shows, laid out to be copied ({@link CopyableLines}). */
    record GateLines(List<Line> said, List<List<Line>> commands) {
        List<Line> all() {
            List<Line> out = new ArrayList<>(said);
            commands.forEach(out::addAll);
            return out;
        }
    }

    /**
     * A copy's gates, as {@code apply --copy} asks them: the first says what the copy does (y takes the Lease and sets the
     * volumes to Retain, nothing else); the name gate states the downtime ({@link CopyDowntime}) before the StatefulSet's
     * name is typed, the one allowance for every orphan delete of the copy.
     */
    private static void copyGate(Wizard w, Glyphs g, Optional<StatefulSetUsage> usage, Consumer<Line> say, Consumer<String> command) {
        Decision d = w.decision();
        int n = d.claimsToCopy().size();
        String target = n == 0 ? "" : " of " + d.claimsToCopy().get(0).target();
        if (w.gate() == Gate.CONFIRM) {
            say.accept(Styled.line().add(" " + g.running() + " ", Style.WARN).add("Copy " + n + " claim" + (n == 1 ? "" : "s") + " of " + w.key()
                    + " to bigger volumes" + target + ", one pod at a time?", Style.BOLD).add("  y sets their volumes to Retain (nothing else"
                    + " yet), n or Esc leaves (nothing is written until y)", Style.DIM).line());
            return;
        }
        say.accept(Styled.line().add(" " + g.running() + " ", Style.WARN).add("Type the StatefulSet's name to start the copy: ", Style.BOLD)
                .add(w.typed(), Style.ACCENT).add("_", Style.ACCENT).line());
        CopyDowntime.paragraph(d, usage).ifPresent(p -> say.accept(Styled.line().add("   " + p.substring(0, 1).toUpperCase(java.util.Locale.ROOT)
                + p.substring(1) + ".", Style.WARN).line()));
        say.accept(Styled.line().add("   It is orphan-deleted and re-applied around each pod; each claim is re-created under its name on a new"
                + " volume; no PersistentVolume is deleted. Esc leaves now, nothing deleted.", Style.DIM).line());
        command.accept(new Write.OrphanDelete(d.namespace(), d.name(), w.uid()).command());
    }

    /** What the copy does now, as the machine last said it in the copy's row ("pod web-1 is down: …"), if it has. */
    private static Optional<String> copyNow(Wizard w) {
        for (int i = w.log().size() - 1; i >= 0; i--) {
            LogLine l = w.log().get(i);
            if (l.step() == Phase.COPY && !l.warning() && l.kubectl().isEmpty() && (l.message().startsWith("pod ")
                    || l.message().startsWith("the claims of pod "))) {
                return Optional.of(l.message());
            }
        }
        return Optional.empty();
    }

    /** What the wizard asks or says now, wrapped to {@code width}; its commands laid out to be copied ({@link CopyableLines}). */
    private static GateLines gateOrOutcome(Wizard w, Glyphs g, int width, Optional<StatefulSetUsage> usage) {
        Decision d = w.decision();
        List<Line> out = new ArrayList<>();
        List<List<Line>> commands = new ArrayList<>();
        Consumer<Line> say = l -> out.addAll(Styled.wrap(l, width, 7));
        Consumer<String> command = c -> commands.add(CopyableLines.command(Styled.line().add("     $ ", Style.DIM).line(), c,
                Style.ACCENT, width, 9));
        if (w.copies() && w.gate() != Gate.NONE) {
            copyGate(w, g, usage, say, command);
            return new GateLines(out, commands);
        }
        switch (w.gate()) {
            case CONFIRM -> {
                String target = d.claimsToGrow().isEmpty() ? "" : " to " + d.claimsToGrow().get(0).target();
                say.accept(Styled.line().add(" " + g.running() + " ", Style.WARN).add("Grow " + d.claimsToGrow().size() + " claim"
                        + (d.claimsToGrow().size() == 1 ? "" : "s") + " of " + w.key() + target + "?", Style.BOLD)
                        .add("  y grows, n or Esc leaves (nothing is written until y)", Style.DIM).line());
                for (dev.stsresize.plan.ClaimState c : d.claimsToGrow()) {
                    command.accept(Write.ClaimPatch.of(d.namespace(), c).command());
                }
            }
            case TYPE_NAME -> {
                say.accept(Styled.line().add(" " + g.running() + " ", Style.WARN).add("Type the StatefulSet's name to orphan-delete it: ", Style.BOLD)
                        .add(w.typed(), Style.ACCENT).add("_", Style.ACCENT).line());
                say.accept(Styled.line().add("   its pods and claims stay; the re-apply follows at once. Esc leaves now, claims grown, StatefulSet untouched.",
                        Style.DIM).line());
                command.accept(new Write.OrphanDelete(d.namespace(), d.name(), w.uid()).command());
            }
            case NONE -> {
                if (w.status(Phase.RESTART) == StepStatus.RUNNING) {
                    say.accept(Styled.line().add(" " + g.running() + " ", Style.ACCENT).add("Restarting the pods one at a time by eviction", Style.BOLD)
                            .add("  each Ready again, its claim at capacity, before the next", Style.DIM).line());
                } else if (w.summary() != null) {
                    // the summary says it, from the objects
                } else if (w.finished()) {
                    say.accept(Styled.line().add(" " + g.yes() + " Converged and verified. ", Style.GOOD).add("Esc returns to the list (refreshed).", Style.DIM).line());
                } else if (w.copies() && w.status(Phase.COPY) == StepStatus.RUNNING) {
                    say.accept(Styled.line().add(" " + g.running() + " ", Style.ACCENT).add("Copying one pod at a time", Style.BOLD)
                            .add("  each pod down from its eviction until it is Ready on its new volumes; q stops at the next safe point",
                                    Style.DIM).line());
                    copyNow(w).ifPresent(now -> say.accept(Styled.line().add("   " + now, Style.NORMAL).line()));
                } else if (w.status(Phase.WAIT) == StepStatus.RUNNING) {
                    say.accept(Styled.line().add(" " + g.running() + " ", Style.ACCENT).add(w.goingOn() ? "Going on without waiting for capacity"
                            : "Waiting for each claim's capacity to reach the target", Style.BOLD)
                            .add(w.goingOn() ? "" : "  c goes on now (the recreate needs only the grown requests); Esc leaves, nothing deleted",
                                    Style.DIM).line());
                } else if (w.failed()) {
                    say.accept(Styled.line().add(" " + g.no() + " Stopped: a step failed (see the log). ", Style.BAD)
                            .add(w.statefulSetAbsent() ? "The StatefulSet is absent: " + Update.resumeCommand(d) : "Nothing irreversible happened; "
                                    + (w.revertOffered() ? "v gives the requests back, " : "") + "Esc leaves.",
                                    w.statefulSetAbsent() ? Style.WARN : Style.DIM).line());
                }
            }
        }
        return new GateLines(out, commands);
    }
}
