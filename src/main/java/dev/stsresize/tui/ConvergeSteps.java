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
import dev.stsresize.converge.ProgressEvent;
import dev.stsresize.converge.RunRecords;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The wizard's steps run by the real {@link Converger}. CHECK assesses the one StatefulSet again
 * (read, decide, every access review and dry run). GROW starts {@code converge()} for it on a thread
 * of its own, with a {@link Gate} that allows the grow (the operator pressed y) and holds the orphan
 * delete until the wizard's name gate passes; the Converger runs with {@code waitForResize=false} and
 * the wait for capacity happens inside that gate, while it holds the Lease: WAIT follows each claim
 * until its capacity reaches the target (or its file system waits for a pod restart), as
 * {@code --wait-for-resize} does, unless the operator goes on ({@code c}). Leaving the wizard then
 * makes the gate answer no: the Converger releases the Lease and the journal entry with nothing
 * deleted. ORPHAN_DELETE, REAPPLY and VERIFY follow the Converger's own progress, split where its
 * requests show the next step starting; VERIFY ends with its {@link StatefulSetResult}, shown with the
 * pods and claims read back ({@link Summary}). RESTART evicts, one at a time, the pods whose file
 * system waits, once the StatefulSet stands again.
 */
public final class ConvergeSteps implements StepRunner {
    private static final Duration POLL = Duration.ofMillis(750);

    private final Cluster cluster;
    private final Clock clock;
    private final Journal journal;
    private final String operator;
    private final String server;
    private final Function<Decision, ObjectNode> declared;
    private final ConvergeOptions options;
    private final Function<Session, Gate> gates;
    private final boolean guard;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /**
     * @param declared the manifest's object for a decision (the last one the decision source read)
     * @param options the Converger's options ({@code waitForResize} is always false: the WAIT step waits)
     */
    public ConvergeSteps(Cluster cluster, Clock clock, Journal journal, String operator, String server,
            Function<Decision, ObjectNode> declared, ConvergeOptions options) {
        this(cluster, clock, journal, operator, server, declared, options, Session::gate, true);
    }

    /** For tests: the gate each session's Converger gets, and whether the cluster refuses a delete before the name gate. */
    ConvergeSteps(Cluster cluster, Clock clock, Journal journal, String operator, String server,
            Function<Decision, ObjectNode> declared, ConvergeOptions options, Function<Session, Gate> gates, boolean guard) {
        this.cluster = cluster;
        this.clock = clock;
        this.journal = journal;
        this.operator = operator;
        this.server = server;
        this.declared = declared;
        this.options = options.withWaitForResize(false).withDryRun(false);
        this.gates = gates;
        this.guard = guard;
    }

    /** What the converge thread tells the step that is running. */
    private sealed interface Signal {}

    private record Said(ProgressEvent event) implements Signal {}

    private record Starts(WizardStep step) implements Signal {}

    private record AtDeleteGate() implements Signal {}

    private record Ended(StatefulSetResult result, RuntimeException crash) implements Signal {}

    /** One wizard's run: its assessment, its converge thread, and the gate the operator opens. */
    static final class Session {
        final Assessed assessed;
        final boolean leases;
        final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
        final CompletableFuture<Boolean> deleteAllowed = new CompletableFuture<>();
        volatile boolean goOn;
        volatile boolean nameGatePassed;
        final java.util.Set<String> restarted = ConcurrentHashMap.newKeySet();
        Thread thread;
        Ended ended;

        Session(Assessed assessed, boolean leases) {
            this.assessed = assessed;
            this.leases = leases;
        }

        /** Grow: the operator said y before the step started. The delete: only once the name gate passed. */
        Gate gate() {
            return new Gate() {
                @Override
                public boolean allowGrow(Decision decision) {
                    return true;
                }

                @Override
                public boolean allowOrphanDelete(String namespace, String name) {
                    signals.add(new AtDeleteGate());
                    return answer();
                }
            };
        }

        /** Blocks the converge thread until the operator types the name (true) or leaves (false). */
        boolean answer() {
            try {
                return deleteAllowed.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException e) {
                return false;
            }
        }

