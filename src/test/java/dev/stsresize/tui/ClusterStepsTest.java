package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.converge.GateAnswers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.Assessor;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.Steps;
import dev.stsresize.converge.Gate;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.Progress;
import dev.stsresize.plan.Decision;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.tui.source.ClusterDecisions;
import dev.stsresize.tui.source.ClusterSteps;
import dev.stsresize.tui.terminal.EffectRunner;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wizard's steps run by the converge's machine against the simulated cluster (in process,
 * controllers at fast speed), the way the UI calls them: one step at a time.
 */
class ClusterStepsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir Path home;
    private DemoOnSim demo;
    private SimCluster sim;
    private Cluster cluster;
    private ClusterDecisions source;
    private Journal journal;

    @BeforeEach
    void start() throws Exception {
        demo = DemoOnSim.start(home);
        sim = demo.sim;
        cluster = demo.cluster;
        source = demo.source;
        journal = new Journal(home.resolve("state"));
    }

    @AfterEach
    void stop() {
        demo.close();
    }

    private ClusterSteps steps() {
        return new ClusterSteps(cluster, Clock.systemUTC(), journal, "alice@laptop 1", sim.url(), source::declared,
                ConvergeOptions.defaults().withTimeout(Duration.ofSeconds(30)), Checkpoint.NONE, new StopRequest());
    }

    /** What the UI would have been told, in order. */
    static final class Seen implements StepRunner.Progress {
        final List<String> messages = new CopyOnWriteArrayList<>();
        final List<String> kubectl = new CopyOnWriteArrayList<>();
        final List<List<ClaimProgress>> claims = new CopyOnWriteArrayList<>();
        final List<Summary> summaries = new CopyOnWriteArrayList<>();

        @Override
        public void report(String message, String command, boolean warning) {
            messages.add(message);
            if (!command.isEmpty()) {
                kubectl.add(command);
            }
        }

        @Override
        public void claims(List<ClaimProgress> c) {
            claims.add(c);
        }

        @Override
        public void summary(Summary s) {
            summaries.add(s);
        }
    }

    private Decision decision(String name) {
        return source.load().decisions().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    private String uid(Decision d) {
        return source.load().uid(d);
    }

    /** Every request that cannot be taken back: a DELETE that is not a dry run. */
    static List<String> irreversible(List<RecordedRequest> log) {
        List<String> out = new ArrayList<>();
        for (RecordedRequest r : log) {
            // a run's own record Secret, deleted on release, is bookkeeping: not irreversible
            if (r.method().equals("DELETE") && !r.dryRun() && !r.path().matches("/api/v1/namespaces/[^/]+/secrets/stsresize-[^/]+")) {
                out.add(r.method() + " " + r.path());
            }
        }
        return out;
    }

    private Map<String, String> podUids(String ns, String sts, int n) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < n; i++) {
            out.put(sts + "-" + i, sim.get("v1", "Pod", ns, sts + "-" + i).path("metadata").path("uid").asText());
        }
        return out;
    }

    /** After a resize that kept failing, the wizard's way back lowers the requests, as revert does, and deletes nothing. */
    @Test
    void afterAFailedResizeTheWizardsRevertGivesTheRequestsBack() throws Exception {
        ObjectNode cls = sim.get("storage.k8s.io/v1", "StorageClass", "", "fast-online").deepCopy();
        ((ObjectNode) cls.with("metadata").with("annotations")).put("sim.stsresize.dev/resizer", "failing");
        ((ObjectNode) cls.with("metadata")).remove(List.of("resourceVersion", "uid", "managedFields"));
        sim.load(cls);
        Decision d = decision("postgres");
        String uid = uid(d);
        ClusterSteps steps = steps();
        Seen seen = new Seen();
        assertThat(steps.run(Phase.CHECK, d, uid, seen).ok()).as(seen.messages.toString()).isTrue();
        assertThat(steps.run(Phase.GROW, d, uid, seen).ok()).as(seen.messages.toString()).isTrue();
        StepRunner.Outcome wait = steps.run(Phase.WAIT, d, uid, seen);
        assertThat(wait.ok()).as(wait.message()).isFalse();
        assertThat(wait.message()).contains("kubectl stsresize revert shop/postgres");
        assertThat(seen.messages).as("the failure's paragraph is the step's failure, said once: not also in the log (real node D1)")
                .noneMatch(m -> m.contains("Nothing was deleted"));

        StepRunner.Outcome back = steps.run(Phase.REVERT, d, uid, seen);
        assertThat(back.ok()).as(back.message() + "\n" + seen.messages).isTrue();
        assertThat(back.message()).startsWith("3 claim request(s) given back");
        for (int i = 0; i < 3; i++) {
            ObjectNode claim = sim.get("v1", "PersistentVolumeClaim", "shop", "data-postgres-" + i);
            assertThat(claim.at("/spec/resources/requests/storage").asText()).as("claim %d", i).isNotEqualTo("20Gi");
            assertThat(claim.at("/metadata/annotations").has("stsresize.dev/size-before")).isFalse();
        }
        assertThat(irreversible(sim.requests())).isEmpty();
    }

    @Test
    void everyStepOfTheWizardConvergesPostgresAndTheSummaryIsReadBackFromTheObjects() throws Exception {
        Decision d = decision("postgres");
        String uid = uid(d);
        Map<String, String> before = podUids("shop", "postgres", 3);
        ClusterSteps steps = steps();
        Seen seen = new Seen();
        for (Phase step : Phase.checklist(d)) {
            StepRunner.Outcome o = steps.run(step, d, uid, seen);
            assertThat(o.ok()).as(step + ": " + o.message() + "\n" + seen.messages).isTrue();
        }
        assertThat(podUids("shop", "postgres", 3)).as("no pod restarted").isEqualTo(before);
        assertThat(seen.kubectl).as("each write's kubectl equivalent, as it happened")
                .anySatisfy(c -> assertThat(c).startsWith("kubectl patch pvc data-postgres-0 -n shop"))
                .anySatisfy(c -> assertThat(c).contains("statefulsets/postgres").contains("\"propagationPolicy\":\"Orphan\"").contains(uid))
                .anySatisfy(c -> assertThat(c).startsWith("kubectl apply --server-side"));
        assertThat(seen.claims).as("claims read while the steps ran").isNotEmpty();
        Summary s = seen.summaries.get(seen.summaries.size() - 1);
        String newUid = sim.get("apps/v1", "StatefulSet", "shop", "postgres").path("metadata").path("uid").asText();
        assertThat(s.converged()).isTrue();
        assertThat(s.problems()).isEmpty();
        assertThat(s.oldUid()).isEqualTo(uid);
        assertThat(s.newUid()).isEqualTo(newUid).isNotEqualTo(uid);
        assertThat(s.pods()).extracting(Summary.PodCheck::name).containsExactly("postgres-0", "postgres-1", "postgres-2");
        assertThat(s.pods()).allSatisfy(p -> {
            assertThat(p.uidAfter()).isEqualTo(before.get(p.name())).isEqualTo(p.uidBefore());
            assertThat(p.owner()).isEqualTo(newUid);
        });
        assertThat(s.claims()).allSatisfy(c -> assertThat(c.capacity()).isEqualTo("20Gi"));
        assertThat(s.claims()).as("each file system followed by the machine").allSatisfy(c -> assertThat(c.fileSystem()).isEqualTo("grown"));
        assertThat(s.spaceUsable()).as("the summary says the pods can write to the new space").isTrue();
        assertThat(s.restartable()).isEmpty();
        List<String> deletes = irreversible(sim.requests());
        assertThat(deletes).as("exactly the one orphan delete").hasSize(1);
        RecordedRequest del = sim.requests().stream().filter(r -> r.method().equals("DELETE") && !r.dryRun())
                .findFirst().orElseThrow();
        JsonNode body = JSON.readTree(del.body());
        assertThat(body.path("propagationPolicy").asText()).isEqualTo("Orphan");
        assertThat(body.path("preconditions").path("uid").asText()).isEqualTo(uid);
        assertThat(lease("shop", "postgres").path("spec").path("holderIdentity").asText("")).as("the Lease released").isEmpty();
        assertThat(journal.all()).as("the journal entry removed").isEmpty();
    }

    /** The wizard's steps of {@code d} run through the check, the grow and the wait: at the name gate, nothing deleted. */
    private ClusterSteps atTheDeleteGate(Decision d, String uid) {
        ClusterSteps steps = steps();
        Seen seen = new Seen();
        for (Phase step : List.of(Phase.CHECK, Phase.GROW, Phase.WAIT)) {
            assertThat(steps.run(step, d, uid, seen).ok()).as(step + " " + seen.messages).isTrue();
        }
        return steps;
    }

    private JsonNode lease(String ns, String sts) {
        return sim.get("coordination.k8s.io/v1", "Lease", ns, "stsresize-" + sts);
    }

    @Test
    void leavingAtTheDeleteGateWritesNothingIrreversibleAndReleasesTheLease() throws Exception {
        Decision d = decision("postgres");
        String uid = uid(d);
        ClusterSteps steps = atTheDeleteGate(d, uid);
        assertThat(lease("shop", "postgres").path("spec").path("holderIdentity").asText("")).as("held while at the gate")
                .isEqualTo("alice@laptop 1");
        steps.abandon(d);
        assertThat(irreversible(sim.requests())).as("no DELETE reached the server").isEmpty();
        assertThat(sim.get("apps/v1", "StatefulSet", "shop", "postgres").path("metadata").path("uid").asText()).isEqualTo(uid);
        assertThat(lease("shop", "postgres").path("spec").path("holderIdentity").asText("")).as("the Lease released").isEmpty();
        assertThat(journal.all()).as("no journal entry left to resume").isEmpty();
        assertThat(sim.get("v1", "PersistentVolumeClaim", "shop", "data-postgres-0").at("/spec/resources/requests/storage").asText())
                .as("the claims stay grown").isEqualTo("20Gi");
    }

    @Test
    void closingTheUiAtTheNameGateSaysWhereTheRunStandsAndARunNotBegunSaysNothing() throws Exception {
        Decision d = decision("postgres");
        String uid = uid(d);
        ClusterSteps steps = atTheDeleteGate(d, uid);
        steps.close(); // the UI quit (q, Ctrl-C) with the wizard at the name gate
        assertThat(steps.runs().leftAtClose()).singleElement().asString().startsWith("shop/postgres: ")
                .contains("the claims are grown, the StatefulSet is untouched");
        assertThat(irreversible(sim.requests())).isEmpty();

        ClusterSteps checkedOnly = steps();
        checkedOnly.run(Phase.CHECK, decision("postgres"), uid(decision("postgres")), new Seen());
        checkedOnly.close();
        assertThat(checkedOnly.runs().leftAtClose()).as("nothing written: nothing to say").isEmpty();
    }

    @Test
    void negativeControl_aDeleteStepAskedForBeforeTheGateIsCaughtByTheRequestLog() throws Exception {
        Decision d = decision("postgres");
        String uid = uid(d);
        // a broken Update: it asks for the delete right after the wait, with no name typed
        ClusterSteps steps = steps();
        Seen seen = new Seen();
        steps.run(Phase.CHECK, d, uid, seen);
        steps.run(Phase.GROW, d, uid, seen);
        steps.run(Phase.WAIT, d, uid, seen);
        steps.run(Phase.ORPHAN_DELETE, d, uid, seen);
        steps.abandon(d);
        assertThat(irreversible(sim.requests())).as("the check of the test above goes red for a delete let through").isNotEmpty();
    }

    @Test
    void theDeleteStepRefusesWithoutTheOperatorsAllowanceForThisUidAndTheRunStillHolds() throws Exception {
        Decision d = decision("postgres");
        String uid = uid(d);
        ClusterSteps steps = steps();
        Seen seen = new Seen();
        steps.run(Phase.CHECK, d, uid, seen);
        assertThat(steps.run(Phase.GROW, d, uid, seen).ok()).isTrue();
        assertThat(steps.run(Phase.WAIT, d, uid, seen).ok()).isTrue();
        for (String other : List.of("", "0b4f1c3e-0000-4000-8000-000000000000")) {
            assertThatThrownBy(() -> steps.run(Phase.ORPHAN_DELETE, d, other, seen))
                    .isInstanceOf(Steps.NotAllowed.class).hasMessageContaining("has not allowed it");
        }
        assertThat(irreversible(sim.requests())).isEmpty();
        assertThat(lease("shop", "postgres").path("spec").path("holderIdentity").asText("")).as("the run still holds")
                .isEqualTo("alice@laptop 1");
        steps.abandon(d);
        assertThat(irreversible(sim.requests())).isEmpty();
        assertThat(sim.get("apps/v1", "StatefulSet", "shop", "postgres").path("metadata").path("uid").asText()).isEqualTo(uid);
        assertThat(lease("shop", "postgres").path("spec").path("holderIdentity").asText("")).as("released on leaving").isEmpty();
    }

    @Test
    void claimsOnlyGrowWaitsForCapacityAndVerifiesWithoutARecreate() throws Exception {
        Decision d = decision("minio");
        ClusterSteps steps = steps();
        Seen seen = new Seen();
        for (Phase step : Phase.checklist(d)) {
            StepRunner.Outcome o = steps.run(step, d, uid(d), seen);
            assertThat(o.ok()).as(step + ": " + o.message() + "\n" + seen.messages).isTrue();
        }
        Summary s = seen.summaries.get(seen.summaries.size() - 1);
        assertThat(s.outcome()).isEqualTo("claims-grown");
        assertThat(s.claims()).isNotEmpty().allSatisfy(c -> assertThat(c.atTarget()).as(c.toString()).isTrue());
        assertThat(irreversible(sim.requests())).isEmpty();
    }

    @Test
    void aFileSystemWaitingForItsPodIsOfferedAndTheRestartEvictsOnlyAfterAdoption() throws Exception {
        Decision d = decision("clickhouse");
        Map<String, String> before = podUids("analytics", "clickhouse", 2);
        ClusterSteps steps = steps();
        Seen seen = new Seen();
        for (Phase step : Phase.checklist(d)) {
            StepRunner.Outcome o = steps.run(step, d, uid(d), seen);
            assertThat(o.ok()).as(step + ": " + o.message() + "\n" + seen.messages).isTrue();
        }
        Summary verified = seen.summaries.get(seen.summaries.size() - 1);
        assertThat(verified.restartable()).extracting(Summary.ClaimCheck::pod).containsExactlyInAnyOrder("clickhouse-0", "clickhouse-1");
        assertThat(verified.claims()).allSatisfy(c -> assertThat(c.fileSystem()).isEqualTo("waits-for-restart"));
        assertThat(verified.spaceUsable()).as("the summary says the pods cannot use the space yet").isFalse();
        assertThat(podUids("analytics", "clickhouse", 2)).as("nothing restarted without the operator").isEqualTo(before);
        StepRunner.Outcome restart = steps.run(Phase.RESTART, d, uid(d), seen);
        assertThat(restart.ok()).as(restart.message()).isTrue();
        Summary after = seen.summaries.get(seen.summaries.size() - 1);
        assertThat(after.claims()).allSatisfy(c -> assertThat(c.capacity()).isEqualTo("100Gi"));
        assertThat(after.pods()).allSatisfy(p -> assertThat(p.restarted()).isTrue());
        assertThat(after.spaceUsable()).as("after the restarts, read back").isTrue();
        assertThat(after.problems()).isEmpty();
        assertThat(seen.kubectl).anySatisfy(c -> assertThat(c).contains("eviction"));
    }

    @Test
    void aRunStoppedAfterTheOrphanDeleteIsFoundAtStartAndResumedToAVerifiedSummary() throws Exception {
        Map<String, String> before = podUids("shop", "postgres", 3);
        ObjectNode declared = source.declared(decision("postgres"));
        // a crash right after the delete, as the Converger's crash tests make one
        Converger crashing = new Converger(cluster, Clock.systemUTC(), journal, "bob@desk 7", sim.url(), GateAnswers.YES, Progress.NONE, w -> {
            if (w.startsWith("orphan-delete")) {
                throw new IllegalStateException("the laptop lid closed");
            }
        });
        var a = new Assessor(cluster, Progress.NONE).assess(List.of(declared), false, Assessor.Depth.APPLY, false, java.util.Optional.empty());
        try {
            crashing.converge(a.items().get(0), ConvergeOptions.defaults().withTimeout(Duration.ofSeconds(30)), true);
        } catch (IllegalStateException expected) {
            // stopped where the test wanted
        }
        // the garbage collector finishes the orphan delete (the orphan finalizer) a moment later
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (sim.get("apps/v1", "StatefulSet", "shop", "postgres") != null && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Loaded loaded = source.load();
        assertThat(loaded.interrupted()).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo("shop/postgres");
            assertThat(r.absent()).isTrue();
            assertThat(r.pastTheDeleteGate()).isTrue();
            assertThat(r.holder()).isEqualTo("bob@desk 7");
        });
        Decision absent = loaded.decisions().stream().filter(d -> d.name().equals("postgres")).findFirst().orElseThrow();
        Seen seen = new Seen();
        StepRunner.Outcome o = steps().run(Phase.RESUME, absent, "", seen);
        assertThat(o.ok()).as(o.message() + "\n" + seen.messages).isTrue();
        Summary s = seen.summaries.get(0);
        assertThat(s.converged()).isTrue();
        assertThat(s.pods()).allSatisfy(p -> assertThat(p.uidAfter()).isEqualTo(before.get(p.name())));
        assertThat(source.load().interrupted()).isEmpty();
    }

    /** Update and the EffectRunner with the real runner, as UiLoop runs them, minus the screen. */
    private final class Loop {
        final java.util.concurrent.BlockingQueue<UiEvent> events = new java.util.concurrent.LinkedBlockingQueue<>();
        final EffectRunner effects;
        UiState state;

        Loop(ClusterSteps steps) {
            effects = new EffectRunner(source, steps, events::add);
            state = Update.apply(UiState.initial(100, 30), new UiEvent.DecisionsLoaded(source.load())).state();
        }

        void apply(UiEvent e) {
            Transition t = Update.apply(state, e);
            state = t.state();
            t.effects().forEach(effects::run);
        }

        void keys(String typed) {
            for (char c : typed.toCharArray()) {
                apply(new UiEvent.Pressed(Key.ch(c)));
            }
        }

        /** Applies the events the effects post until {@code until} holds. */
        void await(String what, java.util.function.Predicate<UiState> until) throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!until.test(state)) {
                UiEvent e = events.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (e != null) {
                    apply(e);
                }
                assertThat(System.nanoTime()).as("waiting until " + what + "; wizard: " + state.wizard()).isLessThan(deadline);
            }
        }
    }

    @Test
    void escAtTheNameGateThroughTheUiReleasesTheLeaseWithNothingDeleted() throws Exception {
        Loop ui = new Loop(steps());
        for (int i = 0; i < ui.state.visible().size(); i++) {
            if (ui.state.visible().get(i).name().equals("postgres")) {
                ui.state = ui.state.withCursor(i);
            }
        }
        ui.keys("a");
        ui.await("the grow gate", s -> s.wizard() != null && s.wizard().gate() == Gate.CONFIRM);
        ui.keys("y");
        ui.await("the name gate", s -> s.wizard().gate() == Gate.TYPE_NAME);
        assertThat(lease("shop", "postgres").path("spec").path("holderIdentity").asText("")).isEqualTo("alice@laptop 1");
        assertThat(ui.state.wizard().claims()).as("claims shown as read").hasSize(3);
        ui.apply(new UiEvent.Pressed(Key.of(Key.Kind.ESCAPE)));
        assertThat(ui.state.wizard()).isNull();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        // the Lease is released on the server first, then the local journal entry removed: wait for both
        while ((!lease("shop", "postgres").path("spec").path("holderIdentity").asText("").isEmpty() || !journal.all().isEmpty())
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(lease("shop", "postgres").path("spec").path("holderIdentity").asText("")).as("released").isEmpty();
        assertThat(irreversible(sim.requests())).isEmpty();
        assertThat(journal.all()).isEmpty();
        ui.effects.close();
    }
}
