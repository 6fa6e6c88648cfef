package dev.stsresize.tui.source;

import dev.stsresize.converge.Assessed;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.Texts;

/**
 * The wizard's CHECK: the StatefulSet assessed again just before its first write, held against what the
 * operator was shown in the list. A run starts only when it would make exactly the writes shown, to the
 * StatefulSet with the UID shown; anything else is a refresh, with nothing written.
 */
final class Recheck {
    private Recheck() {}

    /**
     * Why the run must not start, in one sentence with its fix; "" when it may.
     *
     * @param shown the decision the list showed
     * @param shownUid the UID the list showed ("" when the list knew none)
     * @param now the assessment made now
     */
    static String problem(Decision shown, String shownUid, Assessed now) {
        String key = Loaded.key(shown);
        Decision d = now.decision();
        if (now.failure() != null) {
            return now.failure();
        }
        if (!d.verdict().hasWork()) {
            return "re-read, " + key + " is " + Texts.verdict(d) + " now: " + d.detail() + ". Nothing was written";
        }
        String liveUid = ReadBack.uid(now.live());
        if (!shownUid.isEmpty() && !shownUid.equals(liveUid)) {
            return "StatefulSet " + key + " was re-created since the list was read (UID " + shownUid + " is now " + liveUid
                    + "): nothing was written; leave and refresh (r)";
        }
        if ((d.verdict() == Verdict.COPY) != (shown.verdict() == Verdict.COPY)) {
            // a copy is never started from a row shown as a growth in place, nor the reverse: other writes, other downtime
            return "re-read, " + key + " is " + Texts.verdict(d) + " now, not " + Texts.verdict(shown) + " as the list shows: nothing"
                    + " was written; leave and refresh (r)";
        }
        if (d.recreate() != shown.recreate() || d.claimsToGrow().size() != shown.claimsToGrow().size()
                || d.claimsToCopy().size() != shown.claimsToCopy().size()) {
            return "re-read, " + key + " needs other writes than the list shows (" + Texts.verdict(d) + ", "
                    + d.claimsToGrow().size() + " claim(s) to grow): nothing was written; leave and refresh (r)";
        }
        return "";
    }
}
