package dev.stsresize.converge;

import dev.stsresize.plan.Metadata;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Refusal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The converge procedure of one StatefulSet (docs/design.md steps 4–9) as calls: check, lock and record,
 * grow, wait, orphan-delete, re-apply, verify, restart pods, release. Each returns a value saying what
 * it did and what it read back, and re-reads before it writes, so calling it again after a crash
 * finishes the work (a claim already grown is skipped, the delete carries the recorded UID, the apply
 * is server-side). They are the actions of the one machine, {@link Convergence}, which decides which
 * comes next; every wait in them goes through the {@link Waiter}. A {@link Run} carries what one run
 * holds between the calls: its Lease, its record, the requests it found, the dependents it read
 * before the delete.
 */
public final class Steps {
    private final Cluster cluster;
    private final Clock clock;
    private final Journal journal;
    private final String operator;
    private final String server;
    private final Progress progress;
    private final Checkpoint checkpoint;
    private final Waiter waiter;
    private final Events events;
    private final ClaimGrower grower;
    private final CopySteps copies;

    /**
     * @param operator "user@host pid": the Lease holder and the name the Events give
     * @param server the API server URL, kept in the record so that resume finds the runs of this cluster
     */
    public Steps(Cluster cluster, Clock clock, Journal journal, String operator, String server, Progress progress,
            Checkpoint checkpoint) {
        this(cluster, clock, journal, operator, server, progress, checkpoint, new StopRequest());
    }

    /** @param stop the driver's stop request: each wait ends at once on it, the grow stops between claims */
    public Steps(Cluster cluster, Clock clock, Journal journal, String operator, String server, Progress progress,
            Checkpoint checkpoint, StopRequest stop) {
        this(cluster, clock, journal, operator, server, progress, checkpoint, stop, Waiter.TICK);
    }

    /** @param tick the longest a wait goes without a tick ({@link Waiter#TICK}; tests shorten it) */
    Steps(Cluster cluster, Clock clock, Journal journal, String operator, String server, Progress progress,
            Checkpoint checkpoint, StopRequest stop, java.time.Duration tick) {
        this.cluster = cluster;
        this.clock = clock;
        this.journal = journal;
        this.operator = operator;
        this.server = server;
        this.progress = progress;
        this.checkpoint = checkpoint;
        this.waiter = new Waiter(new AwaitObject(cluster, clock), clock, progress, stop, tick);
        this.events = new Events(cluster, clock, operator, progress);
        this.grower = new ClaimGrower(cluster, waiter, events, progress, checkpoint);
        this.copies = new CopySteps(cluster, waiter, progress, checkpoint, clock);
    }

    StopRequest stop() {
        return waiter.stop();
    }

    /** Runs one phase of {@code run}, adding how long it took to the run's phases (also when it throws). */
    private <T> T timed(Run run, String phase, java.util.function.Supplier<T> action) {
        Instant start = clock.instant();
        try {
            return action.get();
        } finally {
            run.phases.merge(phase, java.time.Duration.between(start, clock.instant()), java.time.Duration::plus);
        }
    }

    String operator() {
        return operator;
    }

    /** Waits for the Events sent beside the run's requests, and says what they had to say: a run's end. */
    void eventsWritten() {
        events.flush();
    }

    Progress progress() {
        return progress;
    }

    // ---- the values the steps answer ------------------------------------------------------------

    /** What the check found: the record a run would keep and each claim's request before, or why it stops here ({@code stop}). */
    public record Checked(Record record, Map<String, String> requestsBefore, StatefulSetResult stop) {
        public boolean proceeds() {
            return stop == null;
        }
    }

    /**
     * The lock taken ({@code run}), or why not: {@code reason} {@link #LOCKED} (someone holds it) or
     * "record-not-kept". A held lock is found only when a run takes it, never by the plan's decision, so
     * its reason is one of the run's results (outcome blocked), not a {@code plan.Reason}.
     */
    public record Acquired(Run run, String reason, String message) {
        public static final String LOCKED = "locked";

        public boolean held() {
            return run != null;
        }

        /** Refused because another run holds the lock: blocked until it ends, where a record not kept is a failure. */
        public boolean heldByAnother() {
            return reason.equals(LOCKED);
        }
    }

    /** Each claim's request as read before its patch ("" when gone), and the claims patched now (the others already were). */
    public record Grown(Map<String, String> requestsBefore, List<String> patched) {}

    /**
     * Each claim as the wait left it, and what stops the run: infeasible resizes, resizers that kept
     * failing ({@code failed}, in their words), claims gone, claims still below their target; whether
     * the wait was stopped (a stop request) or left (the driver went on).
     */
    public record Waited(List<ClaimGrower.ClaimStatus> claims, List<String> infeasible, List<String> failed, List<String> gone,
            List<String> waiting, boolean stopped, boolean wentOn) {}

    /** The delete: gone (404), or refused with nothing deleted (another UID stands), or not finished; what was lost meanwhile. */
    public record Deleted(boolean gone, boolean nothingDeleted, String message, String lost) {}

    /** The StatefulSet standing after the re-apply (null when neither it nor the restore worked), and whether the backup stands instead. */
    public record Reapplied(ObjectNode statefulSet, boolean restored, String message) {}

    /** The adoption as read back from the objects: pods with their UIDs and owners, claims, revisions. */
    public record Verified(boolean adopted, List<StatefulSetResult.PodResult> pods, String detail) {}

    /**
     * The operator's allowance of one orphan delete: the gate answered yes for this StatefulSet and this
     * UID. The delete step checks it as its precondition, a second lock behind the gate itself.
     */
    public record DeleteAllowed(String namespace, String name, String uid) {}

