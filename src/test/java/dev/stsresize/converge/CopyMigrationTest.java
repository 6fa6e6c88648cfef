package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Verdict;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.node.VolumeContents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy migration end to end on the simulated cluster (a local-path class that provisions but cannot expand):
 * each claim keeps its name at the target on a new volume holding the same content, the old volumes are kept Released
 * with Retain, no PersistentVolume is deleted, and a copy that differs stops the run with nothing deleted.
 */
class CopyMigrationTest {
    static final String NS = "files";
    static final String STS = "web";

    @TempDir Path home;

    /** The copy scenario's StatefulSet, decided as a copy (as {@code --copy} makes the decision). */
    static Assessed copyOf(Harness h) {
        Assessment a = new Assessor(h.cluster(), Progress.NONE).copying(CopyOptIn.withDefaults()).assess(DemoScenario.copyManifest(), false,
                Assessor.Depth.APPLY, false, Optional.empty());
        Assessed copy = a.items().get(0);
        assertThat(copy.decision().verdict()).as(copy.decision().detail()).isEqualTo(Verdict.COPY);
        return copy;
    }

    static ConvergeOptions copyOptions() {
        return Harness.options().withCopy(CopyOptIn.withDefaults());
    }

    static Map<String, VolumeContents.Content> contentsBefore(Harness h) {
        Map<String, VolumeContents.Content> before = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            String claim = "data-" + STS + "-" + i;
            String pv = h.claim(NS, claim).at("/spec/volumeName").asText();
            before.put(claim, h.sim.volumeContents().of(pv, () -> 0L));
        }
        return before;
    }

    @Test
    void every_claim_keeps_its_name_at_the_target_on_a_new_volume_with_the_same_content_and_the_old_volumes_are_kept() {
        try (Harness h = Harness.start(home, DemoScenario.copyCluster())) {
            Map<String, VolumeContents.Content> before = contentsBefore(h);
            Map<String, String> oldVolumes = new HashMap<>();
            before.keySet().forEach(c -> oldVolumes.put(c, h.claim(NS, c).at("/spec/volumeName").asText()));

            StatefulSetResult r = h.converger().converge(copyOf(h), copyOptions(), true);

            assertThat(r.outcome()).as(r.sentence()).isEqualTo(Outcome.CONVERGED);
            for (String claim : before.keySet()) {
                ObjectNode c = h.claim(NS, claim);
                String pv = c.at("/spec/volumeName").asText();
                assertThat(pv).as(claim + " on a new volume").isNotEqualTo(oldVolumes.get(claim)).isNotEmpty();
                assertThat(c.at("/status/phase").asText()).isEqualTo("Bound");
                assertThat(c.at("/status/capacity/storage").asText()).isEqualTo("2Gi");
                VolumeContents.Content now = h.sim.volumeContents().of(pv, () -> -1L);
                assertThat(now.manifestSha256()).as(claim + "'s content copied").isEqualTo(before.get(claim).manifestSha256());
                ObjectNode old = h.get("v1", "PersistentVolume", "", oldVolumes.get(claim));
                assertThat(old).as("old volume of " + claim + " kept").isNotNull();
                assertThat(old.at("/spec/persistentVolumeReclaimPolicy").asText()).isEqualTo("Retain");
                assertThat(old.at("/status/phase").asText()).isEqualTo("Released");
                assertThat(r.detail()).contains("kubectl delete pv").contains(oldVolumes.get(claim));
            }
            ObjectNode sts = h.sts(NS, STS);
            assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
            for (int i = 0; i < 2; i++) {
                ObjectNode pod = h.pod(NS, STS + "-" + i);
                assertThat(pod.at("/metadata/ownerReferences/0/uid").asText()).isEqualTo(Harness.uid(sts));
            }
            assertThat(h.journal.all()).as("journal after the finish").isEmpty();
            assertThat(deletesOf(h, "persistentvolumes")).as("no PersistentVolume deleted").isEmpty();
            assertThat(h.get("v1", "Pod", NS, "stsresize-copy-data-web-0")).as("copy pod gone").isNull();
            assertThat(h.get("v1", "PersistentVolumeClaim", NS, "stsresize-copy-data-web-0")).as("temporary claim gone").isNull();
        }
    }

    @Test
    void a_copy_whose_manifests_differ_stops_with_nothing_deleted_and_the_pods_back_on_their_claims() {
        Consumer<ObjectNode> fault = sc -> ((ObjectNode) sc.with("metadata").with("annotations")).put("sim.stsresize.dev/copy-fault",
                "differs");
        List<ObjectNode> objects = new ArrayList<>();
        for (ObjectNode o : DemoScenario.copyCluster()) {
            if ("StorageClass".equals(o.path("kind").asText())) {
                fault.accept(o);
            }
            objects.add(o);
        }
        try (Harness h = Harness.start(home, objects)) {
            Map<String, String> uids = new HashMap<>();
            for (int i = 0; i < 2; i++) {
                uids.put("data-web-" + i, Harness.uid(h.claim(NS, "data-web-" + i)));
            }
            StatefulSetResult r = h.converger().converge(copyOf(h), copyOptions(), true);

            assertThat(r.outcome()).as(r.sentence()).isEqualTo(Outcome.FAILED);
            assertThat(r.detail()).contains("not proven").contains("Nothing was deleted");
            uids.forEach((claim, uid) -> assertThat(Harness.uid(h.claim(NS, claim))).as(claim + " untouched").isEqualTo(uid));
            assertThat(deletesOf(h, "persistentvolumeclaims")).as("no claim deleted").isEmpty();
            assertThat(deletesOf(h, "persistentvolumes")).isEmpty();
            ObjectNode sts = h.sts(NS, STS);
            assertThat(sts).as("the StatefulSet re-applied so the evicted pod comes back").isNotNull();
            Harness.await("pod web-1 back under the StatefulSet", () -> h.pod(NS, "web-1") != null
                    && Harness.uid(h.sts(NS, STS)).equals(h.pod(NS, "web-1").at("/metadata/ownerReferences/0/uid").asText()));
            assertThat(h.pod(NS, "web-1").at("/spec/volumes/0/persistentVolumeClaim/claimName").asText()).isEqualTo("data-web-1");
        }
    }

    /**
     * The PV controller binds a claim pre-bound by volumeName 1.5 s after it is created here (a real binder can take up to
     * its 15 s resync): when the StatefulSet is re-applied, every claim of the set that exists is already Bound — a re-apply
     * that did not wait would find the re-created claim Pending.
     */
    @Test
    void the_statefulset_is_re_applied_only_once_each_re_created_claim_is_bound() {
        dev.stsresize.sim.controller.Timings f = dev.stsresize.sim.controller.Timings.FAST;
        dev.stsresize.sim.controller.Timings slowBinder = new dev.stsresize.sim.controller.Timings(f.controllerMillis(), f.gcMillis(),
                f.scheduleMillis(), f.startMillis(), f.readyMillis(), f.maxGraceMillis(), f.provisionMillis(), f.resizeMillis(),
                f.nodeExpandMillis(), f.retryMillis(), 1500, f.copyMillis());
        try (Harness h = Harness.start(home, DemoScenario.copyCluster(), slowBinder)) {
            List<String> unbound = new ArrayList<>();
            List<String> reapplies = new ArrayList<>();
            Checkpoint atReapply = w -> {
                if (w.startsWith("re-apply")) {
                    reapplies.add(w);
                    for (int i = 0; i < 2; i++) {
                        ObjectNode c = h.claim(NS, "data-web-" + i);
                        if (c != null && !"Bound".equals(c.at("/status/phase").asText())) {
                            unbound.add("data-web-" + i + " " + c.at("/status/phase").asText());
                        }
                    }
                }
            };
            StatefulSetResult r = h.converger(h.cluster(), "alice@laptop 1", GateAnswers.YES, atReapply).converge(copyOf(h), copyOptions(),
                    true);
            assertThat(r.outcome()).as(r.sentence()).isEqualTo(Outcome.CONVERGED);
            assertThat(reapplies).hasSize(2);
            assertThat(unbound).as("claims not Bound when the StatefulSet was re-applied").isEmpty();
        }
    }

    /**
     * Ctrl-C while a claim is copied: the run stops (exit 130's outcome) at the next safe point with nothing deleted, the
     * StatefulSet re-applied so the evicted pod comes back on its own claim, the record kept; resume then proves the copy
     * the pod finished meanwhile (or copies again) and finishes.
     */
    @Test
    void a_stop_during_the_copy_brings_the_pod_back_and_resume_finishes() {
        try (Harness h = Harness.start(home, DemoScenario.copyCluster())) {
            Map<String, VolumeContents.Content> before = contentsBefore(h);
            StopRequest stop = new StopRequest();
            Checkpoint ctrlC = w -> {
                if (w.startsWith("copy pod")) {
                    stop.request("SIGINT");
                }
            };
            Converger first = new Converger(h.cluster(), java.time.Clock.systemUTC(), h.journal, "alice@laptop 1", h.sim.url(),
                    GateAnswers.YES, e -> { }, ctrlC, stop);
            StatefulSetResult r = first.converge(copyOf(h), copyOptions(), true);

            assertThat(r.outcome()).as(r.sentence()).isEqualTo(Outcome.STOPPED);
            assertThat(r.detail()).contains("kubectl stsresize resume files/web").contains("back on their claims");
            assertThat(deletesOf(h, "persistentvolumeclaims")).as("no claim deleted").isEmpty();
            Harness.await("pod web-1 back under the StatefulSet", () -> h.sts(NS, STS) != null && h.pod(NS, "web-1") != null
                    && Harness.uid(h.sts(NS, STS)).equals(h.pod(NS, "web-1").at("/metadata/ownerReferences/0/uid").asText()));

            Commands.Run resumed = Commands.run(h, "resume", "--yes", "--timeout", "60s");
            assertThat(resumed.code()).as(resumed.describe()).isZero();
            for (String claim : before.keySet()) {
                String pv = h.claim(NS, claim).at("/spec/volumeName").asText();
                assertThat(h.sim.volumeContents().of(pv, () -> -1L).manifestSha256()).isEqualTo(before.get(claim).manifestSha256());
                assertThat(h.claim(NS, claim).at("/status/capacity/storage").asText()).isEqualTo("2Gi");
            }
        }
    }

    /** What the operator types: {@code apply --copy --yes}, through the whole CLI. */
    @Test
    void apply_copy_yes_moves_each_claim_and_says_which_volumes_to_free() throws Exception {
        try (Harness h = Harness.start(home, DemoScenario.copyCluster())) {
            Path manifest = Commands.manifest(home, DemoScenario.copyManifest());
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--copy", "--yes", "--timeout", "60s", "-o", "json");
            assertThat(r.code()).as(r.describe()).isZero();
            com.fasterxml.jackson.databind.JsonNode item = Harness.YAML.readTree(r.out()).path("items").path(0);
            assertThat(item.path("outcome").asText()).isEqualTo("converged");
            for (com.fasterxml.jackson.databind.JsonNode c : item.path("claims")) {
                assertThat(c.path("action").asText()).isEqualTo("copy");
                assertThat(c.path("previousVolume").asText()).isNotEmpty().isNotEqualTo(c.path("volume").asText());
                assertThat(c.path("filesCopied").asLong()).isPositive();
                assertThat(c.path("capacity").asText()).isEqualTo("2Gi");
            }
        }
    }

    /**
     * Seen on a real node: an evicted pod whose volume the kubelet could not unmount stayed Terminating. Nothing is copied
     * while it may still write: the run stops at --timeout, nothing deleted, no copy pod made, the StatefulSet back.
     */
    @Test
    void a_pod_that_does_not_stop_is_never_copied_from() {
        List<ObjectNode> objects = new ArrayList<>();
        for (ObjectNode o : DemoScenario.copyCluster()) {
            if ("Pod".equals(o.path("kind").asText()) && "web-1".equals(o.at("/metadata/name").asText())) {
                ((ObjectNode) o.get("metadata")).putArray("finalizers").add("example.com/hold");
            }
            objects.add(o);
        }
        try (Harness h = Harness.start(home, objects)) {
            StatefulSetResult r = h.converger().converge(copyOf(h), copyOptions().withTimeout(java.time.Duration.ofSeconds(3)), true);

            assertThat(r.outcome()).as(r.sentence()).isEqualTo(Outcome.FAILED);
            assertThat(r.detail()).contains("pod files/web-1 is still there after --timeout").contains("nothing was copied");
            assertThat(h.writes().stream().filter(w -> "POST".equals(w.method()) && w.path().endsWith("/pods"))).as("no copy pod").isEmpty();
            assertThat(deletesOf(h, "persistentvolumeclaims")).isEmpty();
            assertThat(h.sts(NS, STS)).as("re-applied").isNotNull();
        }
    }

    /**
     * A PodDisruptionBudget that lets no pod go: the server's dry run of each eviction answers 429 before any write, and
     * the copy is blocked (copy-budget) with nothing written — not found out after the StatefulSet was deleted.
     */
    @Test
    void a_budget_that_lets_no_pod_go_blocks_the_copy_before_any_write() {
        List<ObjectNode> objects = new ArrayList<>(DemoScenario.copyCluster());
        ObjectNode pdb = Harness.yaml("""
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: web, namespace: files}
                spec:
                  maxUnavailable: 0
                  selector: {matchLabels: {app.kubernetes.io/name: web}}
                """);
        objects.add(pdb);
        try (Harness h = Harness.start(home, objects)) {
            Assessment a = new Assessor(h.cluster(), Progress.NONE).copying(CopyOptIn.withDefaults()).assess(DemoScenario.copyManifest(),
                    false, Assessor.Depth.APPLY, false, Optional.empty());
            dev.stsresize.plan.Decision d = a.items().get(0).decision();
            assertThat(d.verdict()).as(d.detail()).isEqualTo(Verdict.BLOCKED);
            assertThat(((dev.stsresize.plan.Refusal) d).reason()).isEqualTo(dev.stsresize.plan.Reason.COPY_BUDGET);
            assertThat(d.detail()).contains("PodDisruptionBudget").contains("Nothing was written");
            assertThat(h.writes()).as("nothing written").isEmpty();
        }
    }

    static List<RecordedRequest> deletesOf(Harness h, String resource) {
        return h.writes().stream().filter(w -> "DELETE".equals(w.method()) && w.path().contains("/" + resource + "/")).toList();
    }
}
