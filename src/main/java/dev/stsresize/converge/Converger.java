package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Refusal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Converges one assessed StatefulSet at a time, docs/design.md steps 4–9, as explicit steps: lock and
 * record, grow, orphan-delete, re-apply (or restore), verify, restart pods if asked, record, release.
 * Every write is read back before the next step; every step is idempotent, and a run stopped anywhere
 * is finished by {@link #resume} from its record (claims already grown skipped; an absent
 * StatefulSet goes straight to the re-apply of the recorded object).
 *
 * <p>UI-agnostic: progress out through {@link Progress}, human decisions in through {@link Gate}.
 */
public final class Converger {
    private final Cluster cluster;
    private final Clock clock;
    private final Journal journal;
    private final String operator;
    private final String server;
    private final Gate gate;
    private final Progress progress;
    private final Checkpoint checkpoint;
    private final AwaitObject await;
    private final Events events;

    /**
     * @param operator "user@host pid": the Lease holder and the name the Events give
     * @param server the API server URL, kept in the journal so that resume finds the runs of this cluster
     */
    public Converger(Cluster cluster, Clock clock, Journal journal, String operator, String server, Gate gate,
            Progress progress, Checkpoint checkpoint) {
        this.cluster = cluster;
        this.clock = clock;
        this.journal = journal;
        this.operator = operator;
        this.server = server;
        this.gate = gate;
        this.progress = progress;
        this.checkpoint = checkpoint;
        this.await = new AwaitObject(cluster, clock);
        this.events = new Events(cluster, clock, operator, progress);
    }

    public StatefulSetResult converge(Assessed a, ConvergeOptions opts, boolean leases) {
        Decision d = a.decision();
        String ns = d.namespace();
        String name = d.name();
        if (a.failure() != null) {
            return result(ns, name, Outcome.FAILED, "server-error", a.failure(), d);
        }
        switch (d.verdict()) {
            case REFUSED -> {
                return result(ns, name, Outcome.REFUSED, ((Refusal) d).reason().label(), d.detail(), d);
            }
            case BLOCKED -> {
                return result(ns, name, Outcome.BLOCKED, ((Refusal) d).reason().label(), d.detail(), d);
            }
            case ABSENT -> {
                return result(ns, name, Outcome.ABSENT, "", d.detail(), d);
            }
            case UP_TO_DATE -> {
                return result(ns, name, Outcome.NOTHING_TO_DO, "", d.detail(), d);
            }
            default -> { }
        }
        // the record is built (and its size known) before anything is written, dry run or not
        Record r = record(a, d);
        String tooLarge = leases ? RecordSecret.whyTooLarge(r) : null;
        if (tooLarge != null) {
            return result(ns, name, Outcome.FAILED, "record-too-large", tooLarge, d);
        }
        if (opts.dryRun()) {
            return result(ns, name, Outcome.DRY_RUN_OK, "", "every check and server dry run passed; nothing written. Would "
                    + (d.recreate() ? "grow " + d.claimsToGrow().size() + " claim(s), orphan-delete and re-apply the StatefulSet"
                            : "grow " + d.claimsToGrow().size() + " claim(s)"), d);
        }
        if (!gate.allowGrow(d)) {
            return result(ns, name, Outcome.FAILED, "declined", "the operator declined; nothing was written", d);
        }
        Map<String, String> before = new LinkedHashMap<>();
        for (ClaimState c : d.claimsToGrow()) {
            before.put(c.name(), c.request() == null ? "" : c.request().toString());
        }
        LeaseLock lock;
        try {
            lock = LeaseLock.acquire(cluster, journal, clock, opts.leaseDuration(), leases, r, opts.takeOver(), null);
        } catch (Locked e) {
            return result(ns, name, Outcome.BLOCKED, "locked", e.getMessage() + ". Nothing was written", d);
        } catch (LeaseLock.NotRecorded e) {
            return result(ns, name, Outcome.FAILED, "record-not-kept", notRecorded(e), d);
        }
        progress.on(ProgressEvent.write(ns, name, Step.LOCK, leases ? "Lease " + ns + "/" + LeaseLock.leaseName(name)
                + " held by " + operator + "; record kept in Secret " + ns + "/" + RecordSecret.name(name) + " and in " + journal.directory()
                : "Leases forbidden: record kept in the local journal " + journal.directory() + " only", new Write.Lock(ns, name)));
        try {
            checkpoint.afterWrite("lock " + name);
            return run(lock, opts, From.GROW, before);
        } finally {
            lock.close();
        }
    }