        String key() {
            return Metadata.key(assessed.namespace(), assessed.name());
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
            case CHECK -> throw new IllegalStateException("handled above");
            case GROW -> grow(s, progress);
            case WAIT -> await(s, progress);
            case ORPHAN_DELETE -> orphanDelete(s, progress);
            case REAPPLY -> follow(s, WizardStep.REAPPLY, progress);
            case VERIFY -> verify(s, progress);
            case RESTART -> restart(s, progress);
            case RESUME -> throw new IllegalStateException("handled above");
        };
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
        sessions.put(key, new Session(assessed, !a.namespacesWithoutLeases().contains(assessed.namespace())));
        progress.claims(readClaims(assessed));
        return Outcome.done("re-read: " + d.claimsToGrow().size() + " claim(s) to grow" + (d.recreate()
                ? ", then the orphan delete of UID " + liveUid + " and the re-apply" : "") + "; every permission and dry run accepted");
    }

    // ---- GROW: the converge thread starts --------------------------------------------------------

    private Outcome grow(Session s, Progress progress) throws InterruptedException {
        Gate gate = gates.apply(s);
        Cluster c = guard ? new GuardedCluster(cluster, () -> s.nameGatePassed, step -> s.signals.add(new Starts(step))) : cluster;
        Converger converger = new Converger(c, clock, journal, operator, server, gate, e -> s.signals.add(new Said(e)),
                Checkpoint.NONE);
        Thread t = new Thread(() -> {
            try {
                s.signals.add(new Ended(converger.converge(s.assessed, options, s.leases), null));
            } catch (RuntimeException e) {
                s.signals.add(new Ended(null, e));
            }
        }, "stsresize-converge-" + s.key());
        t.setDaemon(true);
        s.thread = t;
        t.start();
        int grown = 0;
        while (true) {
            Signal sig = next(s, progress);
            if (sig instanceof Said said) {
                report(progress, said.event());
                if (!said.event().kubectl().isEmpty() && said.event().step() == dev.stsresize.converge.Step.GROW) {
                    grown++;
                }
                progress.claims(readClaims(s.assessed));
            } else if (sig instanceof AtDeleteGate) {
                progress.claims(readClaims(s.assessed));
                return Outcome.done(grown + " claim(s) patched; the Lease holds the run while the claims grow");
            } else if (sig instanceof Ended e) {
                s.ended = e;
                progress.claims(readClaims(s.assessed));
                return e.crash() == null && e.result().outcome() == dev.stsresize.converge.Outcome.CLAIMS_GROWN
                        ? Outcome.done(grown + " claim(s) patched; the Lease is released (no recreate needed)")
                        : Outcome.failed(ended(e));
            }
        }
    }

