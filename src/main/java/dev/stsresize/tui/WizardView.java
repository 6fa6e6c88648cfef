package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Style;
import dev.stsresize.tui.Wizard.LogLine;
import java.util.ArrayList;
import java.util.List;

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
        Decision d = w.decision();
        List<Line> lines = new ArrayList<>();
        lines.add(Styled.line().add("Resize ", Style.BOLD).add(w.key(), Style.BOLD).add("   " + Texts.templates(d, g) + "   "
                + d.claimsToGrow().size() + " claim" + (d.claimsToGrow().size() == 1 ? "" : "s") + " to grow   " + Texts.classes(d, g), Style.DIM).line());
        lines.add(Styled.line().line());
        for (int i = 0; i < w.steps().size(); i++) {
            WizardStep step = w.steps().get(i);
            StepStatus status = w.statuses().get(i);
            String mark = switch (status) {
                case PENDING -> g.pending();
                case RUNNING -> g.running();
                case DONE -> g.yes();
                case FAILED -> g.no();
            };
            Style style = switch (status) {
                case PENDING -> Style.DIM;
                case RUNNING -> Style.ACCENT;
                case DONE -> Style.GOOD;
                case FAILED -> Style.BAD;
            };
            lines.add(Styled.line().add("  " + mark + " ", style).add(Texts.pad(step.label(), 15), status == StepStatus.PENDING ? Style.DIM : Style.BOLD)
                    .add(step.purpose(), Style.DIM).add(step.write() ? "  write" : "", Style.WARN).line());
        }
        lines.add(Styled.line().line());
        for (Line l : gateOrOutcome(w, g)) {
            lines.addAll(Styled.wrap(l, width, 7));
        }
        // the newest entries that fit whole: an entry cut in half would show a command without its step
        int room = height - lines.size() - 1;
        List<List<Line>> entries = new ArrayList<>();
        for (LogLine l : w.log()) {
            List<Line> entry = new ArrayList<>(Styled.wrap(Styled.line().add(Texts.pad(l.step().label(), 15), Style.DIM)
                    .add(l.message(), l.warning() ? Style.WARN : Style.NORMAL).line(), width, 15));
            if (!l.kubectl().isEmpty()) {
                entry.addAll(Styled.wrap(Styled.line().add(" ".repeat(15) + "$ ", Style.DIM).add(l.kubectl(), Style.ACCENT).line(), width, 17));
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

    private static List<Line> gateOrOutcome(Wizard w, Glyphs g) {
        Decision d = w.decision();
        List<Line> out = new ArrayList<>();
        switch (w.gate()) {
            case CONFIRM -> {
                String target = d.claimsToGrow().isEmpty() ? "" : " to " + d.claimsToGrow().get(0).target();
                out.add(Styled.line().add(" " + g.running() + " ", Style.WARN).add("Grow " + d.claimsToGrow().size() + " claim"
                        + (d.claimsToGrow().size() == 1 ? "" : "s") + " of " + w.key() + target + "?", Style.BOLD)
                        .add("  y grows, n or Esc leaves (nothing is written until y)", Style.DIM).line());
                for (dev.stsresize.plan.ClaimState c : d.claimsToGrow()) {
                    out.add(Styled.line().add("     $ ", Style.DIM).add(WriteCommands.growClaim(d.namespace(), c), Style.ACCENT).line());
                }
            }
            case TYPE_NAME -> {
                out.add(Styled.line().add(" " + g.running() + " ", Style.WARN).add("Type the StatefulSet's name to orphan-delete it: ", Style.BOLD)
                        .add(w.typed(), Style.ACCENT).add("_", Style.ACCENT).line());
                out.add(Styled.line().add("   its pods and claims stay; the re-apply follows at once. Esc leaves now, claims grown, StatefulSet untouched.",
                        Style.DIM).line());
                out.add(Styled.line().add("     $ ", Style.DIM).add(WriteCommands.orphanDelete(d.namespace(), d.name()), Style.ACCENT).line());
            }
            case NONE -> {
                if (w.finished()) {
                    out.add(Styled.line().add(" " + g.yes() + " Converged and verified. ", Style.GOOD).add("Esc returns to the list (refreshed).", Style.DIM).line());
                } else if (w.failed()) {
                    out.add(Styled.line().add(" " + g.no() + " Stopped: a step failed (see the log). ", Style.BAD)
                            .add(w.statefulSetAbsent() ? "The StatefulSet is absent: " + Update.resumeCommand(d) : "Nothing irreversible happened; Esc leaves.",
                                    w.statefulSetAbsent() ? Style.WARN : Style.DIM).line());
                }
            }
        }
        return out;
    }
}
