package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Decision;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.controller.Timings;
import dev.stsresize.sim.registry.DeleteOptions;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.registry.WriteOptions;
import dev.stsresize.tui.ClaimProgress;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.converge.Phase;
import dev.stsresize.tui.source.ClusterSteps;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One table of what can happen to a run, each row run through both drivers of the converge's one
 * machine — {@code apply}'s (the {@link Converger}, gates answered yes as {@code --yes} does) and the
 * terminal UI's wizard ({@link ClusterSteps}, its steps called in order as {@code Update} asks for them
 * once each gate passed) — expecting the same outcome, the same objects after, and for a stop request
 * the phase the record keeps (and {@code resume} finishing it). Before the one machine, the wizard
 * went on past a claim gone where {@code apply} did not wait, and waited without a deadline on a resize
 * that never comes: rows "vanished claim" and "slow resize" were red for it.
 */
class ConvergeScenariosTest {
    @TempDir Path home;

    enum Driver { APPLY, WIZARD }

    /** Where a row asks the run to stop, as Ctrl-C would: before it starts, after a write, or once a wait begins. */
    record StopAt(String afterWrite, boolean atStart, Phase inWait) {
        static final StopAt NEVER = new StopAt(null, false, null);

        static StopAt afterWrite(String w) {
            return new StopAt(w, false, null);
        }

        static StopAt inWait(Phase step) {
            return new StopAt(null, false, step);
        }

        static StopAt beforeStart() {
            return new StopAt(null, true, null);
        }
    }

    /** What a row does to the cluster right after a write of the run (the write's checkpoint name), or null. */
    interface Twist {
        void after(Harness h, String write);
    }

    record Row(String sts, Supplier<List<ObjectNode>> cluster, Timings timings, Duration timeout, Twist twist, StopAt stop,
            Outcome outcome, String reason, String phase) {
        Row(String sts, Supplier<List<ObjectNode>> cluster, Duration timeout, Twist twist, StopAt stop, Outcome outcome, String reason,
                String phase) {
            this(sts, cluster, Timings.FAST, timeout, twist, stop, outcome, reason, phase);
        }
    }

    /** The fast pace, but a resizer that takes 1.5 s: a wait for capacity has begun before any claim grew. */
    private static final Timings SLOW_RESIZER = new Timings(0, 2, 1, 2, 2, 5, 2, 1500, 3, 5);
    /** The fast pace, but a kubelet that grows a mounted file system 1.5 s after the resizer: after the verification. */
    private static final Timings SLOW_KUBELET = new Timings(0, 2, 1, 2, 2, 5, 2, 3, 1500, 5);
    /**
     * The fast pace, but controllers and the garbage collector that react 0.7 s after each change: the
     * StatefulSet deleted (its orphan finalizer removed), the re-applied one's observedGeneration and its
     * pods' adoption all come after the wait for them has begun.
     */
    private static final Timings SLOW_CONTROLLERS = new Timings(700, 700, 1, 2, 2, 5, 2, 3, 3, 5);
    /** A kubelet that never grows a mounted file system within a test: the run stops following it. */
    private static final Timings SILENT_KUBELET = FileSystemsTest.SILENT_KUBELET;

    /** What each claim's {@code fileSystem} ends as, for the rows that converge (the same through both drivers). */
    private static final Map<String, String> FILE_SYSTEMS = Map.of("converges", "grown", "file system pending", "waits-for-restart",
            "file system grown online", "grown", "Ctrl-C in the wait for the file systems", "pending");