    // ---- WAIT: inside the delete gate, or after a grow-only converge -------------------------------

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
            Signal sig = s.signals.poll();
            if (sig instanceof Said said) {
                report(progress, said.event());
            } else if (sig instanceof Ended e) {
                s.ended = e;
                return Outcome.failed(ended(e));
            }
        }
    }

    /**
     * While the operator types the name, no step runs: the claims are still read, every {@link #POLL},
     * so the capacity shown keeps up (it grows on when the operator went on without waiting). Stops at
     * the gate's answer.
     */
    private void followAtTheGate(Session s, Progress progress) {
        if (s.thread == null || !s.thread.isAlive() || s.deleteAllowed.isDone()) {
            return; // a grow-only converge has ended: nothing waits at a gate
        }
        Thread t = new Thread(() -> {
            try {
                while (!s.deleteAllowed.isDone()) {
                    Thread.sleep(POLL.toMillis());
                    if (!s.deleteAllowed.isDone()) {
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

    // ---- ORPHAN_DELETE, REAPPLY: the converge thread goes on ----------------------------------------

    private Outcome orphanDelete(Session s, Progress progress) throws InterruptedException {
        s.nameGatePassed = true;
        s.deleteAllowed.complete(true);
        return follow(s, WizardStep.ORPHAN_DELETE, progress);
    }

    /** Reports the converge's progress until the next step starts (its request seen) or the converge ends. */
    private Outcome follow(Session s, WizardStep step, Progress progress) throws InterruptedException {
        String last = "";
        boolean restored = false;
        boolean warned = false;
        while (true) {
            if (s.ended != null) {
                return Outcome.failed(ended(s.ended));
            }
            Signal sig = next(s, progress);
            if (sig instanceof Said said) {
                report(progress, said.event());
                warned |= said.event().warning();
                if (!said.event().kubectl().isEmpty()) {
                    last = said.event().message();
                    restored |= said.event().kubectl().startsWith("kubectl create");
                }
            } else if (sig instanceof Starts st && st.step().ordinal() > step.ordinal()) {
                if (restored) {
                    return Outcome.done("the re-apply FAILED and the backup was restored: the pods have their owner again, with"
                            + " the old claim templates (" + last + ")");
                }
                return Outcome.done(step == WizardStep.ORPHAN_DELETE
                        ? (warned ? "StatefulSet gone (404), with the warning above" : "pods and claims re-read: each still there with its UID")
                        : "re-applied: the StatefulSet stands again, with the grown claim templates");
            } else if (sig instanceof Ended e) {
                s.ended = e;
                return Outcome.failed(ended(e));
            }
        }
    }

    // ---- VERIFY: the Converger's result, and the objects read back --------------------------------------

    private Outcome verify(Session s, Progress progress) throws InterruptedException {
        while (s.ended == null) {
            Signal sig = next(s, progress);
            if (sig instanceof Said said) {
                report(progress, said.event());
            } else if (sig instanceof Ended e) {
                s.ended = e;
            }
        }
        if (s.ended.crash() != null) {
            return Outcome.failed(ended(s.ended));
        }
        StatefulSetResult r = s.ended.result();
        Summary summary = summary(s, r);
        progress.claims(readClaims(s.assessed));
        progress.summary(summary);
        boolean ok = summary.converged() && summary.problems().isEmpty();
        return ok ? Outcome.done("verified from the objects read back: " + summary.pods().size() + " pod(s) kept their UIDs and name the"
                + " new StatefulSet as controller; " + summary.claims().stream().filter(Summary.ClaimCheck::atTarget).count() + " of "
                + summary.claims().size() + " claim(s) at capacity") : Outcome.failed(String.join("; ", summary.problems()));
    }

    private Outcome restart(Session s, Progress progress) throws InterruptedException {
        Converger converger = new Converger(cluster, clock, journal, operator, server, Gate.YES, e -> report(progress, e), Checkpoint.NONE);
        Map<String, String> targets = new LinkedHashMap<>();
        for (ClaimState c : s.assessed.decision().claimsToGrow()) {
            targets.put(c.name(), c.target().toString());
        }
        if (s.ended != null && s.ended.result() != null) {
            for (Summary.ClaimCheck c : summary(s, s.ended.result()).restartable()) {
                s.restarted.add(c.pod());
            }
        }
        CompletableFuture<String> run = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                run.complete(converger.restartPodsForResize(s.assessed.namespace(), s.assessed.name(), targets, options));
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
            } catch (java.util.concurrent.TimeoutException e) {
                progress.claims(readClaims(s.assessed));
            } catch (ExecutionException e) {
                problem = e.getCause().getMessage();
                break;
            }
        }
        StatefulSetResult r = s.ended == null ? null : s.ended.result();
        if (r != null) {
            progress.summary(summary(s, r));
        }
        progress.claims(readClaims(s.assessed));
        return problem.isEmpty() ? Outcome.done("each pod Ready again and its claim at capacity") : Outcome.failed(problem);
    }

    /**
     * Finishes an interrupted run as a re-run of {@code apply -f} does: the record says where it
     * stopped (and is left alone when it cannot be trusted), the object re-applied is built from the
     * manifest the UI was opened with. The orphan delete is made
     * only when the record shows it was already allowed (phase deleting or later); a run stopped
     * before it is finished up to the delete gate, which then says no (the wizard asks for the name).
     */
    private Outcome resume(Decision decision, Progress progress) {
        Optional<dev.stsresize.converge.PendingRun> found = new RunRecords(cluster, journal, server).find(decision.namespace(), decision.name(), true);
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
        dev.stsresize.converge.Record record = found.get().record();
        boolean allowed = record.phase().equals(dev.stsresize.converge.Record.PHASE_DELETING)
                || record.phase().equals(dev.stsresize.converge.Record.PHASE_REAPPLYING)
                || record.phase().equals(dev.stsresize.converge.Record.PHASE_VERIFYING);
        Gate gate = new Gate() {
            @Override
            public boolean allowGrow(Decision d) {
                return true;
            }

            @Override
            public boolean allowOrphanDelete(String namespace, String name) {
                return allowed;
            }
        };
        Cluster guarded = new GuardedCluster(cluster, () -> allowed, step -> { });
        Converger converger = new Converger(guarded, clock, journal, operator, server, gate, e -> report(progress, e), Checkpoint.NONE);
        StatefulSetResult r = converger.resume(found.get(), object, options, true);
        Summary summary = summary(record.uid(), java.util.Set.of(), r);
        progress.summary(summary);
        boolean ok = summary.converged() && summary.problems().isEmpty();
        return ok ? Outcome.done("finished from the record: " + r.detail()) : Outcome.failed(String.join("; ", summary.problems()));
    }

    /** The Converger's result with the pods and claims read back now: UIDs, owners, capacity, waiting file systems. */
    private Summary summary(Session s, StatefulSetResult r) {
        return summary(s.assessed.live() == null ? "" : s.assessed.live().path("metadata").path("uid").asText(""), s.restarted, r);
    }

    private Summary summary(String oldUid, java.util.Set<String> restarted, StatefulSetResult r) {
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
        pods.sort(java.util.Comparator.comparingInt((Summary.PodCheck p) -> ordinal(p.name())).thenComparing(Summary.PodCheck::name));
        claims.sort(java.util.Comparator.comparingInt((Summary.ClaimCheck c) -> ordinal(c.name())).thenComparing(Summary.ClaimCheck::name));
        boolean converged = r.outcome() == dev.stsresize.converge.Outcome.CONVERGED || r.outcome() == dev.stsresize.converge.Outcome.CLAIMS_GROWN;
        // a claim's waiting file system is said on its own line, read now; the Converger's sentence about it may be stale
        List<String> warnings = r.warnings().stream().filter(w -> !(w.startsWith("claim ") && w.contains(" waits for a file system resize"))).toList();
        return new Summary(r.outcome().label(), converged, r.reason(), r.detail(), oldUid,
                r.outcome() == dev.stsresize.converge.Outcome.CLAIMS_GROWN ? oldUid : newUid, pods, claims, warnings);
    }

    // ---- the operator's choices ----------------------------------------------------------------------

    @Override
    public void goOn(Decision decision) {
        Session s = sessions.get(Loaded.key(decision));
        if (s != null) {
            s.goOn = true;
        }
    }

    /** The gate says no; the converge thread releases the Lease and the journal entry, and is waited for. */
    @Override
    public void abandon(Decision decision) {
        Session s = sessions.remove(Loaded.key(decision));
        if (s != null) {
            refuse(s);
        }
    }

    /**
     * Refuses every gate still waiting (those converges release their Leases) and waits, up to
     * {@code finishing}, for the converges past the delete gate: the re-apply and the verification of
     * a StatefulSet deleted a moment ago are better finished than cut off by the process's exit.
     */
    @Override
    public void close() {
        close(Duration.ofSeconds(60));
    }

    void close(Duration finishing) {
        long deadline = System.nanoTime() + finishing.toNanos();
        for (String key : List.copyOf(sessions.keySet())) {
            Session s = sessions.remove(key);
            if (s == null) {
                continue;
            }
            if (!s.nameGatePassed) {
                refuse(s);
            } else if (s.thread != null) {
                try {
                    s.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** The StatefulSets whose converge is past the delete gate and still running: what closing waits for. */
    public List<String> finishing() {
        List<String> out = new ArrayList<>();
        sessions.forEach((key, s) -> {
            if (s.nameGatePassed && s.thread != null && s.thread.isAlive()) {
                out.add(key);
            }
        });
        return out;
    }

    private static void refuse(Session s) {
        if (s.deleteAllowed.complete(false) && s.thread != null) {
            try {
                s.thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    /** The next signal; while none comes, the claims are read again every {@link #POLL} (live progress toward capacity). */
    private Signal next(Session s, Progress progress) throws InterruptedException {
        while (true) {
            Signal sig = s.signals.poll(POLL.toMillis(), TimeUnit.MILLISECONDS);
            if (sig != null) {
                return sig;
            }
            progress.claims(readClaims(s.assessed));
        }
    }

    private static void report(Progress progress, ProgressEvent e) {
        if (e.step() == dev.stsresize.converge.Step.RECORD && !e.warning()) {
            return; // the outcome again: the summary shows it, read back
        }
        progress.report(e.message(), e.kubectl(), e.warning());
    }

    private static String ended(Ended e) {
        if (e.crash() != null) {
            String m = e.crash().getMessage();
            return m == null || m.isBlank() ? e.crash().getClass().getSimpleName() : m;
        }
        StatefulSetResult r = e.result();
        return r.outcome().label() + (r.reason().isEmpty() ? "" : " (" + r.reason() + ")") + ": " + r.detail();
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
