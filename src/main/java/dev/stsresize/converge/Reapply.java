package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import java.util.Optional;

/**
 * Step 7: re-applies the recorded object by server-side apply, dry run first; if either fails,
 * restores the backup (the live object as it was, server fields stripped) so that the pods are never
 * left without an owner, and says so.
 */
record Reapply(Cluster cluster, Events events, Progress progress, Checkpoint checkpoint) {
    /** The StatefulSet standing now (null when neither apply nor restore worked), and what went wrong ("" when nothing). */
    record Result(ObjectNode statefulSet, boolean restored, String message) {}

    /**
     * @param phase records the phase: sent beside the dry run, and answered before the re-apply or the
     *     restore writes anything (its failure ends the run there, as a crash does)
     */
    Result run(Record r, Runnable phase) {
        return run(r, prove(r, phase));
    }

    /** The dry run's answer: passed ({@code refused} null), or refused with the server's error. */
    record Proved(ClusterException refused) {}

    /**
     * The phase recorded beside the re-apply's dry run, both answered before anything else: what
     * {@link #run(Record, Proved)} needs before it writes. A phase not recorded is thrown as it is (no
     * failed re-apply: nothing is restored).
     */
    Proved prove(Record r, Runnable phase) {
        java.util.concurrent.Future<Object> recorded = Together.start(() -> {
            phase.run();
            return null;
        });
        ClusterException dryRunRefused = null;
        try {
            cluster.applyStatefulSet(r.reapply(), r.fieldManager(), true, true);
        } catch (ClusterException e) {
            dryRunRefused = e;
        } finally {
            Together.join(recorded);
        }
        return new Proved(dryRunRefused);
    }

    /** The re-apply after its dry run ({@link #prove}, with the phase recorded): the backup restored if either failed. */
    Result run(Record r, Proved proved) {
        String ns = r.namespace();
        String name = r.name();
        try {
            if (proved.refused() != null) {
                throw proved.refused();
            }
            ObjectNode applied = cluster.applyStatefulSet(r.reapply(), r.fieldManager(), true, false);
            progress.on(ProgressEvent.write(ns, name, Phase.REAPPLY, "StatefulSet " + name + " re-applied (new UID "
                    + Objects.uid(applied) + ", field manager " + r.fieldManager() + ")",
                    new Write.Apply(ns, name, r.fieldManager())));
            events.later(applied, "Reapplied", "Apply", "StatefulSet re-created with grown claim templates; its pods are adopted,"
                    + " not restarted (previous UID " + r.uid() + ")");
            checkpoint.afterWrite("re-apply statefulset " + name);
            return new Result(applied, false, "");
        } catch (ClusterException e) {
            String why = e.getMessage();
            progress.on(ProgressEvent.warn(ns, name, Phase.REAPPLY, "the re-apply failed: " + why + "; restoring the backup"));
            return restore(r, why);
        }
    }

    private Result restore(Record r, String why) {
        String ns = r.namespace();
        String name = r.name();
        ObjectNode backup = Objects.creatable(r.live());
        try {
            ObjectNode created = cluster.createStatefulSet(backup, false);
            progress.on(ProgressEvent.write(ns, name, Phase.REAPPLY, "backup restored: StatefulSet " + name + " re-created as it"
                    + " was (UID " + Objects.uid(created) + "), its pods are adopted by it", new Write.Create(ns, name)));
            events.later(created, "BackupRestored", "Create", "the re-apply failed (" + why + "); the StatefulSet was restored"
                    + " from the backup taken before the orphan delete");
            checkpoint.afterWrite("restore statefulset " + name);
            return new Result(created, true, "the re-apply of StatefulSet " + ns + "/" + name + " failed: " + why
                    + "; the backup was restored, so the pods have their owner again, with the OLD claim templates."
                    + " The claims keep their grown size; fix the manifest, then run again");
        } catch (ClusterException e) {
            if (e.code() == 409) {
                Optional<ObjectNode> there = cluster.getStatefulSet(ns, name);
                return new Result(there.orElse(null), false, "the re-apply of StatefulSet " + ns + "/" + name + " failed: " + why
                        + "; a StatefulSet of that name already exists again (UID " + there.map(Objects::uid).orElse("?")
                        + "), created by someone else: check it owns the pods");
            }
            return new Result(null, false, "the re-apply of StatefulSet " + ns + "/" + name + " failed (" + why
                    + ") AND restoring the backup failed (" + e.getMessage() + "): the pods have NO owner now."
                    + " Run `kubectl stsresize resume` to try again, or create the backup kept in the journal");
        }
    }
}