    static Stream<Arguments> scenarios() {
        List<Arguments> rows = new ArrayList<>();
        row(rows, "converges", new Row("postgres", Demo::cluster, Harness.DEADLINE, null, StopAt.NEVER, Outcome.CONVERGED, "", null));
        row(rows, "vanished claim", new Row("postgres", Demo::cluster, Harness.DEADLINE, (h, w) -> {
            if (w.equals("patch claim data-postgres-2")) {
                removeClaim(h, "shop", "data-postgres-2");
            }
        }, StopAt.NEVER, Outcome.FAILED, "claim-gone", null));
        row(rows, "slow resize", new Row("postgres", () -> resizer("fast-online", "none"), Duration.ofSeconds(3), null, StopAt.NEVER,
                Outcome.FAILED, "resize-timeout", null));
        row(rows, "infeasible resize", new Row("postgres", () -> resizer("fast-online", "infeasible"), Harness.DEADLINE, null,
                StopAt.NEVER, Outcome.FAILED, "resize-infeasible", null));
        row(rows, "file system pending", new Row("clickhouse", Demo::cluster, Harness.DEADLINE, null, StopAt.NEVER, Outcome.CONVERGED,
                "", null));
        row(rows, "file system grown online", new Row("postgres", Demo::cluster, SLOW_KUBELET, Harness.DEADLINE, null, StopAt.NEVER,
                Outcome.CONVERGED, "", null));
        row(rows, "Ctrl-C in the wait for the file systems", new Row("postgres", Demo::cluster, SILENT_KUBELET, Harness.DEADLINE, null,
                StopAt.inWait(Phase.FILE_SYSTEMS), Outcome.CONVERGED, "", null));
        row(rows, "pod replaced", new Row("postgres", Demo::cluster, Harness.DEADLINE, (h, w) -> {
            if (w.startsWith("orphan-delete")) {
                h.sim.registry().delete(h.sim.catalog().byResource("", "pods").orElseThrow(), "shop", "postgres-1", DeleteOptions.BACKGROUND);
            }
        }, StopAt.NEVER, Outcome.FAILED, "not-verified", null));
        row(rows, "Ctrl-C before the first write", stopped(StopAt.beforeStart(), ""));
        row(rows, "Ctrl-C after the lock", stopped(StopAt.afterWrite("lock postgres"), Phase.LOCK.recorded()));
        row(rows, "Ctrl-C between claim patches", stopped(StopAt.afterWrite("patch claim data-postgres-0"), Phase.GROW.recorded()));
        row(rows, "Ctrl-C in the wait for capacity", new Row("postgres", Demo::cluster, SLOW_RESIZER, Harness.DEADLINE, null,
                StopAt.inWait(Phase.GROW), Outcome.STOPPED, "stopped", Phase.GROW.recorded()));
        row(rows, "Ctrl-C in the wait for the delete", new Row("postgres", Demo::cluster, SLOW_CONTROLLERS, Harness.DEADLINE, null,
                StopAt.inWait(Phase.ORPHAN_DELETE), Outcome.STOPPED, "stopped", Phase.ORPHAN_DELETE.recorded()));
        row(rows, "Ctrl-C after the orphan delete", stopped(StopAt.afterWrite("orphan-delete statefulset postgres"), Phase.ORPHAN_DELETE.recorded()));
        row(rows, "Ctrl-C after the re-apply", stopped(StopAt.afterWrite("re-apply statefulset postgres"), Phase.REAPPLY.recorded()));
        row(rows, "Ctrl-C in the verification", new Row("postgres", Demo::cluster, SLOW_CONTROLLERS, Harness.DEADLINE, null,
                StopAt.inWait(Phase.VERIFY), Outcome.STOPPED, "stopped", Phase.VERIFY.recorded()));
        return rows.stream();
    }

    private static Row stopped(StopAt at, String phase) {
        return new Row("postgres", Demo::cluster, Harness.DEADLINE, null, at, Outcome.STOPPED, "stopped", phase);
    }

