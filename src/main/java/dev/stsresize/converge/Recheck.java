package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.Locale;

/**
 * A run started from what an operator was shown (the UI's list): the StatefulSet assessed again just before its first
 * write and held against the decision shown. A run starts only when it would make exactly the writes shown, to the
 * StatefulSet with the UID shown; anything else is a refresh, with nothing written.
 */
public final class Recheck {
    /** The assessment made now, and why the run must not start ("" when it may). */
    public record Checked(Assessed assessed, boolean leases, String problem) {
        public boolean proceeds() {
            return problem.isEmpty();
        }

        /** The StatefulSet's UID as assessed now: the one its orphan delete may delete. */
        public String uid() {
            return assessed.live() == null ? "" : Objects.uid(assessed.live());
        }

        /** What was re-read and proved, in one sentence, for a check that lets the run start. */
        public String accepted(ConvergeOptions options) {
            Decision d = assessed.decision();
            if (d.verdict() == Verdict.COPY) {
                return "re-read: " + d.claimsToCopy().size() + " claim(s) to copy to bigger volumes, one pod at a time, with the copy"
                        + " image " + options.copy().image() + "; every permission and dry run accepted";
            }
            return "re-read: " + d.claimsToGrow().size() + " claim(s) to grow" + (d.recreate() ? ", then the orphan delete of UID "
                    + uid() + " and the re-apply" : "") + "; every permission and dry run accepted";
        }
    }

    private Recheck() {}

    /**
     * The run's options for the decision shown: a copy plan is run with the operator's opt-in, {@code --copy}'s when
     * given, else the one the list's C gave that row (the default image, each claim's own class); any other decision
     * without it, so that a row the operator did not choose to copy is never decided into a copy here.
     */
    public static ConvergeOptions optionsFor(Decision shown, ConvergeOptions options) {
        if (shown.verdict() != Verdict.COPY) {
            return options.withCopy(CopyOptIn.NONE);
        }
        return options.copy().chosen() ? options : options.withCopy(CopyOptIn.withDefaults());
    }

    /**
     * The StatefulSet assessed again at apply depth (its notes reported as warnings), held against what was shown.
     *
     * @param declared the manifest's object for the decision shown
     * @param shownUid the UID the list showed ("" when it knew none)
     */
    public static Checked again(Cluster cluster, ObjectNode declared, Decision shown, String shownUid, ConvergeOptions options,
            Progress progress) {
        Assessment a = new Assessor(cluster, progress).copying(options.copy()).assess(List.of(declared), false, Assessor.Depth.APPLY,
                false, options.fieldManager());
        Assessed assessed = a.items().get(0);
        a.notes().forEach(n -> progress.on(ProgressEvent.warn(shown.namespace(), shown.name(), Phase.CHECK, n)));
        return new Checked(assessed, !a.namespacesWithoutLeases().contains(assessed.namespace()), problem(shown, shownUid, assessed));
    }

    /**
     * Why the run must not start, in one sentence with its fix; "" when it may.
     *
     * @param shown the decision the list showed
     * @param shownUid the UID the list showed ("" when the list knew none)
     * @param now the assessment made now
     */
    static String problem(Decision shown, String shownUid, Assessed now) {
        String key = Metadata.key(shown.namespace(), shown.name());
        Decision d = now.decision();
        if (now.failure() != null) {
            return now.failure();
        }
        if (!d.verdict().hasWork()) {
            return "re-read, " + key + " is " + verdict(d) + " now: " + d.detail() + ". Nothing was written";
        }
        String liveUid = now.live() == null ? "" : Objects.uid(now.live());
        if (!shownUid.isEmpty() && !shownUid.equals(liveUid)) {
            return "StatefulSet " + key + " was re-created since the list was read (UID " + shownUid + " is now " + liveUid
                    + "): nothing was written; leave and refresh (r)";
        }
        if ((d.verdict() == Verdict.COPY) != (shown.verdict() == Verdict.COPY)) {
            // a copy is never started from a row shown as a growth in place, nor the reverse: other writes, other downtime
            return "re-read, " + key + " is " + verdict(d) + " now, not " + verdict(shown) + " as the list shows: nothing"
                    + " was written; leave and refresh (r)";
        }
        if (d.recreate() != shown.recreate() || d.claimsToGrow().size() != shown.claimsToGrow().size()
                || d.claimsToCopy().size() != shown.claimsToCopy().size()) {
            return "re-read, " + key + " needs other writes than the list shows (" + verdict(d) + ", "
                    + d.claimsToGrow().size() + " claim(s) to grow): nothing was written; leave and refresh (r)";
        }
        return "";
    }

    /** The verdict as the list shows it: GROW, GROW CLAIMS, REFUSED: reason, … (tui.Texts.verdict, which the list draws). */
    private static String verdict(Decision d) {
        String word = d.verdict().label().toUpperCase(Locale.ROOT).replace('-', ' ');
        return d instanceof Refusal r ? word + ": " + r.reason().label() : word;
    }
}