    /** The record a run keeps before its first write: the live object as it was, what to re-apply, the claims' targets. */
    private Record record(Assessed a, Decision d) {
        Map<String, String> targets = new LinkedHashMap<>();
        for (ClaimState c : d.claimsToGrow()) {
            targets.put(c.name(), c.target().toString());
        }
        // the backup keeps every field of the live object but managedFields (a create could not carry them)
        ObjectNode backup = a.live().deepCopy();
        ((ObjectNode) backup.path("metadata")).remove("managedFields");
        return new Record(server, d.namespace(), d.name(), Objects.uid(a.live()), operator, Record.PHASE_LOCKED, LeaseLock.now(clock),
                a.fieldManager(), backup, d.recreate() ? a.reapply() : null, targets);
    }

    private static String notRecorded(LeaseLock.NotRecorded e) {
        return "the run could not keep its lock and record before its first write: " + e.getMessage()
                + ". Nothing was written to the StatefulSet or its claims, and there is nothing to resume";
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
        Record r = recorded.withHolder(operator);
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
        LeaseLock lock;
        try {
            // only this machine's journal may vouch for a holder as our own crashed run; a Lease alone never does
            String ours = journal.read(ns, name).map(Record::holder).orElse(null);
            lock = LeaseLock.acquire(cluster, journal, clock, opts.leaseDuration(), leases, r, opts.takeOver(), ours);
        } catch (Locked e) {
            return new StatefulSetResult(ns, name, Outcome.BLOCKED, "locked", e.getMessage(), List.of(), List.of(), List.of());
        } catch (LeaseLock.NotRecorded e) {
            return new StatefulSetResult(ns, name, Outcome.FAILED, "record-not-kept", notRecorded(e), List.of(), List.of(), List.of());
        }
        progress.on(ProgressEvent.info(ns, name, Step.LOCK, "resuming the run of " + recorded.holder() + " started "
                + recorded.startedAt() + " (phase " + recorded.phase() + ")"));
        try {
            if (r.reapply() == null) {
                return run(lock, opts, From.GROW, Map.of());
            }
            Optional<ObjectNode> now = standing;
            if (now.isEmpty()) {
                progress.on(ProgressEvent.info(ns, name, Step.REAPPLY, "StatefulSet " + name
                        + " is absent: straight to the re-apply of the recorded object"));
                return run(lock, opts, From.REAPPLY, Map.of());
            }
            if (r.uid().equals(Objects.uid(now.get()))) {
                return run(lock, opts, From.GROW, Map.of());
            }
            progress.on(ProgressEvent.info(ns, name, Step.VERIFY, "StatefulSet " + name + " already re-created (UID "
                    + Objects.uid(now.get()) + "): verifying adoption"));
            return run(lock, opts, From.VERIFY, Map.of());
        } finally {
            lock.close();
        }
    }

    private enum From { GROW, REAPPLY, VERIFY }

