package dev.stsresize.tui.source;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Assessment;
import dev.stsresize.converge.Assessor;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ClaimGrower;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Convergence;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.Gate;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.PendingRun;
import dev.stsresize.converge.ProgressEvent;
import dev.stsresize.converge.RunRecords;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.converge.Steps;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.converge.WaitTick;
import dev.stsresize.converge.Write;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import dev.stsresize.tui.ClaimProgress;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.Summary;
import dev.stsresize.tui.Texts;
import dev.stsresize.tui.WaitStatus;
import dev.stsresize.tui.WizardStep;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The wizard's steps as turns of the converge's one state machine ({@link Convergence}), the same one
 * {@code apply} drives: CHECK assesses the StatefulSet again and starts a machine; GROW answers the
 * grow gate (the wizard's {@code y}) and advances through the lock and the patches; WAIT advances
 * through the wait for capacity ({@link #goOn} ends it); ORPHAN_DELETE passes the operator's
 * allowance of this StatefulSet and UID (the typed name) and advances through the delete; REAPPLY and
 * VERIFY advance to the end, read back as a {@link Summary}. RESTART and RESUME are the Converger's.
 *
 * <p>No thread of its own: the terminal edge calls {@link #run} on its step thread and the other
 * methods on its UI thread. Leaving answers the delete gate "no" (a run before the delete is released
 * with nothing deleted) and finishes one past it.
 */
public final class ClusterSteps implements StepRunner {
    private final Cluster cluster;
    private final Clock clock;
    private final Journal journal;
    private final String operator;
    private final String server;
    private final Function<Decision, ObjectNode> declared;
    private final ConvergeOptions options;
    private final Checkpoint checkpoint;
    private final StopRequest stop;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final List<String> leftAtClose = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param declared the manifest's object for a decision (the last one the decision source read)
     * @param options the converge's options (the wizard writes: no dry run; it waits for capacity unless told to go on)
     * @param stop set by the terminal edge on a signal: every run stops at its next safe point, its record kept
     */
    public ClusterSteps(Cluster cluster, Clock clock, Journal journal, String operator, String server,
            Function<Decision, ObjectNode> declared, ConvergeOptions options, Checkpoint checkpoint, StopRequest stop) {
        this.cluster = cluster;
        this.clock = clock;
        this.journal = journal;
        this.operator = operator;
        this.server = server;
        this.declared = declared;
        this.options = options.withWaitForResize(true).withDryRun(false);
        this.checkpoint = checkpoint;
        this.stop = stop;
    }

    /** One wizard's machine, and where its steps report while one runs. */
    private final class Session implements dev.stsresize.converge.Progress {
        final Assessed assessed;
        final Convergence machine;
        final Set<String> restarted = ConcurrentHashMap.newKeySet();
        volatile StepRunner.Progress current;
        volatile int patched;

        Session(Assessed assessed, boolean leases) {
            this.assessed = assessed;
            Steps steps = new Steps(cluster, clock, journal, operator, server, this, checkpoint, stop);
            this.machine = Convergence.start(steps, assessed, options, leases);
        }

        @Override
        public void on(ProgressEvent e) {
            if (e.write() instanceof Write.ClaimPatch) {
                patched++;
            }
            StepRunner.Progress p = current;
            if (p != null) {
                report(p, e);
            }
        }

        @Override
        public void waiting(WaitTick tick) {
            StepRunner.Progress p = current;
            if (p == null) {
                return;
            }
            if (!tick.claims().isEmpty()) {
                p.claims(tick.claims().stream().map(ClusterSteps::progressOf).toList());
            }
            p.waiting(new WaitStatus(tick.what(), tick.elapsed(), tick.left()));
        }

        String key() {
            return Metadata.key(assessed.namespace(), assessed.name());
        }
    }

    @Override
    public Outcome run(WizardStep step, Decision decision, String uid, StepRunner.Progress progress) {
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
        s.current = progress;
        try {
            return switch (step) {
                case CHECK, RESUME -> throw new IllegalStateException("handled above");
                case GROW -> grow(s, progress);
                case WAIT -> await(s, progress);
                case ORPHAN_DELETE -> orphanDelete(s, uid, progress);
                case REAPPLY -> reapply(s);
                case VERIFY -> verify(s, progress);
                case RESTART -> restart(s, progress);
            };
        } finally {
            s.current = null;
        }
    }

    // ---- CHECK ---------------------------------------------------------------------------------

    private Outcome check(Decision decision, String uid, StepRunner.Progress progress) {
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
        Session s = new Session(assessed, !a.namespacesWithoutLeases().contains(assessed.namespace()));
        if (s.machine.finished() instanceof Convergence.Turn.Ended e) {
            return Outcome.failed(e.result().sentence());
        }
        Session previous = sessions.put(key, s);
        if (previous != null) {
            leave(previous); // a wizard opened again: the old one is over
        }
        progress.claims(readClaims(assessed));
        return Outcome.done("re-read: " + d.claimsToGrow().size() + " claim(s) to grow" + (d.recreate()
                ? ", then the orphan delete of UID " + liveUid + " and the re-apply" : "") + "; every permission and dry run accepted");
    }

    // ---- the machine's turns ----------------------------------------------------------------------

    /** The Lease and the record, then the claims: the grow gate was answered yes by the wizard's {@code y}. */
    private Outcome grow(Session s, StepRunner.Progress progress) {
        s.machine.answerGrow(true);
        s.patched = 0;
        Outcome ended = advanceWhile(s, Convergence.Position.LOCK, Convergence.Position.GROW);
        progress.claims(readClaims(s.assessed));
        if (ended != null) {
            return ended;
        }
        return Outcome.done(s.patched + " claim(s) patched; the Lease holds the run while the claims grow");
    }

    private Outcome await(Session s, StepRunner.Progress progress) {
        Outcome ended = advanceWhile(s, Convergence.Position.WAIT);
        if (ended == null && s.machine.position() == Convergence.Position.FILE_SYSTEMS) {
            // a run that only grows claims follows their file systems now: its end says whether the pods can use the space
            ended = advanceWhile(s, Convergence.Position.FILE_SYSTEMS);
            progress.claims(readClaims(s.assessed));
            return ended;
        }
        List<ClaimProgress> claims = readClaims(s.assessed);
        progress.claims(claims);
        if (ended != null && !(s.machine.finished() instanceof Convergence.Turn.Ended e && e.result().succeeded())) {
            return ended;
        }
        long unsettled = claims.stream().filter(c -> !c.state().settled()).count();
        if (unsettled > 0) {
            return Outcome.done("went on without waiting: the resizer keeps growing " + unsettled + " claim(s)");
        }
        long pending = claims.stream().filter(c -> c.state() == ClaimProgress.State.FILE_SYSTEM_PENDING).count();
        String reached = pending == 0 ? "capacity reached on " + claims.size() + " claim(s)"
                : (pending == claims.size() ? "every volume grew" : "capacity reached on " + (claims.size() - pending) + " claim(s)")
                        + "; " + pending + " file system(s) not grown by the kubelet yet (followed after the re-apply)";
        return Outcome.done(reached + (ended == null ? "" : "; the Lease is released (no recreate needed)"));
    }

    /**
     * Runs only when the wizard's name gate passed (Update asks for it then): the operator allowed the
     * delete of this StatefulSet with the UID the wizard showed, and the delete step checks exactly that.
     */
    private Outcome orphanDelete(Session s, String uid, StepRunner.Progress progress) {
        if (s.machine.position() != Convergence.Position.ORPHAN_DELETE) {
            return Outcome.failed(s.machine.finished() != null ? ended(s.machine.finished())
                    : "the run of " + s.key() + " is not at its orphan delete: leave the wizard and open it again");
        }
        Decision d = s.assessed.decision();
        s.machine.allowDelete(new Steps.DeleteAllowed(d.namespace(), d.name(), uid));
        boolean[] warned = {false};
        StepRunner.Progress watching = new StepRunner.Progress() {
            @Override
            public void report(String message, String kubectl, boolean warning) {
                warned[0] |= warning;
                progress.report(message, kubectl, warning);
            }
        };
        s.current = watching;
        Outcome ended = advanceWhile(s, Convergence.Position.ORPHAN_DELETE);
        progress.claims(readClaims(s.assessed));
        if (ended != null) {
            return ended;
        }
        return Outcome.done(warned[0] ? "StatefulSet gone (404), with the warning above" : "pods and claims re-read: each still there with its UID");
    }

    private Outcome reapply(Session s) {
        Outcome ended = advanceWhile(s, Convergence.Position.REAPPLY, Convergence.Position.REGROW);
        if (ended != null) {
            return ended;
        }
        if (s.machine.restored()) {
            return Outcome.done("the re-apply FAILED and the backup was restored: the pods have their owner again, with"
                    + " the old claim templates");
        }
        return Outcome.done("re-applied: the StatefulSet stands again, with the grown claim templates");
    }

    /** The end of the run read back from the objects: the machine's result (verified now unless the run ended before). */
    private Outcome verify(Session s, StepRunner.Progress progress) {
        if (s.machine.finished() == null && s.machine.position() != Convergence.Position.VERIFY) {
            return Outcome.failed("the orphan delete of " + s.key() + " has not run: nothing to verify");
        }
        advanceWhile(s, Convergence.Position.VERIFY, Convergence.Position.FILE_SYSTEMS);
        StatefulSetResult r = result(s.machine.finished());
        if (r == null) {
            return Outcome.failed(ended(s.machine.finished()));
        }
        Summary summary = summary(s, r);
        progress.claims(readClaims(s.assessed));
        progress.summary(summary);
        boolean ok = summary.converged() && summary.problems().isEmpty();
        long restarted = summary.pods().stream().filter(Summary.PodCheck::restarted).count();
        return ok ? Outcome.done("verified from the objects read back: " + summary.pods().size() + " pod(s) name the new StatefulSet as"
                + " controller" + (restarted == 0 ? " and kept their UIDs" : ", " + restarted + " restarted for their file systems") + "; "
                + summary.claims().stream().filter(Summary.ClaimCheck::atTarget).count() + " of " + summary.claims().size()
                + " claim(s) at capacity; " + (Boolean.TRUE.equals(summary.spaceUsable()) ? "the pods can write to the new space"
                        : Boolean.FALSE.equals(summary.spaceUsable()) ? "the pods cannot use all of the new space yet" : "file systems not followed"))
                : Outcome.failed(String.join("; ", summary.problems()));
    }

    /**
     * Advances the machine while it stands at one of {@code at}; null when it moved past them, else how
     * the step ended (the run over, stopped, or at a gate the wizard had not answered).
     */
    private Outcome advanceWhile(Session s, Convergence.Position... at) {
        while (List.of(at).contains(s.machine.position())) {
            Convergence.Turn t = s.machine.advance();
            if (t instanceof Convergence.Turn.AtGate g) {
                return Outcome.failed("the " + g.gate().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                        + " gate has not been passed: nothing was written");
            }
        }
        Convergence.Turn end = s.machine.finished();
        if (end == null) {
            return null;
        }
        StatefulSetResult r = result(end);
        return r != null && r.succeeded() ? Outcome.done(r.sentence()) : Outcome.failed(ended(end));
    }

    private static StatefulSetResult result(Convergence.Turn end) {
        if (end instanceof Convergence.Turn.Ended e) {
            return e.result();
        }
        return end instanceof Convergence.Turn.Stopped st ? st.result() : null;
    }

    private static String ended(Convergence.Turn end) {
        StatefulSetResult r = result(end);
        return r == null ? "the run stopped on an error; its record stays for resume" : r.sentence();
    }

    // ---- RESTART, RESUME: the Converger's -----------------------------------------------------------

    private Outcome restart(Session s, StepRunner.Progress progress) {
        Map<String, String> targets = new LinkedHashMap<>();
        for (ClaimState c : s.assessed.decision().claimsToGrow()) {
            targets.put(c.name(), c.target().toString());
        }
        StatefulSetResult ended = result(s.machine.finished());
        if (ended != null) {
            for (Summary.ClaimCheck c : summary(s, ended).restartable()) {
                s.restarted.add(c.pod());
            }
        }
        String problem = converger(s, Gate.growing(false)).restartPodsForResize(s.assessed.namespace(), s.assessed.name(), targets,
                options);
        if (ended != null) {
            progress.summary(summary(s, ended));
        }
        progress.claims(readClaims(s.assessed));
        return problem.isEmpty() ? Outcome.done("each pod Ready again and its claim at capacity") : Outcome.failed(problem);
    }

    /** The CLI's driver, for what the wizard offers after or outside a run of its own (a restart, a resume). */
    private Converger converger(dev.stsresize.converge.Progress progress, Gate gate) {
        return new Converger(cluster, clock, journal, operator, server, gate, progress, checkpoint, stop);
    }

    /**
     * Finishes an interrupted run as a re-run of {@code apply -f} does: the record says where it
     * stopped (and is left alone when it cannot be trusted), the object re-applied is built from the
     * manifest the UI was opened with. The orphan delete is allowed only when the record shows it
     * was already allowed (phase deleting or later); a run stopped before it is finished up to the
     * delete gate, which then says no (the wizard asks for the name).
     */
    private Outcome resume(Decision decision, StepRunner.Progress progress) {
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
        Gate gate = Gate.growing(found.get().pastTheDeleteGate());
        StatefulSetResult r = converger((ProgressEvent e) -> report(progress, e), gate).resume(found.get(), object, options, true);
        Summary summary = summary(found.get().record().uid(), Set.of(), r);
        progress.summary(summary);
        boolean ok = summary.converged() && summary.problems().isEmpty();
        return ok ? Outcome.done("finished from the record: " + r.detail()) : Outcome.failed(String.join("; ", summary.problems()));
    }

    // ---- leaving -------------------------------------------------------------------------------------

    @Override
    public void goOn(Decision decision) {
        Session s = sessions.get(Loaded.key(decision));
        if (s != null) {
            s.machine.goOn();
        }
    }

    /** The operator is leaving: a wait running now ends at once, so that {@link #abandon} runs next. */
    @Override
    public void leaving(Decision decision) {
        Session s = sessions.get(Loaded.key(decision));
        if (s != null) {
            s.machine.leaving();
        }
    }

    /** The operator left the wizard: a run before its delete is released with nothing deleted; one past it is finished. */
    @Override
    public void abandon(Decision decision) {
        Session s = sessions.remove(Loaded.key(decision));
        if (s != null) {
            leave(s);
        }
    }

    /**
     * Releases every run still before its delete (their Leases and records go), and finishes those
     * past it: the re-apply and the verification of a StatefulSet deleted a moment ago are better
     * finished than cut off by the process's exit.
     */
    @Override
    public void close() {
        for (String key : List.copyOf(sessions.keySet())) {
            Session s = sessions.remove(key);
            if (s != null) {
                boolean wroteSomething = s.machine.position() != Convergence.Position.LOCK || s.machine.finished() != null;
                leave(s);
                if (wroteSomething) {
                    leftAtClose.add(key + ": " + whereItStands(key, s.machine.finished()));
                }
            }
        }
    }

    /**
     * For each StatefulSet whose wizard was still open when the UI closed (quit, Ctrl-C) and had begun to
     * write: where it stands once closing released or finished it, one line each, for the terminal the UI
     * leaves behind (the screen that said it is gone).
     */
    public List<String> leftAtClose() {
        return List.copyOf(leftAtClose);
    }

    private static String whereItStands(String key, Convergence.Turn end) {
        if (end instanceof Convergence.Turn.Ended e) {
            return e.result().sentence();
        }
        if (end instanceof Convergence.Turn.Stopped st) {
            return st.result().sentence() + (st.resumeCommand().isEmpty() ? "" : "; finish with: " + st.resumeCommand());
        }
        return "left midway, its record kept; finish with: kubectl stsresize resume " + key;
    }

    /** The delete gate answered no, and the machine advanced to its end: released before the delete, finished after it. */
    private void leave(Session s) {
        s.machine.leaving();
        if (s.machine.finished() != null || s.machine.position() == Convergence.Position.LOCK) {
            return; // over, or nothing taken yet
        }
        s.machine.declineDelete();
        try {
            while (s.machine.finished() == null) {
                if (s.machine.advance() instanceof Convergence.Turn.AtGate) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            // the record stays where the run could not finish; resume takes it up
        }
    }

    /** The StatefulSets whose run is past the delete gate and not finished: what closing finishes first. */
    public List<String> finishing() {
        List<String> out = new ArrayList<>();
        sessions.forEach((key, s) -> {
            if (s.machine.pastTheDelete()) {
                out.add(key);
            }
        });
        return out;
    }

    /** How the run of {@code decision} in this wizard ended (null while it goes on, or when no run started). */
    public Convergence.Turn finished(Decision decision) {
        Session s = sessions.get(Loaded.key(decision));
        return s == null ? null : s.machine.finished();
    }

    // ---- what the wizard shows ----------------------------------------------------------------------

    private static void report(StepRunner.Progress progress, ProgressEvent e) {
        if (e.isOutcome() && !e.warning()) {
            return; // the outcome again: the summary shows it, read back
        }
        progress.report(e.message(), e.kubectl(), e.warning());
    }

    /** Every claim the decision grows, read now. */
    private List<ClaimProgress> readClaims(Assessed a) {
        List<ClaimProgress> out = new ArrayList<>();
        for (ClaimState c : a.decision().claimsToGrow()) {
            Optional<ObjectNode> claim;
            try {
                claim = cluster.getClaim(a.namespace(), c.name());
            } catch (RuntimeException e) {
                continue;
            }
            out.add(progressOf(ClaimGrower.status(c.name(), "", c.target(), claim)));
        }
        return out;
    }

    /** A claim as the converge reads it, in the wizard's words. */
    static ClaimProgress progressOf(ClaimGrower.ClaimStatus c) {
        ClaimProgress.State state = switch (c.state()) {
            case REQUESTED_LESS -> ClaimProgress.State.REQUESTED_LESS;
            case WAITING -> ClaimProgress.State.RESIZING;
            case FILE_SYSTEM_PENDING -> ClaimProgress.State.FILE_SYSTEM_PENDING;
            case GROWN -> ClaimProgress.State.GROWN;
            case INFEASIBLE -> ClaimProgress.State.INFEASIBLE;
            case GONE -> ClaimProgress.State.GONE;
        };
        String message = state == ClaimProgress.State.INFEASIBLE || state == ClaimProgress.State.GONE ? c.message() : "";
        return new ClaimProgress(c.name(), c.request(), c.capacity(), c.to(), c.conditions(), state, message, c.latest());
    }

    /** The machine's result with the pods and claims read back now: UIDs, owners, capacity, waiting file systems. */
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
                    pod.map(ClusterSteps::controllerUid).orElse(""), p.restarted() || restarted.contains(p.name())));
        }
        List<Summary.ClaimCheck> claims = new ArrayList<>();
        for (StatefulSetResult.ClaimResult c : r.claims()) {
            Optional<ObjectNode> claim = cluster.getClaim(ns, c.name());
            Quantity target = Quantity.parseOrNull(c.to());
            ClaimGrower.State st = target == null ? ClaimGrower.State.GONE : ClaimGrower.status(c.name(), c.from(), target, claim).state();
            String capacity = claim.map(o -> o.path("status").path("capacity").path("storage").asText("")).orElse("");
            String pod = "";
            if (st == ClaimGrower.State.FILE_SYSTEM_PENDING) {
                String candidate = r.name() + c.name().substring(c.name().lastIndexOf('-'));
                pod = cluster.getPod(ns, candidate).filter(p -> p.path("spec").path("volumes").findValuesAsText("claimName")
                        .contains(c.name())).map(p -> candidate).orElse("");
            }
            // the run's word for the file system, unless the claim since says the kubelet grew it
            String fs = c.fileSystem() == null ? "" : st == ClaimGrower.State.GROWN && c.fileSystem().keepsAPodWaiting()
                    && c.fileSystemBytes() < 0 ? "grown" : c.fileSystem().label();
            claims.add(new Summary.ClaimCheck(c.name(), c.from(), c.to(), capacity, st == ClaimGrower.State.GROWN,
                    st == ClaimGrower.State.FILE_SYSTEM_PENDING, pod, fs));
        }
        pods.sort(Comparator.comparingInt((Summary.PodCheck p) -> ordinal(p.name())).thenComparing(Summary.PodCheck::name));
        claims.sort(Comparator.comparingInt((Summary.ClaimCheck c) -> ordinal(c.name())).thenComparing(Summary.ClaimCheck::name));
        // a claim's waiting file system is said on its own line, read now; the machine's sentence about it may be stale
        List<String> warnings = r.warnings().stream().filter(w -> !(w.startsWith("claim ") && w.contains(" waits for a file system resize"))).toList();
        return new Summary(r.outcome().label(), r.succeeded(), r.reason(), r.detail(), oldUid,
                r.claimsOnly() ? oldUid : newUid, pods, claims, warnings);
    }

    private static int ordinal(String name) {
        try {
            return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    private static String controllerUid(com.fasterxml.jackson.databind.JsonNode o) {
        for (var ref : o.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ref.path("uid").asText("");
            }
        }
        return "";
    }
}
