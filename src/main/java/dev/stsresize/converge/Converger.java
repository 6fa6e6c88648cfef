package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the {@link Steps} of one StatefulSet in order, for the CLI ({@code apply}, {@code resume}):
 * check, lock and record, grow, wait, orphan-delete, re-apply (or restore), verify, restart pods if
 * asked, release (docs/design.md steps 4–9). Every write is read back before the next step; every step
 * is idempotent, and a run stopped anywhere is finished by {@link #resume} from its record (claims
 * already grown skipped; an absent StatefulSet goes straight to the re-apply of the recorded object).
 *
 * <p>UI-agnostic: progress out through {@link Progress}, human decisions in through {@link Gate}.
 */
public final class Converger {
    private final Cluster cluster;
    private final Gate gate;
    private final Steps steps;

    /**
     * @param operator "user@host pid": the Lease holder and the name the Events give
     * @param server the API server URL, kept in the journal so that resume finds the runs of this cluster
     */
    public Converger(Cluster cluster, Clock clock, Journal journal, String operator, String server, Gate gate,
            Progress progress, Checkpoint checkpoint) {
        this.cluster = cluster;
        this.gate = gate;
        this.steps = new Steps(cluster, clock, journal, operator, server, progress, checkpoint);
    }

    public StatefulSetResult converge(Assessed a, ConvergeOptions opts, boolean leases) {
        Steps.Checked checked = steps.check(a, opts, leases);
        if (!checked.proceeds()) {
            return checked.stop();
        }
        var d = a.decision();
        if (!gate.allowGrow(d)) {
            return Steps.result(d.namespace(), d.name(), Outcome.FAILED, "declined", "the operator declined; nothing was written", d);
        }
        Steps.Acquired lock = steps.lock(checked, opts, leases);
        if (!lock.held()) {
            return Steps.notLocked(lock, d);
        }
        try (Steps.Run run = lock.run()) {
            return run(run, opts, From.GROW);
        }
    }

    /**
     * Finishes a stopped run. The record only says where it stopped: it is checked again here (see
     * {@link RunRecords}) and left alone when it cannot be trusted. What is re-applied is built from
     * {@code declared}, the operator's manifest, as a normal run builds it (the live replicas and
     * partition kept) for the claims the manifest's templates name; only without a manifest ({@code
     * resume} after the operator saw and confirmed it) is the recorded object re-applied.
     *
     * @param declared the StatefulSet as the operator's manifest declares it, or null
     */
    public StatefulSetResult resume(PendingRun run, ObjectNode declared, ConvergeOptions opts, boolean leases) {
        String ns = run.namespace();
        String name = run.name();
        Optional<ObjectNode> standing = cluster.getStatefulSet(ns, name);
        PendingRun checked = run.record() == null || !run.problem().isEmpty() ? run : run.withProblem(RunRecords.problem(run, standing));
        if (!checked.trusted()) {
            return new StatefulSetResult(ns, name, Outcome.BLOCKED, "untrusted-record", checked.leftAlone(), List.of(), List.of(), List.of());
        }
        Record recorded = run.record();
        Record r = recorded.withHolder(steps.operator());
        if (declared != null) {
            if (!Objects.key(declared).equals(Metadata.key(ns, name))) {
                throw new IllegalArgumentException("the manifest's " + Objects.key(declared) + " is not " + ns + "/" + name);
            }
            r = r.withReapply(r.reapply() == null ? null : ReapplyObject.of(declared, standing.orElse(r.live())),
                    ManifestClaims.targets(declared, r.claimTargets()));
        }
        String tooLarge = leases ? RecordSecret.whyTooLarge(r) : null;
        if (tooLarge != null) {
            return new StatefulSetResult(ns, name, Outcome.FAILED, "record-too-large", tooLarge, List.of(), List.of(), List.of());
        }
        Steps.Acquired lock = steps.relock(r, recorded, opts, leases);
        if (!lock.held()) {
            return new StatefulSetResult(ns, name, lock.reason().equals("locked") ? Outcome.BLOCKED : Outcome.FAILED, lock.reason(),
                    lock.message(), List.of(), List.of(), List.of());
        }
        try (Steps.Run held = lock.run()) {
            if (r.reapply() == null) {
                return run(held, opts, From.GROW);
            }
            Optional<ObjectNode> now = standing;
            if (now.isEmpty()) {
                steps.progress().on(ProgressEvent.info(ns, name, Step.REAPPLY, "StatefulSet " + name
                        + " is absent: straight to the re-apply of the recorded object"));
                return run(held, opts, From.REAPPLY);
            }
            if (r.uid().equals(Objects.uid(now.get()))) {
                return run(held, opts, From.GROW);
            }
            steps.progress().on(ProgressEvent.info(ns, name, Step.VERIFY, "StatefulSet " + name + " already re-created (UID "
                    + Objects.uid(now.get()) + "): verifying adoption"));
            return run(held, opts, From.VERIFY);
        }
    }

