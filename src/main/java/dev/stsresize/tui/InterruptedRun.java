package dev.stsresize.tui;

import dev.stsresize.plan.Metadata;

/**
 * A run of a StatefulSet of the manifest that stopped before it finished, from the local journal or
 * its Lease: what the start of the UI offers to resume.
 *
 * @param phase the phase it reached (growing, deleting, reapplying, verifying)
 * @param holder who ran it ("user@host pid")
 * @param absent the StatefulSet is absent now (deleted, not re-applied): its pods have no owner
 */
public record InterruptedRun(String namespace, String name, String phase, String holder, String startedAt, boolean absent) {
    public String key() {
        return Metadata.key(namespace, name);
    }

    /** The orphan delete was allowed before the run stopped: resuming may finish it without asking again. */
    public boolean pastTheDeleteGate() {
        return phase.equals("deleting") || phase.equals("reapplying") || phase.equals("verifying");
    }
}
