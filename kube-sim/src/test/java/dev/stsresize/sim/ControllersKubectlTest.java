package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.controller.Speed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The timed observations of real-apiserver-v1.32.md, made with the real kubectl against the simulated cluster and its controllers. */
@Tag("slow")
class ControllersKubectlTest extends KubectlOnSim {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String RETAIN = "";
    static final String DELETE_WITH_SET = "  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}\n";
    static ControllerManager controllers;

    @BeforeAll
    static void startControllers() {
        sim.load(Fixtures.yaml("apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: sim.csi.example}\nspec: {attachRequired: true}\n"),
                storageClass("online"), storageClass("offline"));
        controllers = ControllerManager.start(sim, Speed.fast);
    }

    @AfterAll
    static void stopControllers() {
        if (controllers != null) {
            controllers.close();
            assertThat(controllers.failures()).isEmpty();
        }
    }

    static com.fasterxml.jackson.databind.node.ObjectNode storageClass(String resizer) {
        return Fixtures.yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: " + resizer
                + "\n  annotations: {sim.stsresize.dev/resizer: " + resizer + "}\nprovisioner: sim.csi.example\nallowVolumeExpansion: true\n");
    }

    static String db(String ns, String cls, String size, String extra) {
        return dev.stsresize.testkit.TestObjects.db(ns, cls, size, "postgres:16") + extra;
    }

    /** A namespace with "db" applied server-side and both pods Ready. */
    static String settledDb(String cls, String extra) {
        String ns = freshNamespace();
        ok(kubectl.run(db(ns, cls, "1Gi", extra), "apply", "--server-side", "-f", "-"));
        ok(kubectl.run(null, "wait", "-n", ns, "--for=jsonpath={.status.readyReplicas}=2", "sts/db", "--timeout=30s"));
        return ns;
    }

    static Kubectl.Result ok(Kubectl.Result r) {
        assertThat(r.exit()).as(r.toString()).isZero();
        return r;
    }

    static JsonNode getJson(String ns, String... what) {
        List<String> args = new ArrayList<>(List.of("get", "-n", ns, "-o", "json"));
        args.addAll(List.of(what));
        try {
            return JSON.readTree(ok(kubectl.run(null, args.toArray(new String[0]))).out());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static Map<String, String> uids(String ns, String resource) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode o : getJson(ns, resource).path("items")) {
            out.put(o.at("/metadata/name").asText(), o.at("/metadata/uid").asText());
        }
        return out;
    }

    /** What "db" of {@code ns} is and owns, each by name and UID: read before it is orphaned, compared after. */
    record Owned(String uid, Map<String, String> pods, Map<String, String> claims, Map<String, String> revisions) {
        static Owned now(String ns) {
            return new Owned(getJson(ns, "sts", "db").at("/metadata/uid").asText(), uids(ns, "pods"), uids(ns, "pvc"),
                    uids(ns, "controllerrevisions"));
        }
    }

    static List<String> ownerUids(String ns, String resource) {
        List<String> out = new ArrayList<>();
        for (JsonNode o : getJson(ns, resource).path("items")) {
            for (JsonNode r : o.at("/metadata/ownerReferences")) {
                out.add(o.at("/metadata/name").asText() + "->" + r.path("uid").asText());
            }
        }
        return out;
    }

    static void orphanDelete(String ns, String uid) throws IOException {
        Path options = Files.writeString(dir.resolve("orphan-" + ns + ".json"), "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
                + "\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"" + uid + "\"}}");
        ok(kubectl.run(null, "delete", "--raw", "/apis/apps/v1/namespaces/" + ns + "/statefulsets/db", "-f", options.toString()));
    }

    static void poll(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting until " + what).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void orphan_delete_is_watched_as_MODIFIED_MODIFIED_DELETED_and_pods_and_claims_keep_their_uids() throws Exception {
        String ns = settledDb("online", DELETE_WITH_SET);
        Owned before = Owned.now(ns);
        Process watch = new ProcessBuilder("kubectl", "--kubeconfig", kubectl.kubeconfig().toString(), "--cache-dir", dir.toString(),
                "get", "sts", "db", "-n", ns, "--watch", "--output-watch-events", "-o", "json")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> types = new ArrayList<>();
        try (MappingIterator<JsonNode> events = JSON.readerFor(JsonNode.class).readValues(watch.getInputStream())) {
            assertThat(events.next().path("type").asText()).isEqualTo("ADDED");
            orphanDelete(ns, before.uid());
            while (!types.contains("DELETED") && events.hasNext()) {
                types.add(events.next().path("type").asText());
            }
        } finally {
            watch.destroy();
        }
        assertThat(types).containsExactly("MODIFIED", "MODIFIED", "DELETED");
        assertThat(ownerUids(ns, "pods")).as("pod owner references after the 404").isEmpty();
        assertThat(ownerUids(ns, "pvc")).as("claim owner references after the 404").isEmpty();
        assertThat(ownerUids(ns, "controllerrevisions")).isEmpty();
        assertThat(uids(ns, "pods")).isEqualTo(before.pods());
        assertThat(uids(ns, "pvc")).isEqualTo(before.claims());
    }

    @Test
    void re_apply_adopts_pods_and_revision_re_adds_claim_references_and_does_not_resize_claims() throws Exception {
        String ns = settledDb("online", DELETE_WITH_SET);
        Owned before = Owned.now(ns);
        orphanDelete(ns, before.uid());
        poll("the set is gone", () -> kubectl.run(null, "get", "sts", "db", "-n", ns).exit() != 0);
        ok(kubectl.run(db(ns, "online", "2Gi", DELETE_WITH_SET), "apply", "--server-side", "-f", "-"));
        String newUid = getJson(ns, "sts", "db").at("/metadata/uid").asText();
        assertThat(newUid).isNotEqualTo(before.uid());
        poll("pods, claims and revision point at the new set", () -> ownerUids(ns, "pods").size() == 2
                && ownerUids(ns, "pvc").size() == 2 && ownerUids(ns, "controllerrevisions").size() == 1);
        assertThat(ownerUids(ns, "pods")).containsExactly("db-0->" + newUid, "db-1->" + newUid);
        assertThat(ownerUids(ns, "pvc")).containsExactly("data-db-0->" + newUid, "data-db-1->" + newUid);
        assertThat(uids(ns, "pods")).as("adopted, not recreated").isEqualTo(before.pods());
        assertThat(uids(ns, "controllerrevisions")).isEqualTo(before.revisions());
        ok(kubectl.run(null, "wait", "-n", ns, "--for=jsonpath={.status.readyReplicas}=2", "sts/db", "--timeout=30s"));
        JsonNode status = getJson(ns, "sts", "db").path("status");
        String rev = before.revisions().keySet().iterator().next();
        assertThat(status.path("currentRevision").asText()).isEqualTo(rev);
        assertThat(status.path("updateRevision").asText()).isEqualTo(rev);
        for (JsonNode claim : getJson(ns, "pvc").path("items")) {
            assertThat(claim.at("/spec/resources/requests/storage").asText()).as("existing claims keep their size").isEqualTo("1Gi");
        }
    }

    @Test
    void kubectl_rollout_status_follows_a_template_change_and_kubectl_scale_adds_a_pod() {
        String ns = settledDb("online", RETAIN);
        ok(kubectl.run(null, "set", "image", "sts/db", "db=postgres:17", "-n", ns));
        Kubectl.Result rollout = ok(kubectl.run(null, "rollout", "status", "sts/db", "-n", ns, "--timeout=30s"));
        // the defaulted partition 0 makes kubectl's StatefulSetStatusViewer report a partitioned roll out;
        // on a loaded machine kubectl may first print "Waiting for …" lines while the pods roll
        assertThat(rollout.out()).endsWith("partitioned roll out complete: 2 new pods have been updated...\n");
        for (JsonNode pod : getJson(ns, "pods").path("items")) {
            assertThat(pod.at("/spec/containers/0/image").asText()).isEqualTo("postgres:17");
        }
        ok(kubectl.run(null, "scale", "sts/db", "--replicas=3", "-n", ns));
        ok(kubectl.run(null, "wait", "-n", ns, "--for=condition=Ready", "pod/db-2", "--timeout=30s"));
        assertThat(getJson(ns, "pvc", "data-db-2").at("/status/phase").asText()).isEqualTo("Bound");
    }

    @Test
    void background_delete_deletes_pods_and_the_claims_carrying_the_owner_reference() throws Exception {
        String ns = settledDb("online", DELETE_WITH_SET);
        ok(kubectl.run(null, "delete", "sts", "db", "-n", ns, "--cascade=background"));
        poll("pods and claims are gone", () -> kubectl.run(null, "get", "pods,pvc", "-n", ns, "-o", "name").out().isBlank());
    }

    @Test
    void online_resize_reaches_the_requested_capacity_and_kubectl_lists_the_events() throws Exception {
        String ns = settledDb("online", RETAIN);
        ok(kubectl.run(null, "patch", "pvc", "data-db-0", "-n", ns, "-p", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}"));
        ok(kubectl.run(null, "wait", "-n", ns, "--for=jsonpath={.status.capacity.storage}=2Gi", "pvc/data-db-0", "--timeout=30s"));
        poll("the kubelet's event", () -> kubectl.run(null, "get", "events", "-n", ns).out().contains("FileSystemResizeSuccessful"));
        String events = ok(kubectl.run(null, "get", "events", "-n", ns)).out();
        assertThat(events).startsWith("LAST SEEN").containsPattern(
                "Normal +ExternalExpanding +persistentvolumeclaim/data-db-0 +waiting for an external controller to expand this PVC");
        assertThat(events).containsPattern("Normal +SuccessfulCreate +statefulset/db +create Pod db-0 in StatefulSet db successful");
    }

    @Test
    void offline_resize_waits_at_FileSystemResizePending_until_the_pod_is_deleted() {
        String ns = settledDb("offline", RETAIN);
        ok(kubectl.run(null, "patch", "pvc", "data-db-0", "-n", ns, "-p", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}"));
        ok(kubectl.run(null, "wait", "-n", ns, "--for=condition=FileSystemResizePending", "pvc/data-db-0", "--timeout=30s"));
        assertThat(getJson(ns, "pvc", "data-db-0").at("/status/capacity/storage").asText()).isEqualTo("1Gi");
        ok(kubectl.run(null, "delete", "pod", "db-0", "-n", ns, "--wait=false"));
        ok(kubectl.run(null, "wait", "-n", ns, "--for=jsonpath={.status.capacity.storage}=2Gi", "pvc/data-db-0", "--timeout=30s"));
    }

    @Test
    void eviction_past_the_budget_is_refused_with_the_real_429_text() throws Exception {
        String ns = settledDb("online", RETAIN);
        ok(kubectl.run("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: db, namespace: " + ns + "}\n"
                + "spec: {minAvailable: 2, selector: {matchLabels: {app: db}}}\n", "apply", "-f", "-"));
        ok(kubectl.run(null, "wait", "-n", ns, "--for=jsonpath={.status.currentHealthy}=2", "pdb/db", "--timeout=30s"));
        Path eviction = Files.writeString(dir.resolve("eviction-" + ns + ".json"), "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\","
                + "\"metadata\":{\"name\":\"db-0\",\"namespace\":\"" + ns + "\"}}");
        Kubectl.Result r = kubectl.run(null, "create", "--raw", "/api/v1/namespaces/" + ns + "/pods/db-0/eviction", "-f", eviction.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).as(r.toString())
                .contains("Error from server (TooManyRequests): Cannot evict pod as it would violate the pod's disruption budget.");
    }
}