    private enum From { GROW, REAPPLY, VERIFY }

    /** The steps in order from {@code from}; the run is released wherever it ends with nothing left to finish. */
    private StatefulSetResult run(Steps.Run run, ConvergeOptions opts, From from) {
        String ns = run.namespace();
        String name = run.name();
        if (from == From.GROW) {
            steps.grow(run);
            if (opts.waitForResize()) {
                Steps.Waited w = steps.await(run, opts);
                if (!w.infeasible().isEmpty()) {
                    steps.release(run);
                    return steps.result(run, Outcome.FAILED, "resize-infeasible", "the resize cannot happen: "
                            + String.join("; ", w.infeasible()) + ". Nothing was deleted; the claims' requests stay raised (the"
                            + " StatefulSet is untouched): ask the storage admin, or lower the request back above its capacity", List.of());
                }
                if (!w.waiting().isEmpty()) {
                    steps.release(run);
                    return steps.result(run, Outcome.FAILED, "resize-timeout", "--timeout " + dev.stsresize.cluster.KubectlDuration.format(opts.timeout()) + " ran out before the"
                            + " claims grew: " + String.join("; ", w.waiting()) + ". Nothing was deleted; the requests are raised and"
                            + " the resizer keeps working: run again later to finish", List.of());
                }
            }
            if (!run.recreates()) {
                return steps.claimsGrown(run);
            }
            if (!gate.allowOrphanDelete(ns, name)) {
                return steps.declined(run);
            }
            Steps.Deleted del = steps.orphanDelete(run, new Steps.DeleteAllowed(ns, name, run.record().uid()));
            if (!del.gone()) {
                return steps.deleteFailed(run, del);
            }
        } else if (from == From.REAPPLY) {
            // the StatefulSet is absent: whoever deleted it, the claims are grown (requests only; a
            // re-read skips those already grown) before the object with grown templates is re-applied
            steps.growClaims(run);
            steps.readDependents(run);
        }
        if (from != From.VERIFY) {
            Steps.Reapplied ra = steps.reapply(run);
            if (ra.statefulSet() == null) {
                return steps.reapplyFailed(run, ra);
            }
        }
        Steps.Verified v = steps.verify(run);
        boolean restart = v.adopted() && !run.restored() && opts.restartPodsForResize();
        return steps.verified(run, v, restart ? steps.restartPods(run) : List.of());
    }

    /**
     * Restarts, one at a time through the Eviction API, the pods whose claims wait for a file system
     * resize, for a converge that finished without {@code restartPodsForResize}: see
     * {@link Steps#restartPodsForResize}.
     */
    public String restartPodsForResize(String ns, String name, Map<String, String> claimTargets, ConvergeOptions opts) {
        return steps.restartPodsForResize(ns, name, claimTargets, opts);
    }

    /**
     * The result as the objects are now: each claim re-read, its capacity as it is and its
     * file-system-resize warning only while the claim still says so. A run's warnings are told at
     * the end of the whole command, and meanwhile the kubelet may well have finished an online
     * expansion: nothing is said from a read that is no longer true. A result whose converge
     * touched no claim (refused, blocked, nothing to do) is answered as it is.
     */
    public StatefulSetResult reread(StatefulSetResult r) {
        boolean touched = r.outcome() == Outcome.CONVERGED || r.outcome() == Outcome.CLAIMS_GROWN
                || r.warnings().stream().anyMatch(w -> w.startsWith("claim ")
                        && (w.contains(" waits for a file system resize") || w.contains(" has not grown yet")));
        if (!touched || r.claims().isEmpty()) {
            return r;
        }
        List<StatefulSetResult.ClaimResult> claims = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (String w : r.warnings()) {
            if (r.claims().stream().noneMatch(c -> w.startsWith(ClaimWarnings.FS_PENDING_PREFIX.formatted(c.name()))
                    || w.startsWith(ClaimWarnings.NOT_GROWN_PREFIX.formatted(c.name())))) {
                warnings.add(w);
            }
        }
        for (StatefulSetResult.ClaimResult c : r.claims()) {
            Optional<ObjectNode> now = cluster.getClaim(r.namespace(), c.name());
            String capacity = now.map(x -> Metadata.textOrEmpty(x, "status", "capacity", "storage")).orElse("");
            claims.add(new StatefulSetResult.ClaimResult(c.name(), c.from(), c.to(), capacity));
            Quantity target = Quantity.parseOrNull(c.to());
            if (now.isPresent() && target != null) {
                ClaimWarnings.of(cluster, r.namespace(), r.name(), now.get(), target).ifPresent(warnings::add);
            }
        }
        return new StatefulSetResult(r.namespace(), r.name(), r.outcome(), r.reason(), r.detail(), claims, r.pods(), warnings);
    }

}
