package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import java.time.Clock;
import dev.stsresize.plan.Decision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Drives one {@link Convergence} per StatefulSet to its end, for the CLI ({@code apply}, {@code resume}):
 * check, lock and record, grow, wait, orphan-delete, re-apply (or restore), verify, restart pods if
 * asked, release (docs/design.md steps 4–9), each gate answered by the {@link GateAnswers} as the machine
 * reaches it. A run stopped anywhere is finished by {@link #resume}: the same machine, from where its
 * record and the cluster say it stands (claims already grown skipped; an absent StatefulSet goes
 * straight to the re-apply of the recorded object).
 *
 * <p>UI-agnostic: progress out through {@link Progress}, human decisions in through {@link GateAnswers}, the
 * driver's stop through a {@link StopRequest}.
 */
public final class Converger {
    private final Cluster cluster;
    private final GateAnswers gate;
    private final Steps steps;
    private final List<Convergence.Turn.Stopped> stopped = new ArrayList<>();

    /**
     * @param operator "user@host pid": the Lease holder and the name the Events give
     * @param server the API server URL, kept in the journal so that resume finds the runs of this cluster
     */
    public Converger(Cluster cluster, Clock clock, Journal journal, String operator, String server, GateAnswers gate,
            Progress progress, Checkpoint checkpoint) {
        this(cluster, clock, journal, operator, server, gate, progress, checkpoint, new StopRequest());
    }

    /** @param stop set by the driver on Ctrl-C and the like: each run stops at its next safe point, its record kept */
    public Converger(Cluster cluster, Clock clock, Journal journal, String operator, String server, GateAnswers gate,
            Progress progress, Checkpoint checkpoint, StopRequest stop) {
        this(cluster, clock, journal, operator, server, gate, progress, checkpoint, stop, Waiter.TICK);
    }

    /** @param tick the longest a wait goes without a tick ({@link Waiter#TICK}; tests shorten it) */
    Converger(Cluster cluster, Clock clock, Journal journal, String operator, String server, GateAnswers gate,
            Progress progress, Checkpoint checkpoint, StopRequest stop, java.time.Duration tick) {
        this.cluster = cluster;
        this.gate = gate;
        this.steps = new Steps(cluster, clock, journal, operator, server, progress, checkpoint, stop, tick);
    }

    public StatefulSetResult converge(Assessed a, ConvergeOptions opts, boolean leases) {
        return drive(Convergence.start(steps, a, opts, leases));
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
        if (steps.stop().requested() && run.record() != null) {
            // stopped before this run was taken up: nothing written, its record stands as it was
            StatefulSetResult r = new StatefulSetResult(ns, name, Outcome.STOPPED, "stopped", "before resuming ("
                    + steps.stop().reason() + "): nothing was written; the run stays recorded"
                    + ": `kubectl stsresize resume " + ns + "/" + name + "` finishes it", List.of(), List.of(), List.of());
            String phase = run.record().phase().isEmpty() ? "unknown" : run.record().phase();
            stopped.add(new Convergence.Turn.Stopped(ns, name, phase, r));
            return r;
        }
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
            return new StatefulSetResult(ns, name, lock.heldByAnother() ? Outcome.BLOCKED : Outcome.FAILED, lock.reason(),
                    lock.message(), List.of(), List.of(), List.of());
        }
        Phase from = Convergence.resumeAt(r, standing);
        if (from == Phase.REGROW) {
            steps.progress().on(ProgressEvent.info(ns, name, Phase.REAPPLY, "StatefulSet " + name
                    + " is absent: straight to the re-apply of the recorded object"));
        } else if (from == Phase.VERIFY) {
            steps.progress().on(ProgressEvent.info(ns, name, Phase.VERIFY, "StatefulSet " + name + " already re-created (UID "
                    + Objects.uid(standing.get()) + "): verifying adoption"));
        }
        return drive(Convergence.resumed(steps, opts, lock.run(), from));
    }

    /** The runs of this converger that stopped on request, each with the phase its record says. */
    public List<Convergence.Turn.Stopped> stopped() {
        return List.copyOf(stopped);
    }

    /** The machine advanced to its end, each gate answered by the {@link GateAnswers} when reached. */
    private StatefulSetResult drive(Convergence m) {
        while (true) {
            Convergence.Turn t = m.advance();
            if (t instanceof Convergence.Turn.Ended e) {
                return e.result();
            }
            if (t instanceof Convergence.Turn.Stopped s) {
                stopped.add(s);
                return s.result();
            }
            if (t instanceof Convergence.Turn.AtGate g) {
                answer(m, g.gate());
            }
        }
    }

    private void answer(Convergence m, Gate g) {
        switch (g) {
            case CONFIRM -> m.answerGrow(gate.allowGrow(m.decision()));
            case TYPE_NAME -> {
                String ns = m.namespace();
                String name = m.name();
                Decision d = m.decision();
                boolean copy = d != null && d.verdict() == dev.stsresize.plan.Verdict.COPY;
                if (copy ? gate.allowCopy(d) : gate.allowOrphanDelete(ns, name)) {
                    m.allowDelete(new Steps.DeleteAllowed(ns, name, m.recordedUid()));
                } else {
                    m.declineDelete();
                }
            }
            case NONE -> throw new IllegalStateException("a turn stopped at no gate");
        }
    }

    /**
     * Restarts, one at a time through the Eviction API, the pods whose claims wait for a file system
     * resize, for a converge that finished without {@code restartPodsForResize}: see
     * {@link Steps#restartPodsForResize}.
     */
    public String restartPodsForResize(String ns, String name, Map<String, String> claimTargets, ConvergeOptions opts) {
        return steps.restartPodsForResize(ns, name, claimTargets, opts);
    }

    /** The same for the claims {@code d} grows, each waited for at its target. */
    public String restartPodsForResize(Decision d, ConvergeOptions opts) {
        Map<String, String> targets = new java.util.LinkedHashMap<>();
        d.claimsToGrow().forEach(c -> targets.put(c.name(), c.target().toString()));
        return restartPodsForResize(d.namespace(), d.name(), targets, opts);
    }

    /**
     * The result as the objects are now: each claim re-read, its capacity as it is and its
     * file-system-resize warning only while the claim still says so. A run's warnings are told at
     * the end of the whole command, and meanwhile the kubelet may well have finished an online
     * expansion: nothing is said from a read that is no longer true. A result whose converge
     * touched no claim (refused, blocked, nothing to do) is answered as it is.
     */
    /** The result reasons of a run that ended on its resizer's failure. */
    private static final java.util.Set<String> FAILED_RESIZES = java.util.Set.of("resize-failed", "resize-infeasible");

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
        // a run that ended on its resizer's failure said why once: its claims are not "still being resized"
        boolean resizeFailed = FAILED_RESIZES.contains(r.reason());
        List<String> notGrown = new ArrayList<>();
        for (StatefulSetResult.ClaimResult c : r.claims()) {
            Optional<ObjectNode> now = cluster.getClaim(r.namespace(), c.name());
            String capacity = now.map(x -> Metadata.textOrEmpty(x, "status", "capacity", "storage")).orElse("");
            Quantity target = Quantity.parseOrNull(c.to());
            StatefulSetResult.ClaimResult again = c.withCapacity(capacity);
            if (grownSince(c, now, target)) {
                // the kubelet finished since the run stopped following it: said as it is now
                again = again.withFileSystem(FileSystem.GROWN, -1);
            }
            claims.add(again);
            if (now.isPresent() && target != null && resizeFailed && ClaimWarnings.belowTarget(now.get(), target)) {
                notGrown.add(c.name() + " (" + (capacity.isEmpty() ? "capacity unknown" : capacity) + " of " + target + ")");
            } else if (now.isPresent() && target != null) {
                ClaimWarnings.of(cluster, r.namespace(), r.name(), now.get(), target).ifPresent(warnings::add);
            }
        }
        if (!notGrown.isEmpty()) {
            warnings.add(ClaimWarnings.failedResize(notGrown));
        }
        String before = FileSystems.sentence(r.claims());
        String detail = before.isEmpty() ? r.detail() : r.detail().replace(before, FileSystems.sentence(claims));
        return new StatefulSetResult(r.namespace(), r.name(), r.outcome(), r.reason(), detail, claims, r.pods(), warnings,
                r.phases());
    }

    /**
     * A file system the run left waiting whose claim now says the kubelet grew it; one whose summary
     * contradicted its status stays as the summary said.
     */
    private static boolean grownSince(StatefulSetResult.ClaimResult c, Optional<ObjectNode> now, Quantity target) {
        if (c.fileSystem() == null || c.fileSystem() == FileSystem.GROWN || c.fileSystem() == FileSystem.UNKNOWN || c.fileSystemBytes() >= 0
                || now.isEmpty() || target == null) {
            return false;
        }
        return ClaimGrower.stateOf(now.get(), target) == ClaimGrower.State.GROWN && !FileSystems.kubeletUnfinished(now.get());
    }

}