    private StatefulSetResult run(LeaseLock lock, ConvergeOptions opts, From from, Map<String, String> requestsBefore) {
        Record r = lock.record();
        String ns = r.namespace();
        String name = r.name();
        Instant deadline = clock.instant().plus(opts.timeout());
        Map<String, String> before = new LinkedHashMap<>(requestsBefore);
        ClaimGrower grower = new ClaimGrower(cluster, await, events, progress, checkpoint);
        boolean recreate = r.reapply() != null;
        Dependents dependents;

        if (from == From.GROW) {
            lock.phase(Record.PHASE_GROWING);
            grower.grow(ns, name, r.claimTargets()).forEach(before::putIfAbsent);
            if (opts.waitForResize()) {
                Map<String, ClaimGrower.ClaimStatus> statuses = grower.await(ns, r.claimTargets(), before, deadline);
                List<String> infeasible = new ArrayList<>();
                List<String> waiting = new ArrayList<>();
                for (ClaimGrower.ClaimStatus s : statuses.values()) {
                    switch (s.state()) {
                        case INFEASIBLE -> infeasible.add(s.name() + ": " + s.message());
                        case WAITING -> waiting.add(s.name() + ": " + s.message());
                        case FILE_SYSTEM_PENDING -> progress.on(ProgressEvent.warn(ns, name, Step.GROW, "claim " + s.name()
                                + ": FileSystemResizePending, " + s.message()
                                + (opts.restartPodsForResize() ? "; its pod is restarted after the re-apply"
                                        : "; the end of the run says whether it still waits")));
                        default -> { }
                    }
                }
                if (!infeasible.isEmpty()) {
                    lock.release();
                    return finish(r, Outcome.FAILED, "resize-infeasible", "the resize cannot happen: " + String.join("; ", infeasible)
                            + ". Nothing was deleted; the claims' requests stay raised (the StatefulSet is untouched):"
                            + " ask the storage admin, or lower the request back above its capacity", before, List.of());
                }
                if (!waiting.isEmpty()) {
                    lock.release();
                    return finish(r, Outcome.FAILED, "resize-timeout", "--timeout " + opts.timeout() + " ran out before the claims"
                            + " grew: " + String.join("; ", waiting) + ". Nothing was deleted; the requests are raised and the"
                            + " resizer keeps working: run again later to finish", before, List.of());
                }
            }
            if (!recreate) {
                lock.release();
                return finish(r, Outcome.CLAIMS_GROWN, "", "claims grown; the StatefulSet's templates already declared the sizes",
                        before, List.of());
            }
            if (!gate.allowOrphanDelete(ns, name)) {
                lock.release();
                return finish(r, Outcome.FAILED, "declined", "the operator declined the orphan delete: the claims are grown,"
                        + " the StatefulSet is untouched (its template still declares the old size). Run again to finish", before, List.of());
            }
            stopIfLost(lock);
            lock.phase(Record.PHASE_DELETING);
            ObjectNode current = cluster.getStatefulSet(ns, name).orElse(r.live());
            dependents = Dependents.read(cluster, current, r.uid(), r.claimTargets().keySet());
            OrphanDelete.Result del = new OrphanDelete(cluster, await, events, progress, checkpoint).run(ns, name, r.uid(), deadline);
            if (!del.gone() && del.nothingDeleted()) {
                lock.release();
                return finish(r, Outcome.FAILED, "delete-refused", del.message(), before, List.of());
            }
            if (!del.gone()) {
                return finish(r, Outcome.FAILED, "delete-incomplete", del.message() + ". The run is recorded: `kubectl stsresize resume`"
                        + " finishes it", before, List.of());
            }
            String lost = Dependents.read(cluster, r.live(), r.uid(), r.claimTargets().keySet()).lostSince(dependents);
            if (!lost.isEmpty()) {
                progress.on(ProgressEvent.warn(ns, name, Step.ORPHAN_DELETE, "after the orphan delete: " + lost));
            }
        } else {
            if (from == From.REAPPLY) {
                // the StatefulSet is absent: whoever deleted it, the claims are grown (requests only; a
                // re-read skips those already grown) before the object with grown templates is re-applied
                grower.grow(ns, name, r.claimTargets()).forEach(before::putIfAbsent);
            }
            dependents = Dependents.read(cluster, r.live(), r.uid(), r.claimTargets().keySet());
        }

        ObjectNode standing;
        boolean restored = false;
        String reapplyMessage = "";
        if (from != From.VERIFY) {
            stopIfLost(lock);
            lock.phase(Record.PHASE_REAPPLYING);
            Reapply.Result ra = new Reapply(cluster, events, progress, checkpoint).run(r);
            if (ra.statefulSet() == null) {
                return finish(r, Outcome.FAILED, "reapply-failed", ra.message(), before, List.of());
            }
            standing = ra.statefulSet();
            restored = ra.restored();
            reapplyMessage = ra.message();
        } else {
            standing = cluster.getStatefulSet(ns, name).orElseThrow();
            dependents = Dependents.read(cluster, standing, Objects.uid(standing), r.claimTargets().keySet());
        }

        lock.phase(Record.PHASE_VERIFYING);
        AdoptionCheck.Result v = new AdoptionCheck(cluster, await).verify(standing, dependents,
                Objects.text(r.live(), "status", "currentRevision"), deadline);
        progress.on(v.adopted() ? ProgressEvent.info(ns, name, Step.VERIFY, v.detail())
                : ProgressEvent.warn(ns, name, Step.VERIFY, v.detail()));
        if (restored) {
            lock.release();
            return finish(r, Outcome.FAILED, "reapply-failed", reapplyMessage + ". " + v.detail(), before, v.pods());
        }
        List<String> restartProblems = new ArrayList<>();
        if (v.adopted() && opts.restartPodsForResize()) {
            PodRestarter restarter = new PodRestarter(cluster, await, events, progress, checkpoint);
            for (Map.Entry<String, String> t : r.claimTargets().entrySet()) {
                Quantity target = Quantity.parse(t.getValue());
                ClaimGrower.ClaimStatus s = grower.read(ns, t.getKey(), before.getOrDefault(t.getKey(), ""), target);
                if (s.state() == ClaimGrower.State.FILE_SYSTEM_PENDING) {
                    String problem = restarter.restartFor(standing, t.getKey(), target, deadline);
                    if (!problem.isEmpty()) {
                        restartProblems.add(problem);
                        break;
                    }
                }
            }
        }
        lock.release();
        checkpoint.afterWrite("release " + name);
        if (!v.adopted()) {
            return finish(r, Outcome.FAILED, "not-verified", v.detail(), before, v.pods());
        }
        String detail = v.detail() + (restartProblems.isEmpty() ? "" : "; " + String.join("; ", restartProblems));
        return finish(r, Outcome.CONVERGED, "", detail, before, v.pods());
    }

