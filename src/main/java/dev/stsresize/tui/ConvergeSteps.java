package dev.stsresize.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Assessment;
import dev.stsresize.converge.Assessor;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.Gate;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.PendingRun;
import dev.stsresize.converge.ProgressEvent;
import dev.stsresize.converge.RunRecords;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.converge.Steps;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The wizard's steps, each one call of the Converger's {@link Steps}, one per effect: CHECK assesses
 * the one StatefulSet again (read, decide, every access review and dry run) and checks it; GROW takes
 * the Lease, keeps the record and patches the claims; WAIT follows each claim until its capacity
 * reaches the target (or its file system waits for a pod restart), as {@code --wait-for-resize} does,
 * unless the operator goes on ({@code c}), while the Lease holds the run; ORPHAN_DELETE runs only
 * once the wizard's name gate passed, and the step itself checks that the operator allowed the delete
 * of this StatefulSet and UID; REAPPLY and VERIFY follow, VERIFY ending with the result read back
 * from the objects ({@link Summary}), the Lease released. Leaving before the delete releases the Lease
 * and the record with nothing deleted. RESTART evicts, one at a time, the pods whose file system waits,
 * once the StatefulSet stands again; RESUME finishes an interrupted run as {@code resume} does.
 */
public final class ConvergeSteps implements StepRunner {
    private static final Duration POLL = Duration.ofMillis(750);
    /** How long closing the UI waits for the runs it finishes (UiCommand says "up to a minute"). */
    private static final Duration FINISHING = Duration.ofSeconds(60);

    private final Cluster cluster;
    private final Clock clock;
    private final Journal journal;
    private final String operator;
    private final String server;
    private final Function<Decision, ObjectNode> declared;
    private final ConvergeOptions options;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /**
     * @param declared the manifest's object for a decision (the last one the decision source read)
     * @param options the steps' options (no dry run: the wizard writes; it waits for capacity itself)
     */
    public ConvergeSteps(Cluster cluster, Clock clock, Journal journal, String operator, String server,
            Function<Decision, ObjectNode> declared, ConvergeOptions options) {
        this.cluster = cluster;
        this.clock = clock;
        this.journal = journal;
        this.operator = operator;
        this.server = server;
        this.declared = declared;
        this.options = options.withWaitForResize(false).withDryRun(false);
    }

    /** One wizard's run: its check, the run the steps hold between the operator's gates, and how it ended. */
    static final class Session {
        final Assessed assessed;
        final boolean leases;
        final Steps.Checked checked;
        final Steps steps;
        /** The steps that write, one at a time, on a thread the UI does not interrupt; leaving is queued behind them. */
        final ExecutorService worker;
        final Set<String> restarted = ConcurrentHashMap.newKeySet();
        volatile Progress progress;
        volatile Steps.Run run;
        volatile boolean goOn;
        volatile boolean nameGatePassed;
        volatile boolean deleted;
        volatile boolean reapplied;
        volatile boolean restored;
        volatile String reapplyMessage = "";
        volatile boolean warned;
        volatile String lastWrite = "";
        volatile StatefulSetResult ended;