    /** A step called without its precondition: nothing was sent, and the run stands as it was. */
    public static final class NotAllowed extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NotAllowed(String message) {
            super(message);
        }
    }

    /** One run between its lock and its release. Closing it stops renewing the Lease, leaving Lease and journal as they are. */
    public static final class Run implements AutoCloseable {
        final LeaseLock lock;
        final Instant deadline;
        final Map<String, String> before = new LinkedHashMap<>();
        /** The driver chose to go on without waiting for capacity (the wizard's {@code c}): the wait for it ends at once. */
        final StopRequest goingOn = new StopRequest();
        Dependents dependents;
        ObjectNode standing;
        /** Each claim Event's count before the patches: a wait counts the resizer's failures after it. */
        Map<String, Integer> eventBaseline;
        /** Each claim as its patch by this process answered, the wait's start (none when resumed past the patches). */
        final Map<String, ObjectNode> patched = new LinkedHashMap<>();
        /** How long each phase took in this process, in the order they ran. */
        final Map<String, java.time.Duration> phases = new LinkedHashMap<>();
        boolean restored;
        /** The claims and pods the verification read, the file systems' first look (null: none). */
        FileSystems.Seeds seen;
        /** The re-apply's dry run, sent with its phase beside the reads after the orphan delete (null: not yet). */
        Reapply.Proved proved;
        String reapplyMessage = "";
        /** A copy's pods as this process took them down and saw them Ready again: each pod's downtime, said at the end. */
        final Map<Integer, Instant> downSince = new LinkedHashMap<>();
        final Map<Integer, java.time.Duration> downFor = new LinkedHashMap<>();
        /** A copy's proofs, by claim, as this process read them from the copy pods: a claim is deleted only with one. */
        final Map<String, dev.stsresize.cluster.CopyVerified> proofs = new LinkedHashMap<>();

        Run(LeaseLock lock, Instant deadline, Map<String, String> requestsBefore) {
            this.lock = lock;
            this.deadline = deadline;
            this.before.putAll(requestsBefore);
        }

        public Record record() {
            return lock.record();
        }

        public String namespace() {
            return record().namespace();
        }

        public String name() {
            return record().name();
        }

        /** Whether the run re-creates the StatefulSet (else it only grows claims). */
        public boolean recreates() {
            return record().reapply() != null;
        }

        /** The driver goes on without waiting for capacity: a wait in progress ends at its next event or tick. */
        public void goOn() {
            goingOn.request("went on without waiting");
        }

        /** Whether the re-apply failed and the backup stands instead. */
        public boolean restored() {
            return restored;
        }

        @Override
        public void close() {
            lock.close();
        }

        /** Stopped on request: the Lease no longer renewed and its holder freed, the record kept; why it stays held, or "". */
        String free() {
            return lock.free();
        }
    }

    // ---- check ----------------------------------------------------------------------------------

    /** Whether the assessment leaves work, and the record the run keeps before its first write; no request. */
    public Checked check(Assessed a, ConvergeOptions opts, boolean leases) {
        Decision d = a.decision();
        String ns = d.namespace();
        String name = d.name();
        if (a.failure() != null) {
            return stop(result(ns, name, Outcome.FAILED, "server-error", a.failure(), d));
        }
        switch (d.verdict()) {
            case REFUSED -> {
                return stop(result(ns, name, Outcome.REFUSED, ((Refusal) d).reason().label(), d.detail(), d));
            }
            case BLOCKED -> {
                return stop(result(ns, name, Outcome.BLOCKED, ((Refusal) d).reason().label(), d.detail(), d));
            }
            case ABSENT -> {
                return stop(result(ns, name, Outcome.ABSENT, "", d.detail(), d));
            }
            case UP_TO_DATE -> {
                return stop(result(ns, name, Outcome.NOTHING_TO_DO, "", d.detail(), d));
            }
            default -> { }
        }
        Map<String, String> before = new LinkedHashMap<>();
        for (ClaimState c : toTarget(d)) {
            before.put(c.name(), c.request() == null ? "" : c.request().toString());
        }
        // the record is built (and its size known) before anything is written, dry run or not
        Record r = record(a, d, known(before));
        if (d.verdict() == dev.stsresize.plan.Verdict.COPY) {
            r = r.withCopy(CopyProgress.start(opts.copy().image(), opts.copy().copyClass().orElse(""), r.claimTargets()));
        }
        String tooLarge = leases ? RecordSecret.whyTooLarge(r) : null;
        if (tooLarge != null) {
            return stop(result(ns, name, Outcome.FAILED, "record-too-large", tooLarge, d));
        }
        if (opts.dryRun()) {
            return stop(result(ns, name, Outcome.DRY_RUN_OK, "", "every check and server dry run passed; nothing written. Would "
                    + (d.verdict() == dev.stsresize.plan.Verdict.COPY ? "copy " + d.claimsToCopy().size() + " claim(s) to bigger"
                            + " volumes, one pod at a time (each down from its eviction until its copy, rebind and restart end)"
                            : d.recreate() ? "grow " + d.claimsToGrow().size() + " claim(s), orphan-delete and re-apply the StatefulSet"
                            : "grow " + d.claimsToGrow().size() + " claim(s)"), d));
        }
        return new Checked(r, before, null);
    }

    /** The claims a run brings to their targets: grown in place, or copied. */
    private static List<ClaimState> toTarget(Decision d) {
        List<ClaimState> all = new ArrayList<>(d.claimsToGrow());
        all.addAll(d.claimsToAwait()); // requested already, not grown: waited for (never patched) before the re-create
        all.addAll(d.claimsToCopy());
        return all;
    }

    /** The sizes a record keeps: only those known (a claim without a request has none to report). */
    private static Map<String, String> known(Map<String, String> before) {
        Map<String, String> known = new LinkedHashMap<>(before);
        known.values().removeIf(String::isEmpty);
        return known;
    }

    private static Checked stop(StatefulSetResult r) {
        return new Checked(null, Map.of(), r);
    }

    /**
     * The record a run keeps before its first write: the live object as it was, what to re-apply, the
     * claims' targets, and each claim's request before the run's first patch (a resume in a later process
     * reports "10Gi -> 20Gi" from it, where the claims it reads then already request 20Gi).
     */
    private Record record(Assessed a, Decision d, Map<String, String> claimsBefore) {
        Map<String, String> targets = new LinkedHashMap<>();
        for (ClaimState c : toTarget(d)) {
            targets.put(c.name(), c.target().toString());
        }
        // the backup keeps every field of the live object but managedFields (a create could not carry them)
        ObjectNode backup = a.live().deepCopy();
        ((ObjectNode) backup.path("metadata")).remove("managedFields");
        return new Record(server, d.namespace(), d.name(), Objects.uid(a.live()), operator, Phase.LOCK.recorded(), LeaseLock.now(clock),
                a.fieldManager(), backup, d.recreate() ? a.reapply() : null, targets, claimsBefore);
    }

    // ---- lock and record --------------------------------------------------------------------------

    /** A new run: the Lease taken and the record kept (Secret and journal) before any other write. */
    public Acquired lock(Checked checked, ConvergeOptions opts, boolean leases) {
        Record r = checked.record();
        String ns = r.namespace();
        String name = r.name();
        Acquired l = acquire(r, opts, leases, null, checked.requestsBefore());
        if (!l.held()) {
            return l;
        }
        progress.on(ProgressEvent.write(ns, name, Phase.LOCK, leases ? "Lease " + ns + "/" + LeaseLock.leaseName(name)
                + " held by " + operator + "; record kept in Secret " + ns + "/" + RecordSecret.name(name) + " and in " + journal.directory()
                : "Leases forbidden: record kept in the local journal " + journal.directory() + " only", new Write.Lock(ns, name)));
        try {
            checkpoint.afterWrite("lock " + name);
        } catch (RuntimeException e) {
            l.run().close();
            throw e;
        }
        return l;
    }

    /**
     * A stopped run taken up again under its record ({@code r}, already checked and rebuilt by the caller).
     * Only this machine's journal may vouch for a holder as our own crashed run; a Lease alone never does.
     */
    public Acquired relock(Record r, Record recorded, ConvergeOptions opts, boolean leases) {
        String ours = journal.read(r.namespace(), r.name()).map(Record::holder).orElse(null);
        // the sizes before come from the record of the run that first grew the claims: they requested the targets since
        Acquired l = acquire(r, opts, leases, ours, recorded.claimsBefore());
        if (l.held()) {
            progress.on(ProgressEvent.info(r.namespace(), r.name(), Phase.LOCK, "resuming the run of " + recorded.holder() + " started "
                    + recorded.startedAt() + " (phase " + recorded.phase() + ")"));
        }
        return l;
    }

    private Acquired acquire(Record r, ConvergeOptions opts, boolean leases, String ours, Map<String, String> before) {
        try {
            LeaseLock lock = LeaseLock.acquire(cluster, journal, clock, opts.leaseDuration(), leases, r, opts.takeOver(), ours);
            if (!lock.tookOver().isEmpty()) {
                progress.on(ProgressEvent.info(r.namespace(), r.name(), Phase.LOCK, lock.tookOver()));
            }
            return new Acquired(new Run(lock, clock.instant().plus(opts.timeout()), before), "", "");
        } catch (Locked e) {
            return new Acquired(null, Acquired.LOCKED, e.getMessage());
        } catch (LeaseLock.NotRecorded e) {
            return new Acquired(null, "record-not-kept", "the run could not keep its lock and record before its first write: "
                    + e.getMessage() + ". Nothing was written to the StatefulSet or its claims, and there is nothing to resume");
        }
    }

    /** A run refused its lock, as the CLI's result says it: blocked when someone holds it, failed when the record cannot be kept. */
    public static StatefulSetResult notLocked(Acquired l, Decision d) {
        boolean locked = l.heldByAnother();
        return result(d.namespace(), d.name(), locked ? Outcome.BLOCKED : Outcome.FAILED, l.reason(),
                l.message() + (locked ? ". Nothing was written" : ""), d);
    }

    // ---- grow, wait -------------------------------------------------------------------------------

    /**
     * Patches each claim still below its target (phase growing), re-reading it first. The phase is
     * recorded beside the claims' reads, and before any patch is sent.
     */
    public Grown grow(Run run) {
        return timed(run, "grow", () -> patchClaims(run, () -> run.lock.phase(Phase.GROW.recorded())));
    }

    /** The claims grown without a phase of their own: a resume that finds the StatefulSet absent grows before it re-applies. */
    Grown growClaims(Run run) {
        return timed(run, "grow", () -> patchClaims(run, () -> { }));
    }

    private Grown patchClaims(Run run, Runnable phase) {
        Record r = run.record();
        Runnable alongside = () -> Together.both(() -> {
            phase.run();
            return null;
        }, () -> {
            if (run.eventBaseline == null) {
                run.eventBaseline = ResizeSignals.baseline(cluster, r.namespace());
            }
        });
        List<String> patched = new ArrayList<>();
        run.patched.clear();
        Map<String, String> before = grower.grow(r.namespace(), r.name(), r.claimTargets(), (claim, answer) -> {
            patched.add(claim);
            run.patched.put(claim, answer);
        }, alongside);
        before.forEach(run.before::putIfAbsent);
        return new Grown(Collections.unmodifiableMap(new LinkedHashMap<>(run.before)), List.copyOf(patched));
    }

    /**
     * Follows each claim by watch until its capacity reaches the target, its file system waits for a
     * pod, or the deadline; ended early by a stop request or by the driver going on ({@link Run#goOn}).
     */
    public Waited await(Run run, ConvergeOptions opts) {
        return timed(run, "wait", () -> awaitClaims(run, opts));
    }

    private Waited awaitClaims(Run run, ConvergeOptions opts) {
        Record r = run.record();
        String ns = r.namespace();
        ClaimGrower.Awaited awaited = grower.await(ns, r.name(), r.claimTargets(), run.before, run.deadline, run.goingOn,
                run.eventBaseline, Map.copyOf(run.patched));
        Map<String, ClaimGrower.ClaimStatus> statuses = awaited.claims();
        List<String> infeasible = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        List<String> waiting = new ArrayList<>();
        for (ClaimGrower.ClaimStatus s : statuses.values()) {
            switch (s.state()) {
                case INFEASIBLE -> infeasible.add(s.name() + ": " + s.message());
                case GONE -> gone.add(s.name());
                case WAITING, REQUESTED_LESS -> {
                    if (!awaited.failed().containsKey(s.name())) {
                        waiting.add(s.name() + ": " + s.message());
                    }
                }
                case FILE_SYSTEM_PENDING -> progress.on(ProgressEvent.info(ns, r.name(), Phase.GROW, "claim " + s.name()
                        + ": FileSystemResizePending, " + s.message()
                        + (opts.restartPodsForResize() ? "; followed after the re-apply, its pod restarted if the kubelet cannot grow it online"
                                : "; followed after " + (run.recreates() ? "the re-apply" : "the grow") + ": the end of the run says whether the pod can use it")));
                default -> { }
            }
        }
        List<String> failed = new ArrayList<>();
        awaited.failed().forEach((claim, why) -> failed.add(why));
        return new Waited(List.copyOf(statuses.values()), infeasible, failed, gone, waiting, stop().requested(), run.goingOn.requested());
    }

    // ---- orphan-delete, re-apply, verify ----------------------------------------------------------

    /**
     * The orphan delete of the recorded UID (phase deleting), then a watch until it is gone, and the
     * pods and claims read again. Its precondition, checked before any request: the operator allowed
     * the delete of exactly this StatefulSet and UID; without it nothing is sent.
     */
    public Deleted orphanDelete(Run run, DeleteAllowed allowed) {
        Record r = run.record();
        String ns = r.namespace();
        String name = r.name();
        if (allowed == null || !allowed.equals(new DeleteAllowed(ns, name, r.uid()))) {
            throw new NotAllowed("the orphan delete of StatefulSet " + ns + "/" + name + " (UID " + r.uid()
                    + ") was refused: the operator has not allowed it at the gate (typed its name, or answered yes)");
        }
        stopIfLost(run);
        return timed(run, "orphan-delete", () -> deleteAndWait(run));
    }

    private Deleted deleteAndWait(Run run) {
        Record r = run.record();
        String ns = r.namespace();
        String name = r.name();
        // the pods and claims read beside the phase's write, both before the delete: from the recorded object,
        // whose selector is the one standing (immutable; the delete's UID precondition refuses any other object)
        run.dependents = Together.both(() -> Dependents.read(cluster, r.live(), r.uid(), r.claimTargets().keySet()),
                () -> run.lock.phase(Phase.ORPHAN_DELETE.recorded()));
        OrphanDelete.Result del = new OrphanDelete(cluster, waiter, events, progress, checkpoint).run(ns, name, r.uid(), run.deadline);
        if (!del.gone()) {
            return new Deleted(false, del.nothingDeleted(), del.message(), "");
        }
        // the pods and claims read again beside what the re-apply needs before it writes (its phase, its dry run),
        // which changes none of them; a copy evicts next, and proves nothing here
        java.util.concurrent.Future<Reapply.Proved> proved = r.copies() ? null : Together.start(() -> reapplier().prove(r,
                () -> run.lock.phase(Phase.REAPPLY.recorded())));
        Dependents after;
        try {
            after = Dependents.read(cluster, r.live(), r.uid(), r.claimTargets().keySet());
        } finally {
            run.proved = proved == null ? null : Together.join(proved);
        }
        String lost = after.lostSince(run.dependents);
        if (!lost.isEmpty()) {
            progress.on(ProgressEvent.warn(ns, name, Phase.ORPHAN_DELETE, "after the orphan delete: " + lost));
        }
        return new Deleted(true, false, "", lost);
    }

    private Reapply reapplier() {
        return new Reapply(cluster, events, progress, checkpoint);
    }

    /** The pods and claims of the recorded StatefulSet as they are, for a run resumed past its delete. */
    void readDependents(Run run) {
        Record r = run.record();
        run.dependents = Dependents.read(cluster, r.live(), r.uid(), r.claimTargets().keySet());
    }

    /** The server-side apply of the object to re-apply (phase reapplying), dry run first; the backup restored if it fails. */
    public Reapplied reapply(Run run) {
        stopIfLost(run);
        Record r = run.record();
        Reapply.Proved proved = run.proved;
        run.proved = null;
        Reapply.Result ra = timed(run, "re-apply", () -> proved != null ? reapplier().run(r, proved) : reapplier().run(r,
                () -> run.lock.phase(Phase.REAPPLY.recorded())));
        run.standing = ra.statefulSet();
        run.restored = ra.restored();
        run.reapplyMessage = ra.message();
        return new Reapplied(ra.statefulSet(), ra.restored(), ra.message());
    }

    /**
     * The adoption, read back from the objects (phase verifying): each pod's controller is the standing
     * StatefulSet, pod UIDs unchanged, claims' owners back. A run resumed after its re-apply reads the
     * StatefulSet standing now.
     */
    public Verified verify(Run run) {
        Record r = run.record();
        String ns = r.namespace();
        String name = r.name();
        if (run.standing == null) {
            run.standing = cluster.getStatefulSet(ns, name).orElseThrow();
            run.dependents = Dependents.read(cluster, run.standing, Objects.uid(run.standing), r.claimTargets().keySet());
        }
        // the phase is recorded while the adoption is read (it protects no write of the verification), and the claims are
        // read for the file systems' first look, which follows at once
        List<java.util.concurrent.Callable<Object>> alongside = new ArrayList<>();
        alongside.add(() -> {
            run.lock.phase(Phase.VERIFY.recorded());
            return null;
        });
        Map<String, Optional<ObjectNode>> claims = new java.util.concurrent.ConcurrentHashMap<>();
        for (String claim : r.claimTargets().keySet()) {
            alongside.add(() -> claims.put(claim, cluster.getClaim(ns, claim)));
        }
        Instant readAt = clock.instant();
        AdoptionCheck.Result v = timed(run, "verify", () -> new AdoptionCheck(cluster, waiter).verify(run.standing, run.dependents,
                Metadata.textOrEmpty(r.live(), "status", "currentRevision"), run.deadline, alongside));
        run.seen = new FileSystems.Seeds(readAt, Map.copyOf(claims), v.seen());
        progress.on(v.adopted() ? ProgressEvent.info(ns, name, Phase.VERIFY, v.detail())
                : ProgressEvent.warn(ns, name, Phase.VERIFY, v.detail()));
        return new Verified(v.adopted(), v.pods(), v.detail());
    }

    // ---- the copy migration (CopySteps) -----------------------------------------------------------

    /** The phase recorded (Lease and journal) before the writes of {@code phase}. */
    void recordPhase(Run run, Phase phase) {
        stopIfLost(run);
        run.lock.phase(phase.recorded());
    }

    void retainOld(Run run) {
        timed(run, "retain", () -> {
            recordPhase(run, Phase.RETAIN);
            copies.retainOld(run);
            return null;
        });
    }

    void evict(Run run, ConvergeOptions opts) {
        timed(run, "evict", () -> {
            recordPhase(run, Phase.EVICT);
            int ordinal = run.record().copy().current();
            Instant start = clock.instant();
            if (copies.evict(run, ordinal, clock.instant().plus(opts.timeout()))) {
                run.downSince.putIfAbsent(ordinal, start);
            }
            return null;
        });
    }

    void copy(Run run, ConvergeOptions opts) {
        timed(run, "copy", () -> {
            recordPhase(run, Phase.COPY);
            copies.copy(run, run.record().copy().current(), clock.instant().plus(opts.timeout()));
            return null;
        });
    }

    void rebind(Run run, ConvergeOptions opts) {
        timed(run, "rebind", () -> {
            recordPhase(run, Phase.REBIND);
            copies.rebind(run, run.record().copy().current(), clock.instant().plus(opts.timeout()));
            return null;
        });
    }

    /**
     * The pod of the ordinal just copied, Ready under the StatefulSet standing; then the ordinal is recorded done, with
     * the standing UID as the one the next orphan delete may delete. False when the pod is not Ready by the deadline.
     */
    boolean podReady(Run run, ConvergeOptions opts) {
        return timed(run, "pod-ready", () -> {
            Record r = run.record();
            if (run.standing == null) {
                run.standing = cluster.getStatefulSet(r.namespace(), r.name()).orElseThrow(() -> new CopySteps.CopyStopped(
                        "StatefulSet " + r.namespace() + "/" + r.name() + " is gone after its re-apply: someone deleted it"));
            }
            int ordinal = r.copy().current();
            if (ordinal < 0) {
                return true;
            }
            String uid = Objects.uid(run.standing);
            boolean pod = ordinal >= replicas(run.standing)
                    || copies.podReady(run, ordinal, uid, clock.instant().plus(opts.timeout()));
            if (pod) {
                Instant down = run.downSince.get(ordinal);
                if (down != null) {
                    run.downFor.put(ordinal, java.time.Duration.between(down, clock.instant()));
                }
                run.lock.update(r.withStanding(run.standing).withCopy(r.copy().ordinalDone(ordinal)));
                run.standing = null;
            }
            return pod;
        });
    }

    private static int replicas(ObjectNode sts) {
        return sts.path("spec").path("replicas").asInt(1);
    }

    void reclaim(Run run) {
        timed(run, "reclaim", () -> {
            recordPhase(run, Phase.RECLAIM);
            copies.reclaim(run);
            return null;
        });
    }

    /**
     * A copy that stopped with its ordinal's claims intact (nothing of them deleted): the StatefulSet re-applied so the
     * evicted pod comes back on its original claims, its UID recorded, and the record kept for {@code resume}. Past an
     * original claim's delete nothing is re-applied: the StatefulSet would create that claim empty.
     */
    StatefulSetResult copyStopped(Run run, CopySteps.CopyStopped stopped, boolean statefulSetAbsent) {
        String said = stopped.getMessage() + (statefulSetAbsent ? reapplyIfIntact(run) : "");
        return result(run, Outcome.FAILED, "copy-stopped", said + ". The run is recorded: `kubectl stsresize resume " + run.namespace()
                + "/" + run.name() + "` goes on from here", List.of());
    }

    /**
     * The StatefulSet re-applied, so the evicted pod comes back on its original claims, when the ordinal's claims are intact
     * (none deleted yet) and the StatefulSet is absent; its UID recorded. Says what it did ("" when nothing).
     */
    String reapplyIfIntact(Run run) {
        if (!claimsIntact(run) || cluster.getStatefulSet(run.namespace(), run.name()).isPresent()) {
            return "";
        }
        Reapplied ra = reapply(run);
        if (ra.statefulSet() == null) {
            return "";
        }
        run.lock.update(run.record().withStanding(ra.statefulSet()));
        return ". The StatefulSet is re-applied: its pods are back on their claims";
    }

    /** Whether every claim of the ordinal being copied stands as it was (its recorded UID, not being deleted) or has moved. */
    private boolean claimsIntact(Run run) {
        Record r = run.record();
        for (CopyProgress.CopiedClaim c : r.copy().claimsOf(r.copy().current())) {
            Optional<ObjectNode> claim = cluster.getClaim(r.namespace(), c.claim());
            if (claim.isEmpty() || claim.get().path("metadata").hasNonNull("deletionTimestamp")) {
                return false;
            }
            boolean original = Objects.uid(claim.get()).equals(c.uid());
            boolean moved = !c.newVolume().isEmpty() && c.newVolume().equals(claim.get().path("spec").path("volumeName").asText())
                    && "Bound".equals(claim.get().path("status").path("phase").asText());
            if (!original && !moved) {
                return false;
            }
        }
        return true;
    }

    /**
     * The end of a copy, read back from the objects: each claim Bound under its own name to the volume its copy went to,
     * at the target; each pod Ready under the StatefulSet standing. Released; the old volumes listed with the command that
     * frees them once the operator has checked the application.
     */
    StatefulSetResult copied(Run run) {
        Record r = run.record();
        String ns = r.namespace();
        stopIfLost(run);
        // the phase (it protects no write: the release follows), the StatefulSet and every claim together; then its pods
        List<CopyProgress.CopiedClaim> copied = List.copyOf(r.copy().claims().values());
        List<java.util.concurrent.Callable<Optional<ObjectNode>>> reads = new ArrayList<>();
        reads.add(() -> {
            run.lock.phase(Phase.VERIFY.recorded());
            return Optional.empty();
        });
        reads.add(() -> cluster.getStatefulSet(ns, r.name()));
        copied.forEach(c -> reads.add(() -> cluster.getClaim(ns, c.claim())));
        List<Optional<ObjectNode>> read = Together.all(reads);
        ObjectNode sts = read.get(1).orElse(null);
        List<java.util.concurrent.Callable<Optional<ObjectNode>>> podReads = new ArrayList<>();
        for (int i = 0; sts != null && i < replicas(sts); i++) {
            String pod = r.name() + "-" + i;
            podReads.add(() -> cluster.getPod(ns, pod));
        }
        List<Optional<ObjectNode>> podsRead = Together.all(podReads);
        List<String> problems = new ArrayList<>();
        List<String> old = new ArrayList<>();
        List<StatefulSetResult.ClaimResult> claims = new ArrayList<>();
        for (int k = 0; k < copied.size(); k++) {
            CopyProgress.CopiedClaim c = copied.get(k);
            Optional<ObjectNode> claim = read.get(2 + k);
            String capacity = claim.map(x -> Metadata.textOrEmpty(x, "status", "capacity", "storage")).orElse("");
            String on = claim.map(x -> x.path("spec").path("volumeName").asText("")).orElse("");
            Quantity target = Quantity.parse(r.claimTargets().get(c.claim()));
            Quantity cap = Quantity.parseOrNull(capacity);
            if (claim.isEmpty() || !on.equals(c.newVolume()) || cap == null || cap.isLessThan(target)) {
                problems.add("claim " + c.claim() + (claim.isEmpty() ? " is missing" : " is on " + (on.isEmpty() ? "no volume" : on)
                        + " at " + (capacity.isEmpty() ? "no capacity" : capacity) + ", not on " + c.newVolume() + " at " + target));
            }
            old.add(c.oldVolume());
            old.addAll(c.abandoned());
            dev.stsresize.cluster.CopyVerified proof = run.proofs.get(c.claim());
            claims.add(new StatefulSetResult.ClaimResult(c.claim(), run.before.getOrDefault(c.claim(), ""), target.toString(), capacity)
                    .withCopied(new StatefulSetResult.Copied(c.oldVolume(), c.newVolume(), proof == null ? -1 : proof.files(),
                            proof == null ? -1 : proof.bytes(), proof == null ? "" : proof.fileSystem())));
        }
        List<StatefulSetResult.PodResult> pods = new ArrayList<>();
        if (sts == null) {
            problems.add("StatefulSet " + ns + "/" + r.name() + " is gone");
        } else {
            for (int i = 0; i < replicas(sts); i++) {
                String pod = r.name() + "-" + i;
                Optional<ObjectNode> p = podsRead.get(i);
                boolean copiedPod = !r.copy().claimsOf(i).isEmpty();
                if (p.isEmpty() || !Objects.ownedBy(p.get(), Objects.uid(sts)) || !CopySteps.ready(p.get())) {
                    problems.add("pod " + pod + (p.isEmpty() ? " is missing" : " is not Ready under the StatefulSet"));
                }
                pods.add(new StatefulSetResult.PodResult(pod, "", p.map(Objects::uid).orElse(""), copiedPod));
            }
        }
        release(run);
        checkpoint.afterWrite("release " + r.name());
        old.removeIf(String::isEmpty);
        String free = old.isEmpty() ? "" : "; the old volumes are kept (Released, Retain): " + String.join(", ", old)
                + ". Once the application is checked, free them with: kubectl delete pv " + String.join(" ", old);
        if (!problems.isEmpty()) {
            return told(new StatefulSetResult(ns, r.name(), Outcome.FAILED, "not-verified", "the copy is not verified from the"
                    + " objects: " + String.join("; ", problems) + free, claims, pods, List.of(), phasesOf(run)));
        }
        List<String> downtimes = new ArrayList<>();
        run.downFor.forEach((ordinal, took) -> downtimes.add(r.name() + "-" + ordinal + " "
                + new StatefulSetResult.PhaseTime("", took).words()));
        for (int ordinal : r.copy().done()) {
            if (!run.downFor.containsKey(ordinal) && !r.copy().claimsOf(ordinal).isEmpty()) {
                downtimes.add(r.name() + "-" + ordinal + " not measured here (taken down by an earlier process of the run)");
            }
        }
        return told(new StatefulSetResult(ns, r.name(), Outcome.CONVERGED, "", claims.size() + " claim(s) copied to bigger volumes"
                + " under their own names, one pod at a time, each verified file by file; every pod Ready under the re-applied"
                + " StatefulSet" + (downtimes.isEmpty() ? "" : " (each pod down from its eviction until Ready: " + String.join(", ", downtimes)
                + ")") + free, claims, pods, List.of(), phasesOf(run)));
    }

    // ---- restart pods -----------------------------------------------------------------------------

    /** The pods a run restarted for their file systems (by name), and what stopped the restarts (empty when nothing did). */
    public record Restarts(List<String> pods, List<String> problems) {
        static final Restarts NONE = new Restarts(List.of(), List.of());
    }

    /** After the adoption: the pod of each of {@code claims} whose file system still waits is evicted, one at a time. */
    Restarts restartPods(Run run, List<String> claims) {
        return timed(run, "restart", () -> restartEach(run, claims));
    }

    private Restarts restartEach(Run run, List<String> claims) {
        Record r = run.record();
        String ns = r.namespace();
        List<String> problems = new ArrayList<>();
        List<String> evicted = new ArrayList<>();
        PodRestarter restarter = new PodRestarter(cluster, waiter, events, progress, checkpoint);
        for (String claim : claims) {
            Quantity target = Quantity.parse(r.claimTargets().get(claim));
            ClaimGrower.ClaimStatus s = grower.read(ns, claim, run.before.getOrDefault(claim, ""), target);
            if (s.state() == ClaimGrower.State.FILE_SYSTEM_PENDING) {
                if (stop().requested()) {
                    problems.add("pod restarts stopped (" + stop().reason() + ") before claim " + claim + "'s pod: restart it"
                            + " to finish its file system resize");
                    break;
                }
                String problem = restarter.restartFor(run.standing, claim, target, run.deadline, evicted::add);
                if (!problem.isEmpty()) {
                    problems.add(problem);
                    break;
                }
            }
        }
        return new Restarts(List.copyOf(evicted), problems);
    }

    /**
     * Restarts, one at a time through the Eviction API, the pods whose claims wait for a file system
     * resize, for a run that ended without restarting them (a terminal UI offers it once it has shown
     * the adoption). Only while the StatefulSet stands and is the controller of each pod: a pod evicted
     * while it is absent or orphaned is not re-created. Each pod is Ready again, and its claim at
     * capacity, before the next. Answers "" when every restart finished, else what stopped it.
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
        PodRestarter restarter = new PodRestarter(cluster, waiter, events, progress, checkpoint);
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

    // ---- release, and the result --------------------------------------------------------------------

    /** The Lease given back and the record deleted (Secret and journal): the run is over. */
    public void release(Run run) {
        run.lock.release();
    }

    /** A run that only grew claims (the templates already declared the sizes): released, and its result. */
    public StatefulSetResult claimsGrown(Run run) {
        java.util.concurrent.Future<List<ClaimRead>> claims = readClaims(run);
        release(run);
        return build(run, Outcome.CLAIMS_GROWN, "", "claims grown; the StatefulSet's templates already declared the sizes", List.of(),
                claims);
    }

    /** The operator said no at the delete gate: released with the claims grown and the StatefulSet untouched. */
    public StatefulSetResult declined(Run run) {
        release(run);
        return result(run, Outcome.FAILED, "declined", "the operator declined the orphan delete: the claims are grown,"
                + " the StatefulSet is untouched (its template still declares the old size). Run again to finish", List.of());
    }

    /**
     * A delete that did not end with the StatefulSet gone: refused with nothing deleted (released), or
     * not finished (the record kept for resume).
     */
    public StatefulSetResult deleteFailed(Run run, Deleted del) {
        if (del.nothingDeleted()) {
            release(run);
            return result(run, Outcome.FAILED, "delete-refused", del.message(), List.of());
        }
        return result(run, Outcome.FAILED, "delete-incomplete", del.message() + ". The run is recorded: `kubectl"
                + " stsresize resume` finishes it", List.of());
    }

    /** Neither the re-apply nor the restore left a StatefulSet standing: the record is kept for resume. */
    public StatefulSetResult reapplyFailed(Run run, Reapplied ra) {
        return result(run, Outcome.FAILED, "reapply-failed", ra.message(), List.of());
    }

    /**
     * The end of a run that re-applied: released, and converged when the adoption was verified; a
     * restored backup or an adoption not verified is a failure, said with what was read back. The pods
     * this run restarted for their file systems are said as restarted, with the UIDs they have now. Not
     * told yet: {@link #told} says it once the file systems are known.
     */
    public StatefulSetResult verified(Run run, Verified v, Restarts restarts) {
        // the claims are read for the result while the run is released: nothing of the release changes them
        java.util.concurrent.Future<List<ClaimRead>> claims = readClaims(run);
        if (run.restored) {
            release(run);
            return build(run, Outcome.FAILED, "reapply-failed", run.reapplyMessage + ". " + v.detail(), v.pods(), claims);
        }
        release(run);
        checkpoint.afterWrite("release " + run.name());
        if (!v.adopted()) {
            return build(run, Outcome.FAILED, "not-verified", v.detail(), v.pods(), claims);
        }
        List<StatefulSetResult.PodResult> pods = new ArrayList<>();
        for (StatefulSetResult.PodResult p : v.pods()) {
            if (restarts.pods().contains(p.name())) {
                String now = cluster.getPod(run.namespace(), p.name()).map(Objects::uid).orElse("");
                pods.add(new StatefulSetResult.PodResult(p.name(), p.uidBefore(), now, true));
            } else {
                pods.add(p);
            }
        }
        String detail = v.detail();
        if (!restarts.pods().isEmpty()) {
            String unchanged = v.pods().size() + " pod(s) with unchanged UIDs";
            String said = restarts.pods().size() + " of " + v.pods().size() + " pod(s) restarted by this run for their file systems ("
                    + String.join(", ", restarts.pods()) + ")"
                    + (restarts.pods().size() < v.pods().size() ? ", the others with unchanged UIDs" : "");
            detail = detail.contains(unchanged) ? detail.replace(unchanged, said) : detail + "; " + said;
        }
        detail += restarts.problems().isEmpty() ? "" : "; " + String.join("; ", restarts.problems());
        return build(run, Outcome.CONVERGED, "", detail, pods, claims);
    }

    /** A result built quietly ({@link #verified}, {@link #claimsGrown}) said to the {@link Progress} now: its last event. */
    public StatefulSetResult told(StatefulSetResult r) {
        events.flush(); // the run's Events written, and what they had to say said, before its last word
        progress.on(new ProgressEvent(r.namespace(), r.name(), Phase.RECORD, r.outcome().label() + ": " + r.detail(), null,
                r.outcome() == Outcome.FAILED));
        return r;
    }

    /**
     * After the re-apply ({@code v}, the adoption verified) or the claims-only grow ({@code v} null): each
     * claim followed to its file system, bounded by {@code --fs-timeout}; with {@code --restart-pods-for-resize}
     * the pods whose file system still waits restarted one at a time; released; and the result says, claim
     * by claim and in its detail, whether the pods can write to the new space now. A set with fewer ready
     * replicas than before the run is warned about. {@code goneOn} ends the waits (the driver went on).
     */
    public StatefulSetResult fileSystems(Run run, Verified v, ConvergeOptions opts, StopRequest goneOn) {
        Record r = run.record();
        String ns = r.namespace();
        String name = r.name();
        Instant deadline = clock.instant().plus(opts.fsTimeout());
        progress.on(ProgressEvent.info(ns, name, Phase.FILE_SYSTEMS, "following each claim to its file system (up to --fs-timeout "
                + dev.stsresize.cluster.KubectlDuration.format(opts.fsTimeout()) + ")"));
        FileSystems fs = new FileSystems(cluster, waiter, clock);
        if (run.seen != null) {
            fs.seed(run.seen);
            run.seen = null;
        }
        Map<String, FileSystems.Checked> checked = timed(run, "file-systems", () -> fs.follow(ns, name, r.claimTargets(), deadline, goneOn,
                () -> grower.readAll(ns, r.claimTargets(), run.before)));
        Restarts restarts = Restarts.NONE;
        if (v != null && opts.restartPodsForResize() && !run.restored()) {
            List<String> waiting = new ArrayList<>();
            checked.values().stream().filter(c -> c.state() == FileSystem.WAITS_FOR_RESTART
                    || c.state() == FileSystem.PENDING && c.bytes() < 0).forEach(c -> waiting.add(c.claim()));
            restarts = restartPods(run, waiting);
            fs.forget(); // pods restarted: their pods and the kubelets' summaries are read anew
            for (String claim : waiting) {
                checked.put(claim, fs.check(ns, name, claim, Quantity.parse(r.claimTargets().get(claim)), cluster.getClaim(ns, claim)));
            }
        }
        // the StatefulSet's ready replicas read beside the release and the result's claims: nothing of the release changes them
        java.util.concurrent.Future<Optional<ObjectNode>> standing = readyBefore(run) > 0
                ? Together.start(() -> cluster.getStatefulSet(ns, name)) : null;
        StatefulSetResult base = v == null ? claimsGrown(run) : verified(run, v, restarts);
        List<StatefulSetResult.ClaimResult> claims = new ArrayList<>();
        for (StatefulSetResult.ClaimResult c : base.claims()) {
            FileSystems.Checked k = checked.get(c.name());
            claims.add(k == null ? c : c.withFileSystem(k.state(), k.bytes()));
            if (k != null) {
                // "grown: the kubelet reports 20Gi", not "grown - grown: …": a why that starts with the state says it once
                String said = k.why().startsWith(k.state().label()) ? k.why() : k.state().label() + " - " + k.why();
                progress.on(new ProgressEvent(ns, name, Phase.FILE_SYSTEMS, "claim " + c.name() + ": file system " + said, null,
                        k.state().keepsAPodWaiting()));
            }
        }
        List<String> warnings = new ArrayList<>(base.warnings());
        for (FileSystems.Checked k : checked.values()) {
            if (k.state() == FileSystem.PENDING && k.bytes() >= 0) {
                warnings.add(ClaimWarnings.FS_PENDING_PREFIX.formatted(k.claim()) + " on pod " + k.pod() + ": " + k.why()
                        + "; check again at the kubelet's next volume measure (its volumeStatsAggPeriod, 1m by default) with"
                        + " `kubectl stsresize usage`");
            }
        }
        readyReplicas(run, deadline, goneOn, standing).ifPresent(warnings::add);
        String said = FileSystems.sentence(claims);
        String detail = said.isEmpty() ? base.detail() // no claim followed (none grown by this run): nothing to add
                : base.detail() + "; " + said + (fs.summaryNote().isEmpty() ? "" : " (" + fs.summaryNote() + ")");
        return told(base.with(detail, claims, base.pods(), warnings).withPhases(phasesOf(run)));
    }

    /**
     * A warning when the StatefulSet has fewer ready replicas than it had before the run (the recorded
     * object's status), after waiting for them until {@code deadline}: a restart or a recreate that left
     * a pod unready is said, never hidden behind "converged". The wait starts from {@code standing}, the
     * StatefulSet as read beside the release (null: not read, when there were no ready replicas before).
     */
    private Optional<String> readyReplicas(Run run, Instant deadline, StopRequest goneOn,
            java.util.concurrent.Future<Optional<ObjectNode>> standing) {
        Record r = run.record();
        int before = readyBefore(run);
        if (before <= 0 || standing == null) {
            return Optional.empty();
        }
        ObjectNode read = Together.join(standing).orElse(null);
        Waiter.Result w = waiter.until(Waiter.Wait.of(r.namespace(), r.name(), Phase.FILE_SYSTEMS, "StatefulSet " + r.name() + " to have "
                + before + " ready replica(s) again", dev.stsresize.cluster.WatchedKind.STATEFUL_SET, r.name(),
                s -> s.isPresent() && s.get().path("status").path("readyReplicas").asInt(0) >= before, deadline).withGoneOn(goneOn)
                .from(read));
        if (w.reached()) {
            return Optional.empty();
        }
        int now = w.object().map(s -> s.path("status").path("readyReplicas").asInt(0)).orElse(0);
        return Optional.of("StatefulSet " + r.namespace() + "/" + r.name() + " has " + now + " ready replica(s), " + before
                + " before this run: its pods may not be serving; see `kubectl get pods -n " + r.namespace() + "` and `kubectl describe"
                + " statefulset " + r.name() + " -n " + r.namespace() + "`");
    }

    /** The StatefulSet's ready replicas before the run, as its record keeps the live object. */
    private static int readyBefore(Run run) {
        return run.record().live().path("status").path("readyReplicas").asInt(0);
    }

    /**
     * How the run ended, with every claim re-read: its capacity as it is, and what still waits. The
     * last thing a run tells its {@link Progress}.
     */
    public StatefulSetResult result(Run run, Outcome outcome, String reason, String detail, List<StatefulSetResult.PodResult> pods) {
        return told(build(run, outcome, reason, detail, pods));
    }

    /** {@link #result} without telling it. */
    private StatefulSetResult build(Run run, Outcome outcome, String reason, String detail, List<StatefulSetResult.PodResult> pods) {
        return build(run, outcome, reason, detail, pods, readClaims(run));
    }

    /** {@link #build} from the claims read by {@code read} (started earlier, beside other requests). */
    private StatefulSetResult build(Run run, Outcome outcome, String reason, String detail, List<StatefulSetResult.PodResult> pods,
            java.util.concurrent.Future<List<ClaimRead>> read) {
        Record r = run.record();
        List<StatefulSetResult.ClaimResult> claims = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (ClaimRead c : Together.join(read)) {
            String capacity = c.claim().map(x -> Metadata.textOrEmpty(x, "status", "capacity", "storage")).orElse("");
            claims.add(new StatefulSetResult.ClaimResult(c.name(), run.before.getOrDefault(c.name(), ""), c.target(), capacity));
            c.warning().ifPresent(warnings::add);
        }
        return new StatefulSetResult(r.namespace(), r.name(), outcome, reason, detail, claims, pods, warnings, phasesOf(run));
    }

    /** One claim of a run as its result says it: read now (empty: gone), with its warning. */
    private record ClaimRead(String name, String target, Optional<ObjectNode> claim, Optional<String> warning) {}

    /** Every claim of the run read together, each with its warning, sent now: {@link Together#join} the answer. */
    private java.util.concurrent.Future<List<ClaimRead>> readClaims(Run run) {
        Record r = run.record();
        List<java.util.concurrent.Callable<ClaimRead>> reads = new ArrayList<>();
        for (Map.Entry<String, String> t : r.claimTargets().entrySet()) {
            reads.add(() -> {
                Optional<ObjectNode> c = cluster.getClaim(r.namespace(), t.getKey());
                return new ClaimRead(t.getKey(), t.getValue(), c,
                        c.flatMap(x -> ClaimWarnings.of(cluster, r.namespace(), r.name(), x, Quantity.parse(t.getValue()))));
            });
        }
        return Together.start(() -> Together.all(reads));
    }

    private static List<StatefulSetResult.PhaseTime> phasesOf(Run run) {
        List<StatefulSetResult.PhaseTime> phases = new ArrayList<>();
        run.phases.forEach((phase, took) -> phases.add(new StatefulSetResult.PhaseTime(phase, took)));
        return phases;
    }

    private static void stopIfLost(Run run) {
        if (run.lock.lost() != null) {
            throw new Locked(run.lock.lost() + " while this run worked; it stops here. The journal keeps the record");
        }
    }

    static StatefulSetResult result(String ns, String name, Outcome outcome, String reason, String detail, Decision d) {
        List<StatefulSetResult.ClaimResult> claims = new ArrayList<>();
        for (ClaimState c : toTarget(d)) {
            claims.add(new StatefulSetResult.ClaimResult(c.name(), c.request() == null ? "" : c.request().toString(),
                    c.target().toString(), c.capacity() == null ? "" : c.capacity().toString()));
        }
        return new StatefulSetResult(ns, name, outcome, reason, detail, claims, List.of(), d.warnings());
    }
}