    /**
     * Restarts, one at a time through the Eviction API, the pods whose claims wait for a file system
     * resize, for a converge that finished without {@code restartPodsForResize} (a terminal UI offers
     * it once it has shown the adoption). Only while the StatefulSet stands and is the controller of
     * each pod: a pod evicted while it is absent or orphaned is not re-created. Each pod is Ready
     * again, and its claim at capacity, before the next. Answers "" when every restart finished,
     * else what stopped it (nothing more is evicted then).
     *
     * @param claimTargets claim name → target, as in the run's {@link Record}
     */
    public String restartPodsForResize(String ns, String name, Map<String, String> claimTargets, ConvergeOptions opts) {
        Optional<ObjectNode> sts = cluster.getStatefulSet(ns, name);
        if (sts.isEmpty()) {
            return "StatefulSet " + ns + "/" + name + " is absent: no pod is evicted while nothing would re-create it";
        }
        String uid = Objects.uid(sts.get());
        Instant deadline = clock.instant().plus(opts.timeout());
        ClaimGrower grower = new ClaimGrower(cluster, await, events, progress, checkpoint);
        PodRestarter restarter = new PodRestarter(cluster, await, events, progress, checkpoint);
        for (Map.Entry<String, String> t : claimTargets.entrySet()) {
            Quantity target = Quantity.parse(t.getValue());
            if (grower.read(ns, t.getKey(), "", target).state() != ClaimGrower.State.FILE_SYSTEM_PENDING) {
                continue;
            }
            String pod = name + t.getKey().substring(t.getKey().lastIndexOf('-'));
            Optional<ObjectNode> p = cluster.getPod(ns, pod);
            if (p.isPresent() && !uid.equals(Objects.controllerUid(p.get()))) {
                return "pod " + pod + " is not controlled by StatefulSet " + name + " (UID " + uid + "): it is not evicted";
            }
            String problem = restarter.restartFor(sts.get(), t.getKey(), target, deadline);
            if (!problem.isEmpty()) {
                return problem;
            }
        }
        return "";
    }

    private void stopIfLost(LeaseLock lock) {
        if (lock.lost() != null) {
            throw new Locked(lock.lost() + " while this run worked; it stops here. The journal keeps the record");
        }
    }