        Session(Assessed assessed, boolean leases, Steps.Checked checked, Function<Session, Steps> steps) {
            this.assessed = assessed;
            this.leases = leases;
            this.checked = checked;
            this.steps = steps.apply(this);
            this.worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "stsresize-steps-" + key());
                t.setDaemon(true);
                return t;
            });
        }

        /** What the steps say, told to the step running now. */
        void on(ProgressEvent e) {
            Progress p = progress;
            warned |= e.warning();
            if (!e.kubectl().isEmpty()) {
                lastWrite = e.message();
            }
            if (p != null) {
                report(p, e);
            }
        }

        String key() {
            return Metadata.key(assessed.namespace(), assessed.name());
        }

        /**
         * The run's end: its result kept (null after a crash), the Lease no longer renewed — released
         * before, or left with the record for resume — and nothing more done with it.
         */
        void end(StatefulSetResult r) {
            ended = r;
            Steps.Run held = run;
            run = null;
            if (held != null) {
                held.close();
            }
        }
    }

    @Override
    public Outcome run(WizardStep step, Decision decision, String uid, Progress progress) throws InterruptedException {
        String key = Loaded.key(decision);
        if (step == WizardStep.CHECK) {
            return check(decision, uid, progress);
        }
        if (step == WizardStep.RESUME) {
            return resume(decision, progress);
        }
        Session s = sessions.get(key);
        if (s == null) {
            return Outcome.failed("no check ran for " + key + " in this wizard: leave it and open it again");
        }
        return switch (step) {
            case CHECK, RESUME -> throw new IllegalStateException("handled above");
            // on the caller's thread, so that leaving the wizard interrupts them: the wait reads only, the
            // restart evicts from a thread of its own
            case WAIT -> await(s, progress);
            case RESTART -> {
                s.progress = progress; // its evictions are told as they happen
                try {
                    yield restart(s, progress);
                } finally {
                    s.progress = null;
                }
            }
            case GROW -> onWorker(s, progress, () -> grow(s, progress));
            case ORPHAN_DELETE -> onWorker(s, progress, () -> orphanDelete(s, uid, progress));
            case REAPPLY -> onWorker(s, progress, () -> reapply(s));
            case VERIFY -> onWorker(s, progress, () -> verify(s, progress));
        };
    }

    /**
     * A step that writes runs on the session's own thread, which the UI never interrupts: an operator
     * who quits while it runs stops waiting for it, not the write half-way (the run is then left, or
     * finished, by {@link #leave}, queued behind it).
     */
    private Outcome onWorker(Session s, Progress progress, Callable<Outcome> step) throws InterruptedException {
        Future<Outcome> f = s.worker.submit(() -> {
            s.progress = progress;
            s.warned = false;
            try {
                return step.call();
            } catch (Steps.NotAllowed e) {
                throw e; // nothing was sent: the run holds, and leaving releases it
            } catch (RuntimeException e) {
                // as a crash: the Lease is no longer renewed, the record stays for resume
                s.end(null);
                throw e;
            } finally {
                s.progress = null;
            }
        });
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    // ---- CHECK ---------------------------------------------------------------------------------

    private Outcome check(Decision decision, String uid, Progress progress) {
        String key = Loaded.key(decision);
        ObjectNode object = declared.apply(decision);
        if (object == null) {
            return Outcome.failed(key + " is no longer in the manifest: refresh the list (r)");
        }
        Assessment a = new Assessor(cluster, e -> report(progress, e)).assess(List.of(object), false, Assessor.Depth.APPLY, false,
                options.fieldManager());
        Assessed assessed = a.items().get(0);
        a.notes().forEach(n -> progress.report(n, "", true));
        assessed.notes().forEach(n -> progress.report(n, "", true));
        Decision d = assessed.decision();
        if (assessed.failure() != null) {
            return Outcome.failed(assessed.failure());
        }
        if (!d.verdict().hasWork()) {
            return Outcome.failed("re-read, " + key + " is " + Texts.verdict(d) + " now: " + d.detail() + ". Nothing was written");
        }
        String liveUid = assessed.live() == null ? "" : assessed.live().path("metadata").path("uid").asText("");
        if (!uid.isEmpty() && !uid.equals(liveUid)) {
            return Outcome.failed("StatefulSet " + key + " was re-created since the list was read (UID " + uid + " is now " + liveUid
                    + "): nothing was written; leave and refresh (r)");
        }
        if (d.recreate() != decision.recreate() || d.claimsToGrow().size() != decision.claimsToGrow().size()) {
            return Outcome.failed("re-read, " + key + " needs other writes than the list shows (" + Texts.verdict(d) + ", "
                    + d.claimsToGrow().size() + " claim(s) to grow): nothing was written; leave and refresh (r)");
        }
        boolean leases = !a.namespacesWithoutLeases().contains(assessed.namespace());
        Steps.Checked checked = new Steps(cluster, clock, journal, operator, server, e -> report(progress, e), Checkpoint.NONE)
                .check(assessed, options, leases);
        if (!checked.proceeds()) {
            return Outcome.failed(checked.stop().sentence());
        }
        Session previous = sessions.put(key, new Session(assessed, leases, checked,
                s -> new Steps(cluster, clock, journal, operator, server, s::on, Checkpoint.NONE)));
        if (previous != null) {
            leave(previous, System.nanoTime() + options.timeout().toNanos()); // a wizard opened again: the old one is over
        }
        progress.claims(readClaims(assessed));
        return Outcome.done("re-read: " + d.claimsToGrow().size() + " claim(s) to grow" + (d.recreate()
                ? ", then the orphan delete of UID " + liveUid + " and the re-apply" : "") + "; every permission and dry run accepted");
    }

    // ---- GROW: lock and record, then the claims --------------------------------------------------

    private Outcome grow(Session s, Progress progress) {
        Steps.Acquired lock = s.steps.lock(s.checked, options, s.leases);
        if (!lock.held()) {
            StatefulSetResult r = Steps.notLocked(lock, s.assessed.decision());
            s.end(r);
            return Outcome.failed(r.sentence());
        }
        s.run = lock.run();
        int patched = s.steps.grow(s.run).patched().size();
        progress.claims(readClaims(s.assessed));
        if (!s.run.recreates()) {
            s.end(s.steps.claimsGrown(s.run));
            return Outcome.done(patched + " claim(s) patched; the Lease is released (no recreate needed)");
        }
        return Outcome.done(patched + " claim(s) patched; the Lease holds the run while the claims grow");
    }

    // ---- WAIT: while the Lease holds the run, or after a grow-only run ------------------------------

    private Outcome await(Session s, Progress progress) throws InterruptedException {
        while (true) {
            List<ClaimProgress> claims = readClaims(s.assessed);
            progress.claims(claims);
            List<String> infeasible = new ArrayList<>();
            for (ClaimProgress c : claims) {
                if (c.state() == ClaimProgress.State.INFEASIBLE || c.state() == ClaimProgress.State.GONE) {
                    infeasible.add(c.name() + ": " + c.message());
                }
            }
            if (!infeasible.isEmpty()) {
                return Outcome.failed("the resize cannot happen: " + String.join("; ", infeasible) + ". Nothing was deleted;"
                        + " Esc leaves (the Lease is released, the requests stay raised)");
            }
            if (claims.stream().allMatch(c -> c.state().settled())) {
                long pending = claims.stream().filter(c -> c.state() == ClaimProgress.State.FILE_SYSTEM_PENDING).count();
                followAtTheGate(s, progress);
                return Outcome.done(pending == 0 ? "capacity reached on " + claims.size() + " claim(s)"
                        : (pending == claims.size() ? "every volume grew" : "capacity reached on " + (claims.size() - pending) + " claim(s)")
                                + "; " + pending + " file system(s) wait for a pod restart (offered after the adoption)");
            }
            if (s.goOn) {
                followAtTheGate(s, progress);
                return Outcome.done("went on without waiting: the resizer keeps growing "
                        + claims.stream().filter(c -> !c.state().settled()).count() + " claim(s)");
            }
            for (long waited = 0; waited < POLL.toMillis() && !s.goOn; waited += 50) {
                Thread.sleep(50);
            }
        }
    }

    /**
     * While the operator types the name, no step runs: the claims are still read, every {@link #POLL},
     * so the capacity shown keeps up (it grows on when the operator went on without waiting). Stops
     * when the delete starts or the run ends.
     */
    private void followAtTheGate(Session s, Progress progress) {
        if (s.ended != null || s.run == null) {
            return; // a grow-only run has ended: nothing waits at a gate
        }
        Thread t = new Thread(() -> {
            try {
                while (!s.nameGatePassed && s.ended == null) {
                    Thread.sleep(POLL.toMillis());
                    if (!s.nameGatePassed && s.ended == null) {
                        progress.claims(readClaims(s.assessed));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "stsresize-claims-" + s.key());
        t.setDaemon(true);
        t.start();
    }

    // ---- ORPHAN_DELETE, REAPPLY: past the name gate ----------------------------------------------------

    /**
     * Runs only when the wizard's name gate passed (Update asks for it then): the operator allowed the
     * delete of this StatefulSet with the UID the wizard showed, and the step checks exactly that.
     */
    private Outcome orphanDelete(Session s, String uid, Progress progress) {
        if (s.run == null || s.ended != null) {
            return Outcome.failed("no run holds " + s.key() + " any more: leave the wizard and open it again");
        }
        s.nameGatePassed = true;
        Decision d = s.assessed.decision();
        Steps.Deleted del;
        try {
            del = s.steps.orphanDelete(s.run, new Steps.DeleteAllowed(d.namespace(), d.name(), uid));
        } catch (Steps.NotAllowed e) {
            s.nameGatePassed = false; // nothing was sent: still before the delete
            throw e;
        }
        progress.claims(readClaims(s.assessed));
        if (!del.gone()) {
            s.end(s.steps.deleteFailed(s.run, del));
            return Outcome.failed(s.ended.sentence());
        }
        s.deleted = true;
        return Outcome.done(s.warned ? "StatefulSet gone (404), with the warning above" : "pods and claims re-read: each still there with its UID");
    }

    private Outcome reapply(Session s) {
        if (!s.deleted || s.ended != null) {
            return Outcome.failed(s.ended != null ? s.ended.sentence() : "the orphan delete of " + s.key() + " has not run: nothing to re-apply");
        }
        Steps.Reapplied ra = s.steps.reapply(s.run);
        if (ra.statefulSet() == null) {
            s.end(s.steps.reapplyFailed(s.run, ra));
            return Outcome.failed(s.ended.sentence());
        }
        s.reapplied = true;
        if (ra.restored()) {
            return Outcome.done("the re-apply FAILED and the backup was restored: the pods have their owner again, with"
                    + " the old claim templates (" + s.lastWrite + ")");
        }
        return Outcome.done("re-applied: the StatefulSet stands again, with the grown claim templates");
    }

    // ---- VERIFY: the objects read back, the Lease released ----------------------------------------------

    private Outcome verify(Session s, Progress progress) {
        if (s.ended == null) {
            if (!s.deleted) {
                return Outcome.failed("the orphan delete of " + s.key() + " has not run: nothing to verify");
            }
            s.end(s.steps.verified(s.run, s.steps.verify(s.run), List.of()));
        }
        StatefulSetResult r = s.ended;
        Summary summary = summary(s, r);
        progress.claims(readClaims(s.assessed));
        progress.summary(summary);
        boolean ok = summary.converged() && summary.problems().isEmpty();
        return ok ? Outcome.done("verified from the objects read back: " + summary.pods().size() + " pod(s) kept their UIDs and name the"
                + " new StatefulSet as controller; " + summary.claims().stream().filter(Summary.ClaimCheck::atTarget).count() + " of "
                + summary.claims().size() + " claim(s) at capacity") : Outcome.failed(String.join("; ", summary.problems()));
    }

    private Outcome restart(Session s, Progress progress) throws InterruptedException {
        Map<String, String> targets = new LinkedHashMap<>();
        for (ClaimState c : s.assessed.decision().claimsToGrow()) {
            targets.put(c.name(), c.target().toString());
        }
        if (s.ended != null) {
            for (Summary.ClaimCheck c : summary(s, s.ended).restartable()) {
                s.restarted.add(c.pod());
            }
        }
        CompletableFuture<String> run = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                run.complete(s.steps.restartPodsForResize(s.assessed.namespace(), s.assessed.name(), targets, options));
            } catch (RuntimeException e) {
                run.completeExceptionally(e);
            }
        }, "stsresize-restart-" + s.key());
        t.setDaemon(true);
        t.start();
        String problem;
        while (true) {
            try {
                problem = run.get(POLL.toMillis(), TimeUnit.MILLISECONDS);
                break;
            } catch (TimeoutException e) {
                progress.claims(readClaims(s.assessed));
            } catch (ExecutionException e) {
                problem = e.getCause().getMessage();
                break;
            }
        }
        if (s.ended != null) {
            progress.summary(summary(s, s.ended));
        }
        progress.claims(readClaims(s.assessed));
        return problem.isEmpty() ? Outcome.done("each pod Ready again and its claim at capacity") : Outcome.failed(problem);
    }

    // ---- RESUME: the CLI's sequence, from the record ------------------------------------------------------

    /**
     * Finishes an interrupted run as a re-run of {@code apply -f} does: the record says where it
     * stopped (and is left alone when it cannot be trusted), the object re-applied is built from the
     * manifest the UI was opened with. The orphan delete is allowed only when the record shows it
     * was already allowed (phase deleting or later); a run stopped before it is finished up to the
     * delete gate, which then says no (the wizard asks for the name).
     */
    private Outcome resume(Decision decision, Progress progress) {
        Optional<PendingRun> found = new RunRecords(cluster, journal, server).find(decision.namespace(), decision.name(), true);
        if (found.isEmpty()) {
            return Outcome.failed("no interrupted run of " + Loaded.key(decision) + " is recorded any more: it was finished"
                    + " meanwhile; refresh (r)");
        }
        if (!found.get().trusted()) {
            return Outcome.failed(found.get().leftAlone());
        }
        ObjectNode object = declared.apply(decision);
        if (object == null) {
            return Outcome.failed("the manifest no longer declares " + Loaded.key(decision) + ": nothing was written; reload it (r)");
        }
        boolean allowed = found.get().pastTheDeleteGate();
        Gate gate = Gate.growing(allowed);
        Converger converger = new Converger(cluster, clock, journal, operator, server, gate, e -> report(progress, e), Checkpoint.NONE);
        StatefulSetResult r = converger.resume(found.get(), object, options, true);
        Summary summary = summary(found.get().record().uid(), Set.of(), r);
        progress.summary(summary);
        boolean ok = summary.converged() && summary.problems().isEmpty();
        return ok ? Outcome.done("finished from the record: " + r.detail()) : Outcome.failed(String.join("; ", summary.problems()));
    }

    /** The Converger's result with the pods and claims read back now: UIDs, owners, capacity, waiting file systems. */
    private Summary summary(Session s, StatefulSetResult r) {
        return summary(s.assessed.live() == null ? "" : s.assessed.live().path("metadata").path("uid").asText(""), s.restarted, r);
    }

    private Summary summary(String oldUid, Set<String> restarted, StatefulSetResult r) {
        String ns = r.namespace();
        String newUid = cluster.getStatefulSet(ns, r.name()).map(o -> o.path("metadata").path("uid").asText("")).orElse("");
        List<Summary.PodCheck> pods = new ArrayList<>();
        for (StatefulSetResult.PodResult p : r.pods()) {
            Optional<ObjectNode> pod = cluster.getPod(ns, p.name());
            pods.add(new Summary.PodCheck(p.name(), p.uidBefore(), pod.map(o -> o.path("metadata").path("uid").asText("")).orElse(""),
                    pod.map(ConvergeSteps::controllerUid).orElse(""), restarted.contains(p.name())));
        }
        List<Summary.ClaimCheck> claims = new ArrayList<>();
        for (StatefulSetResult.ClaimResult c : r.claims()) {
            Optional<ObjectNode> claim = cluster.getClaim(ns, c.name());
            String capacity = claim.map(o -> o.path("status").path("capacity").path("storage").asText("")).orElse("");
            ClaimProgress.State st = claim.map(o -> state(o, Quantity.parse(c.to()))).orElse(ClaimProgress.State.GONE);
            String pod = "";
            if (st == ClaimProgress.State.FILE_SYSTEM_PENDING) {
                String candidate = r.name() + c.name().substring(c.name().lastIndexOf('-'));
                pod = cluster.getPod(ns, candidate).filter(p -> p.path("spec").path("volumes").findValuesAsText("claimName")
                        .contains(c.name())).map(p -> candidate).orElse("");
            }
            claims.add(new Summary.ClaimCheck(c.name(), c.from(), c.to(), capacity, st == ClaimProgress.State.GROWN,
                    st == ClaimProgress.State.FILE_SYSTEM_PENDING, pod));
        }
        pods.sort(Comparator.comparingInt((Summary.PodCheck p) -> ordinal(p.name())).thenComparing(Summary.PodCheck::name));
        claims.sort(Comparator.comparingInt((Summary.ClaimCheck c) -> ordinal(c.name())).thenComparing(Summary.ClaimCheck::name));
        boolean converged = r.succeeded();
        // a claim's waiting file system is said on its own line, read now; the Converger's sentence about it may be stale
        List<String> warnings = r.warnings().stream().filter(w -> !(w.startsWith("claim ") && w.contains(" waits for a file system resize"))).toList();
        return new Summary(r.outcome().label(), converged, r.reason(), r.detail(), oldUid,
                r.claimsOnly() ? oldUid : newUid, pods, claims, warnings);
    }

    // ---- the operator's choices ----------------------------------------------------------------------

    @Override
    public void goOn(Decision decision) {
        Session s = sessions.get(Loaded.key(decision));
        if (s != null) {
            s.goOn = true;
        }
    }

    /** The operator left the wizard: a run before its delete is released with nothing deleted; one past it is finished. */
    @Override
    public void abandon(Decision decision) {
        Session s = sessions.remove(Loaded.key(decision));
        if (s != null) {
            leave(s, System.nanoTime() + options.timeout().toNanos());
        }
    }

    /**
     * Releases every run still before its delete (their Leases and records go), and finishes those
     * past it: the re-apply and the verification of a StatefulSet deleted a moment ago are better
     * finished than cut off by the process's exit. Waited for up to {@link #FINISHING} in all.
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + FINISHING.toNanos();
        for (String key : List.copyOf(sessions.keySet())) {
            Session s = sessions.remove(key);
            if (s != null) {
                leave(s, deadline);
            }
        }
    }

    /**
     * Queued behind the step that may be running: a run before its delete is released, one past it
     * finished; waited for until {@code deadline} (System.nanoTime), after which the work goes on
     * on its own thread as long as the process lives.
     */
    private void leave(Session s, long deadline) {
        try {
            s.worker.submit(() -> leaveNow(s)).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // leaveNow keeps the record wherever it could not finish; resume takes it up
        } finally {
            s.worker.shutdown();
        }
    }

    private void leaveNow(Session s) {
        if (s.ended != null || s.run == null) {
            return;
        }
        try {
            if (!s.nameGatePassed) {
                s.end(s.steps.declined(s.run));
            } else if (!s.deleted) {
                s.end(null); // a delete that did not finish: the record stays for resume
            } else {
                if (!s.reapplied) {
                    Steps.Reapplied ra = s.steps.reapply(s.run);
                    if (ra.statefulSet() == null) {
                        s.end(s.steps.reapplyFailed(s.run, ra));
                        return;
                    }
                }
                s.end(s.steps.verified(s.run, s.steps.verify(s.run), List.of()));
            }
        } catch (RuntimeException e) {
            s.end(null); // the record stays; resume finishes it
        }
    }

    /** The StatefulSets whose run is past the delete gate and not finished: what closing finishes first. */
    public List<String> finishing() {
        List<String> out = new ArrayList<>();
        sessions.forEach((key, s) -> {
            if (s.nameGatePassed && s.run != null) {
                out.add(key);
            }
        });
        return out;
    }

    // ---- helpers -------------------------------------------------------------------------------

    private static void report(Progress progress, ProgressEvent e) {
        if (e.isOutcome() && !e.warning()) {
            return; // the outcome again: the summary shows it, read back
        }
        progress.report(e.message(), e.kubectl(), e.warning());
    }

    /** Every claim the decision grows, read now. */
    List<ClaimProgress> readClaims(Assessed a) {
        List<ClaimProgress> out = new ArrayList<>();
        for (ClaimState c : a.decision().claimsToGrow()) {
            Optional<ObjectNode> claim;
            try {
                claim = cluster.getClaim(a.namespace(), c.name());
            } catch (RuntimeException e) {
                continue;
            }
            if (claim.isEmpty()) {
                out.add(new ClaimProgress(c.name(), "", "", c.target().toString(), List.of(), ClaimProgress.State.GONE,
                        "the claim no longer exists"));
                continue;
            }
            ObjectNode o = claim.get();
            List<String> conditions = new ArrayList<>();
            for (JsonNode cond : o.path("status").path("conditions")) {
                if ("True".equals(cond.path("status").asText("True"))) {
                    conditions.add(cond.path("type").asText());
                }
            }
            ClaimProgress.State st = state(o, c.target());
            String message = st == ClaimProgress.State.INFEASIBLE ? infeasibleMessage(o) : "";
            out.add(new ClaimProgress(c.name(), o.path("spec").path("resources").path("requests").path("storage").asText(""),
                    o.path("status").path("capacity").path("storage").asText(""), c.target().toString(), conditions, st, message));
        }
        return out;
    }

    /** Where a claim stands, as the Converger's wait for resize reads it. */
    static ClaimProgress.State state(ObjectNode claim, Quantity target) {
        Quantity capacity = Quantity.parseOrNull(claim.path("status").path("capacity").path("storage").asText(""));
        if (capacity != null && !capacity.isLessThan(target)) {
            return ClaimProgress.State.GROWN;
        }
        if (claim.path("status").path("allocatedResourceStatuses").path("storage").asText("").endsWith("Infeasible")) {
            return ClaimProgress.State.INFEASIBLE;
        }
        for (JsonNode cond : claim.path("status").path("conditions")) {
            if ("FileSystemResizePending".equals(cond.path("type").asText()) && "True".equals(cond.path("status").asText("True"))) {
                return ClaimProgress.State.FILE_SYSTEM_PENDING;
            }
        }
        Quantity request = Quantity.parseOrNull(claim.path("spec").path("resources").path("requests").path("storage").asText(""));
        return request != null && !request.isLessThan(target) ? ClaimProgress.State.RESIZING : ClaimProgress.State.REQUESTED_LESS;
    }

    private static String infeasibleMessage(ObjectNode claim) {
        for (JsonNode c : claim.path("status").path("conditions")) {
            String t = c.path("type").asText();
            if (t.equals("ControllerResizeError") || t.equals("NodeResizeError")) {
                return c.path("message").asText(t);
            }
        }
        return "the resizer reports " + claim.path("status").path("allocatedResourceStatuses").path("storage").asText();
    }

    private static int ordinal(String name) {
        try {
            return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    private static String controllerUid(JsonNode o) {
        for (JsonNode ref : o.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ref.path("uid").asText("");
            }
        }
        return "";
    }
}