    private static void row(List<Arguments> rows, String name, Row row) {
        rows.add(Arguments.of(name, row));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void both_drivers_of_the_one_machine_end_alike(String scenario, Row row) {
        Seen apply = run(row, Driver.APPLY, home.resolve("apply"));
        Seen wizard = run(row, Driver.WIZARD, home.resolve("wizard"));
        assertThat(apply.outcome()).as("apply: " + apply.detail).isEqualTo(row.outcome().label() + "/" + row.reason());
        assertThat(wizard).as("the wizard ends as apply does").isEqualTo(apply);
        if (row.phase() != null) {
            assertThat(apply.phase).as("the phase a stop reports").isEqualTo(row.phase());
        }
        if (row.phase() != null && !row.phase().isEmpty()) {
            assertThat(apply.pods()).as("after the resume, every pod kept its UID and names the StatefulSet standing now as controller")
                    .isNotEmpty().allMatch(p -> p.endsWith(": same UID, adopted"));
        }
        if (FILE_SYSTEMS.containsKey(scenario)) {
            assertThat(apply.fileSystems()).as("each claim's file system: " + apply.detail).isNotEmpty()
                    .containsOnly(FILE_SYSTEMS.get(scenario));
        }
    }

    /** How a driver left the run: outcome, reason, stop phase, and the objects after it (the detail is told, not compared). */
    record Seen(String outcomeAndReason, String phase, boolean recreated, Map<String, String> requests, List<String> journal,
            String leaseHolder, String resumed, String detail, List<String> fileSystems, List<String> pods) {
        String outcome() {
            return outcomeAndReason;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Seen s && s.outcomeAndReason.equals(outcomeAndReason) && s.phase.equals(phase)
                    && s.recreated == recreated && s.requests.equals(requests) && s.journal.equals(journal)
                    && s.leaseHolder.equals(leaseHolder) && s.resumed.equals(resumed) && s.fileSystems.equals(fileSystems)
                    && s.pods.equals(pods);
        }

        @Override
        public int hashCode() {
            return outcomeAndReason.hashCode();
        }
    }

    private Seen run(Row row, Driver driver, Path dir) {
        try (Harness h = Harness.start(dir, row.cluster().get(), row.timings())) {
            String ns = row.sts().equals("postgres") ? "shop" : "analytics";
            ObjectNode declared = Demo.declared(row.sts());
            String uidBefore = Harness.uid(h.sts(ns, row.sts()));
            Map<String, String> podsBefore = podUids(h, ns, row.sts());
            StopRequest stop = new StopRequest();
            Checkpoint checkpoint = w -> {
                if (row.twist() != null) {
                    row.twist().after(h, w);
                }
                if (w.equals(row.stop().afterWrite())) {
                    stop.request("SIGINT");
                }
            };
            if (row.stop().atStart()) {
                stop.request("SIGINT");
            }
            ConvergeOptions opts = Harness.options().withTimeout(row.timeout());
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(declared), false, Assessor.Depth.APPLY, false,
                    Optional.empty());
            Convergence.Turn end = driver == Driver.APPLY ? apply(h, a.items().get(0), opts, checkpoint, stop, row.stop().inWait())
                    : wizard(h, a.items().get(0), declared, opts, checkpoint, stop, row.stop().inWait());
            StatefulSetResult r = end instanceof Convergence.Turn.Stopped s ? s.result() : ((Convergence.Turn.Ended) end).result();
            String phase = end instanceof Convergence.Turn.Stopped s ? s.phase() : "";
            Map<String, String> requests = new TreeMap<>();
            for (StatefulSetResult.ClaimResult c : r.claims()) {
                ObjectNode claim = h.claim(ns, c.name());
                requests.put(c.name(), claim == null ? "gone" : claim.at("/spec/resources/requests/storage").asText());
            }
            ObjectNode lease = h.get("coordination.k8s.io/v1", "Lease", ns, LeaseLock.leaseName(row.sts()));
            String holder = lease == null ? "" : lease.at("/spec/holderIdentity").asText("");
            ObjectNode sts = h.sts(ns, row.sts());
            boolean recreated = sts != null && !Harness.uid(sts).equals(uidBefore);
            List<String> journal = h.journal.all().stream().map(x -> x.name() + "@" + x.phase()).toList();
            String resumed = "";
            if (end instanceof Convergence.Turn.Stopped s && !s.resumeCommand().isEmpty()) {
                Commands.Run res = Commands.run(h, "resume", "--yes", "--timeout", "60s", "-o", "json");
                resumed = "exit " + res.code() + (h.journal.all().isEmpty() ? ", journal empty" : ", journal kept");
                assertThat(res.code()).as(driver + ": resume after the stop\n" + res.describe()).isZero();
            }
            List<String> fileSystems = r.claims().stream().map(c -> c.fileSystem() == null ? "-" : c.fileSystem().label()).toList();
            return new Seen(r.outcome().label() + "/" + r.reason(), phase, recreated, requests, journal, holder, resumed, r.detail(),
                    fileSystems, podsAfter(h, ns, row.sts(), podsBefore));
        }
    }

    /** apply's driver: the Converger, every gate answered yes. */
    private static Convergence.Turn apply(Harness h, Assessed a, ConvergeOptions opts, Checkpoint checkpoint, StopRequest stop,
            Phase stopInWait) {
        Progress progress = new Progress() {
            @Override
            public void on(ProgressEvent e) {
                h.events.add(e);
            }

            @Override
            public void waiting(WaitTick tick) {
                if (tick.step() == stopInWait) {
                    stop.request("SIGINT");
                }
            }
        };
        Converger c = new Converger(h.cluster(), Clock.systemUTC(), h.journal, "alice@laptop 1", h.sim.url(), GateAnswers.YES, progress,
                checkpoint, stop);
        StatefulSetResult r = c.converge(a, opts, true);
        return c.stopped().isEmpty() ? new Convergence.Turn.Ended(r) : c.stopped().get(0);
    }