    /** The result, with every claim re-read: its capacity as it is, and what still waits. */
    private StatefulSetResult finish(Record r, Outcome outcome, String reason, String detail, Map<String, String> before,
            List<StatefulSetResult.PodResult> pods) {
        List<StatefulSetResult.ClaimResult> claims = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<String, String> t : r.claimTargets().entrySet()) {
            Optional<ObjectNode> c = cluster.getClaim(r.namespace(), t.getKey());
            String capacity = c.map(x -> Objects.text(x, "status", "capacity", "storage")).orElse("");
            claims.add(new StatefulSetResult.ClaimResult(t.getKey(), before.getOrDefault(t.getKey(), ""), t.getValue(), capacity));
            c.flatMap(x -> claimWarning(r.namespace(), r.name(), x, Quantity.parse(t.getValue()))).ifPresent(warnings::add);
        }
        progress.on(new ProgressEvent(r.namespace(), r.name(), Step.RECORD, outcome.label() + ": " + detail, null, outcome == Outcome.FAILED));
        return new StatefulSetResult(r.namespace(), r.name(), outcome, reason, detail, claims, pods, warnings);
    }

    /**
     * What a claim whose volume grew but whose file system has not tells the operator. Which pod
     * mounts it is read, not assumed: a scaled-away ordinal has none, and deleting a pod by hand
     * would bypass its PodDisruptionBudget.
     */
    private String fileSystemPending(String namespace, String statefulSet, String claim) {
        String pod = statefulSet + claim.substring(claim.lastIndexOf('-'));
        boolean mounted = cluster.getPod(namespace, pod)
                .map(p -> p.path("spec").path("volumes").findValuesAsText("claimName").contains(claim))
                .orElse(false);
        if (!mounted) {
            return FS_PENDING_PREFIX.formatted(claim) + ": no pod mounts it now; its file system grows "
                    + "when a pod next mounts it";
        }
        return FS_PENDING_PREFIX.formatted(claim) + " on pod " + pod + ": the kubelet finishes it while the "
                + "pod runs if the CSI driver expands online, otherwise restart the pod (apply --restart-pods-for-resize "
                + "evicts it, respecting PodDisruptionBudgets)";
    }

    /** How every warning of a claim whose file system waits for its resize begins. */
    private static final String FS_PENDING_PREFIX = "claim %s waits for a file system resize";
    /** How every warning of a claim whose volume is still below its target begins. */
    private static final String NOT_GROWN_PREFIX = "claim %s has not grown yet";

    /**
     * What the claim as read says is still unfinished, if anything: its file system waits, or its
     * volume is still below the target (a run with --wait-for-resize=false goes on as soon as the
     * requests are accepted; "converged" then speaks of the StatefulSet, and this says, from the
     * claim itself, that the volume has not caught up — on a cluster without a resizer it never will).
     */
    private Optional<String> claimWarning(String namespace, String statefulSet, ObjectNode claim, Quantity target) {
        String name = Objects.text(claim, "metadata", "name");
        return switch (ClaimGrower.stateOf(claim, target)) {
            case FILE_SYSTEM_PENDING -> Optional.of(fileSystemPending(namespace, statefulSet, name));
            case WAITING, INFEASIBLE -> {
                String capacity = Objects.text(claim, "status", "capacity", "storage");
                String allocation = Objects.text(claim, "status", "allocatedResourceStatuses", "storage");
                yield Optional.of(NOT_GROWN_PREFIX.formatted(name) + ": capacity " + (capacity.isEmpty() ? "unknown" : capacity)
                        + ", request " + target + (allocation.isEmpty() ? "" : " (" + allocation + ")")
                        + "; the volume's resizer has not finished: follow it with `kubectl get pvc " + name + " -n " + namespace
                        + " -w` and `kubectl describe pvc " + name + " -n " + namespace + "` (no resizer in the cluster: its"
                        + " events say so, and the volume never grows)");
            }
            default -> Optional.empty();
        };
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
            if (r.claims().stream().noneMatch(c -> w.startsWith(FS_PENDING_PREFIX.formatted(c.name()))
                    || w.startsWith(NOT_GROWN_PREFIX.formatted(c.name())))) {
                warnings.add(w);
            }
        }
        for (StatefulSetResult.ClaimResult c : r.claims()) {
            Optional<ObjectNode> now = cluster.getClaim(r.namespace(), c.name());
            String capacity = now.map(x -> Objects.text(x, "status", "capacity", "storage")).orElse("");
            claims.add(new StatefulSetResult.ClaimResult(c.name(), c.from(), c.to(), capacity));
            Quantity target = Quantity.parseOrNull(c.to());
            if (now.isPresent() && target != null) {
                claimWarning(r.namespace(), r.name(), now.get(), target).ifPresent(warnings::add);
            }
        }
        return new StatefulSetResult(r.namespace(), r.name(), r.outcome(), r.reason(), r.detail(), claims, r.pods(), warnings);
    }

    private static StatefulSetResult result(String ns, String name, Outcome outcome, String reason, String detail, Decision d) {
        List<StatefulSetResult.ClaimResult> claims = new ArrayList<>();
        for (ClaimState c : d.claimsToGrow()) {
            claims.add(new StatefulSetResult.ClaimResult(c.name(), c.request() == null ? "" : c.request().toString(),
                    c.target().toString(), c.capacity() == null ? "" : c.capacity().toString()));
        }
        return new StatefulSetResult(ns, name, outcome, reason, detail, claims, List.of(), d.warnings());
    }
}