    /** The wizard's driver: its steps in order, each gate passed, as Update asks for them; the first failed step ends it. */
    private static Convergence.Turn wizard(Harness h, Assessed a, ObjectNode declared, ConvergeOptions opts, Checkpoint checkpoint,
            StopRequest stop, Phase stopInWait) {
        ClusterSteps steps = new ClusterSteps(h.cluster(), Clock.systemUTC(), h.journal, "alice@laptop 1", h.sim.url(), d -> declared,
                opts, checkpoint, stop);
        Decision d = a.decision();
        String uid = Harness.uid(a.live());
        for (Phase step : Phase.checklist(d)) {
            StepRunner.Progress progress = new StepRunner.Progress() {
                @Override
                public void report(String message, String kubectl, boolean warning) {}

                @Override
                public void claims(List<ClaimProgress> claims) {
                    if (step == Phase.WAIT && stopInWait == Phase.GROW || step == Phase.VERIFY && stopInWait == Phase.FILE_SYSTEMS) {
                        stop.request("SIGINT"); // the wait's first tick
                    }
                }

                @Override
                public void waiting(dev.stsresize.tui.WaitStatus wait) {
                    if (step == Phase.ORPHAN_DELETE && stopInWait == Phase.ORPHAN_DELETE
                            || step == Phase.VERIFY && stopInWait == Phase.VERIFY) {
                        stop.request("SIGINT"); // in VERIFY the adoption's wait comes first, before the file systems'
                    }
                }
            };
            StepRunner.Outcome o = steps.run(step, d, uid, progress);
            if (!o.ok()) {
                break;
            }
        }
        Convergence.Turn end = steps.finished(d);
        assertThat(end).as("the wizard's run ended").isNotNull();
        return end;
    }

    /** The StatefulSet's pods by name ({@code <sts>-<ordinal>} for each replica), each one's UID. */
    private static Map<String, String> podUids(Harness h, String ns, String sts) {
        Map<String, String> uids = new TreeMap<>();
        int replicas = h.sts(ns, sts).at("/spec/replicas").asInt(1);
        for (int i = 0; i < replicas; i++) {
            ObjectNode pod = h.pod(ns, sts + "-" + i);
            uids.put(sts + "-" + i, pod == null ? "" : Harness.uid(pod));
        }
        return uids;
    }

    /** Each pod of before as it is now: gone, replaced, or the same UID adopted (or not) by the StatefulSet standing now. */
    private static List<String> podsAfter(Harness h, String ns, String sts, Map<String, String> before) {
        ObjectNode owner = h.sts(ns, sts);
        String ownerUid = owner == null ? "(no StatefulSet)" : Harness.uid(owner);
        List<String> out = new ArrayList<>();
        before.forEach((name, uid) -> {
            ObjectNode pod = h.pod(ns, name);
            String state = pod == null ? "gone" : !Harness.uid(pod).equals(uid) ? "replaced"
                    : ownerUid.equals(Objects.controllerUid(pod)) ? "same UID, adopted" : "same UID, not adopted";
            out.add(name + ": " + state);
        });
        return out;
    }

    /** The demo cluster with StorageClass {@code name}'s simulated resizer set to {@code mode}. */
    private static List<ObjectNode> resizer(String name, String mode) {
        return Demo.clusterWith("StorageClass", name, sc -> ((ObjectNode) sc.path("metadata").path("annotations"))
                .put(ControllerManager.RESIZER_ANNOTATION, mode));
    }

    /** Someone deletes the claim and takes its protection finalizer off: it is gone at once. */
    private static void removeClaim(Harness h, String ns, String name) {
        ResourceType claims = h.sim.catalog().byResource("", "persistentvolumeclaims").orElseThrow();
        h.sim.registry().delete(claims, ns, name, DeleteOptions.BACKGROUND);
        ObjectNode c = h.claim(ns, name);
        if (c != null) {
            ((ObjectNode) c.path("metadata")).remove("finalizers");
            h.sim.registry().update(claims, ns, name, "", c, WriteOptions.by("test"));
        }
        Harness.await("claim " + name + " gone", () -> h.claim(ns, name) == null);
    }
}
