package dev.stsresize.sim.controller;

import static dev.stsresize.sim.controller.Running.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.node.VolumeContents;
import dev.stsresize.sim.usage.Growth;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The copy migration's copy pod (its contract: docs/design.md, "The copy pod") run by the simulated kubelet, its log through the pods/log
 * subresource, and the pvc-protection rule the copy's step 5 relies on: a Completed pod holds its claims.
 */
class CopyPodTest {
    static final long USED = 300_000_000L;

    /** A CSI class that provisions but does not allow expansion (as rancher's local-path); {@code fault}: its copy-fault annotation. */
    static ObjectNode fixedClass(String name, String fault) {
        return Running.yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: " + name
                + (fault == null ? "" : "\n  annotations: {sim.stsresize.dev/copy-fault: " + fault + "}")
                + "\nprovisioner: " + Running.CSI_DRIVER + "\nreclaimPolicy: Delete\n");
    }

    static ObjectNode copyPod(String claim, String temporary) {
        return Running.yaml("apiVersion: v1\nkind: Pod\nmetadata:\n  name: stsresize-copy-" + claim + "\n  namespace: default\n"
                + "  labels: {app.kubernetes.io/managed-by: kubectl-stsresize, stsresize.dev/copy-of: " + claim + "}\n"
                + "spec:\n  restartPolicy: Never\n  securityContext: {runAsUser: 0}\n"
                + "  containers:\n  - name: copy\n    image: busybox:1.36\n"
                + "    command: [sh, -c, \"# stsresize-copy v1\\ncp -a /src/. /dst/\\n\"]\n"
                + "    volumeMounts: [{name: src, mountPath: /src, readOnly: true}, {name: dst, mountPath: /dst}]\n"
                + "  volumes:\n  - {name: src, persistentVolumeClaim: {claimName: " + claim + ", readOnly: true}}\n"
                + "  - {name: dst, persistentVolumeClaim: {claimName: " + temporary + "}}\n");
    }

    /** Claims data (1Gi, 300 MB used) and tmp (2Gi), both Bound, tmp of class {@code tmpClass}. */
    static Running copying(String tmpClass, ObjectNode... classes) {
        Running c = Running.with(classes);
        c.sim.usage().set("default", "data", Growth.bytes(USED, 0));
        c.create("persistentvolumeclaims", VolumeBinderTest.claim("data", "fixed", "1Gi"));
        c.create("persistentvolumeclaims", VolumeBinderTest.claim("tmp", tmpClass, "2Gi"));
        await("data and tmp are Bound", () -> VolumeBinderTest.phase(c, "data").equals("Bound") && VolumeBinderTest.phase(c, "tmp").equals("Bound"));
        return c;
    }

    static HttpResponse<String> get(Running c, String path, String token) throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(c.sim.clientTls()).build();
        return client.send(HttpRequest.newBuilder(URI.create(c.sim.url() + path)).header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String podPhase(Running c, String pod) {
        ObjectNode p = c.get("pods", pod);
        return p == null ? "" : p.at("/status/phase").asText();
    }

    static final String LOG = "/api/v1/namespaces/default/pods/stsresize-copy-data/log";

    @Test
    void the_copy_pod_copies_the_source_volume_prints_both_manifests_and_ends_Succeeded() throws Exception {
        try (Running c = copying("fixed", fixedClass("fixed", null))) {
            c.create("pods", copyPod("data", "tmp"));
            await("the copy pod ends", () -> podPhase(c, "stsresize-copy-data").equals("Succeeded"));
            ObjectNode pod = c.get("pods", "stsresize-copy-data");
            assertThat(pod.at("/status/containerStatuses/0/state/terminated/exitCode").asInt()).isZero();
            assertThat(pod.at("/status/containerStatuses/0/state/terminated/reason").asText()).isEqualTo("Completed");

            HttpResponse<String> log = get(c, LOG, c.sim.adminToken());
            assertThat(log.statusCode()).isEqualTo(200);
            assertThat(log.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
            List<String> lines = log.body().lines().toList();
            VolumeContents.Content src = c.sim.volumeContents().of(c.get("persistentvolumeclaims", "data").at("/spec/volumeName").asText(),
                    () -> -1);
            assertThat(src.bytes()).as("the source's used bytes").isEqualTo(USED);
            assertThat(lines.get(0)).isEqualTo("stsresize-copy: start src-files=" + src.files() + " src-bytes=" + USED);
            assertThat(lines).contains(
                    "stsresize-copy: manifest src sha256=" + src.manifestSha256() + " files=" + src.files() + " bytes=" + USED,
                    "stsresize-copy: manifest dst sha256=" + src.manifestSha256() + " files=" + src.files() + " bytes=" + USED,
                    "stsresize-copy: filesystem ext4 size-kib=2097152 used-kib=" + (USED + 1023) / 1024);
            assertThat(lines.get(lines.size() - 1)).isEqualTo("stsresize-copy: verified");
            assertThat(lines).anyMatch(l -> l.startsWith("stsresize-copy: progress files="));
            VolumeContents.Content dst = c.sim.volumeContents().of(c.get("persistentvolumeclaims", "tmp").at("/spec/volumeName").asText(),
                    () -> -1);
            assertThat(dst).isEqualTo(src);
            assertThat(c.sim.usage().measure("default", "tmp", 2L << 30).usedBytes()).as("the copy's used bytes").isEqualTo(USED);
            assertThat(get(c, LOG + "?tailLines=1", c.sim.adminToken()).body()).isEqualTo("stsresize-copy: verified\n");
            // the kubelet's tail (kuberuntime/logs/logs.go): the last N lines, none for 0, all when N passes their number
            assertThat(get(c, LOG + "?tailLines=2", c.sim.adminToken()).body())
                    .isEqualTo(String.join("\n", lines.subList(lines.size() - 2, lines.size())) + "\n");
            assertThat(get(c, LOG + "?tailLines=0", c.sim.adminToken()).body()).isEmpty();
            assertThat(get(c, LOG + "?tailLines=100000", c.sim.adminToken()).body()).isEqualTo(String.join("\n", lines) + "\n");
        }
    }

    @Test
    void a_copy_fault_on_the_destination_class_makes_the_content_differ_and_the_pod_fail_with_exit_3() {
        try (Running c = copying("torn", fixedClass("fixed", null), fixedClass("torn", "differs"))) {
            c.create("pods", copyPod("data", "tmp"));
            await("the copy pod ends", () -> podPhase(c, "stsresize-copy-data").equals("Failed"));
            ObjectNode pod = c.get("pods", "stsresize-copy-data");
            assertThat(pod.at("/status/containerStatuses/0/state/terminated/exitCode").asInt()).isEqualTo(3);
            List<String> lines = c.sim.containerLogs().lines(Running.uid(pod), "copy", -1);
            String srcDigest = lines.stream().filter(l -> l.startsWith("stsresize-copy: manifest src ")).findFirst().orElseThrow().split(" ")[3];
            String dstDigest = lines.stream().filter(l -> l.startsWith("stsresize-copy: manifest dst ")).findFirst().orElseThrow().split(" ")[3];
            assertThat(dstDigest).isNotEqualTo(srcDigest);
            assertThat(lines.get(lines.size() - 1)).startsWith("stsresize-copy: differs ./data/");
            assertThat(lines).doesNotContain("stsresize-copy: verified");
        }
    }

    @Test
    void the_log_of_a_pod_answers_as_log_go_and_the_kubelet_do() throws Exception {
        try (Running c = Running.with(fixedClass("fixed", null))) {
            c.create("pods", copyPod("data", "tmp")); // its claims do not exist: never scheduled
            await("unschedulable", () -> c.event("stsresize-copy-data", "FailedScheduling") != null);
            HttpResponse<String> empty = get(c, LOG, c.sim.adminToken());
            assertThat(empty.statusCode()).as("a pod on no node").isEqualTo(200);
            assertThat(empty.body()).isEmpty();
            HttpResponse<String> wrong = get(c, LOG + "?container=rsync", c.sim.adminToken());
            assertThat(wrong.statusCode()).isEqualTo(400);
            assertThat(wrong.body()).contains("\"message\":\"container rsync is not valid for pod stsresize-copy-data\"", "\"reason\":\"BadRequest\"");
            c.create("pods", Running.yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: placed, namespace: default}\n"
                    + "spec: {nodeName: sim-node-1, containers: [{name: a, image: busybox}, {name: b, image: busybox}]}\n"));
            HttpResponse<String> two = get(c, "/api/v1/namespaces/default/pods/placed/log", c.sim.adminToken());
            assertThat(two.statusCode()).isEqualTo(400);
            assertThat(two.body()).contains("a container name must be specified for pod placed, choose one of: [a b]");
            c.sim.load(Running.yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: reader, namespace: default}\n"));
            HttpResponse<String> forbidden = get(c, LOG, c.sim.tokenFor("default", "reader"));
            assertThat(forbidden.statusCode()).isEqualTo(403);
            assertThat(forbidden.body()).contains("cannot get resource \\\"pods/log\\\" in API group \\\"\\\" in the namespace \\\"default\\\"");
        }
    }

    @Test
    void the_log_of_a_container_not_started_is_a_400() throws Exception {
        // no controllers at all: a kubelet started and then stopped could start the container first
        try (dev.stsresize.sim.SimCluster sim = dev.stsresize.sim.SimCluster.start()) {
            sim.load(Running.yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: placed, namespace: default}\n"
                    + "spec: {nodeName: sim-node-1, containers: [{name: a, image: busybox}]}\n"
                    + "status: {phase: Pending, containerStatuses: [{name: a, ready: false, restartCount: 0, image: busybox, imageID: '',"
                    + " state: {waiting: {reason: ContainerCreating}}}]}\n"));
            HttpClient client = HttpClient.newBuilder().sslContext(sim.clientTls()).build();
            HttpResponse<String> waiting = client.send(HttpRequest.newBuilder(URI.create(sim.url() + "/api/v1/namespaces/default/pods/placed/log"))
                    .header("Authorization", "Bearer " + sim.adminToken()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(waiting.statusCode()).isEqualTo(400);
            assertThat(waiting.body()).contains("\"message\":\"container \\\"a\\\" in pod \\\"placed\\\" is waiting to start: ContainerCreating\"");
        }
    }

    @Test
    void a_claim_used_by_a_Completed_pod_keeps_its_protection_until_the_pod_is_deleted() {
        try (Running c = copying("fixed", fixedClass("fixed", null))) {
            c.create("pods", copyPod("data", "tmp"));
            await("the copy pod ends", () -> podPhase(c, "stsresize-copy-data").equals("Succeeded"));
            ObjectNode tmp = c.get("persistentvolumeclaims", "tmp");
            assertThat(tmp.at("/metadata/finalizers/0").asText()).as("StorageObjectInUseProtection").isEqualTo("kubernetes.io/pvc-protection");
            c.delete("persistentvolumeclaims", "tmp", null, Running.uid(tmp));
            try {
                c.controllers.awaitIdle(Running.DEADLINE);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            ObjectNode held = c.get("persistentvolumeclaims", "tmp");
            assertThat(held).as("the claim a Succeeded pod uses").isNotNull();
            assertThat(held.at("/metadata/deletionTimestamp").isMissingNode()).isFalse();
            assertThat(held.at("/metadata/finalizers/0").asText()).isEqualTo("kubernetes.io/pvc-protection");
            ObjectNode pod = c.get("pods", "stsresize-copy-data");
            c.delete("pods", "stsresize-copy-data", null, Running.uid(pod));
            await("tmp is gone once the pod is", () -> c.get("persistentvolumeclaims", "tmp") == null);
        }
    }

    @Test
    void a_pod_not_scheduled_does_not_hold_a_claim_being_deleted() {
        try (Running c = Running.with(fixedClass("fixed", null))) {
            ObjectNode claim = c.create("persistentvolumeclaims", VolumeBinderTest.claim("data", "fixed", "1Gi"));
            await("data is Bound", () -> VolumeBinderTest.phase(c, "data").equals("Bound"));
            c.create("pods", copyPod("data", "missing")); // its other claim does not exist: never scheduled
            await("unschedulable", () -> c.event("stsresize-copy-data", "FailedScheduling") != null);
            c.delete("persistentvolumeclaims", "data", null, Running.uid(claim));
            await("data is gone", () -> c.get("persistentvolumeclaims", "data") == null);
        }
    }

    @Test
    void a_class_that_cannot_expand_still_provisions_a_bigger_volume_for_a_new_claim() {
        try (Running c = copying("fixed", fixedClass("fixed", null))) {
            assertThat(c.get("storageclasses", "fixed").has("allowVolumeExpansion")).isFalse();
            ObjectNode tmp = c.get("persistentvolumeclaims", "tmp");
            assertThat(tmp.at("/status/capacity/storage").asText()).isEqualTo("2Gi");
            assertThat(c.get("persistentvolumes", tmp.at("/spec/volumeName").asText()).at("/spec/capacity/storage").asText()).isEqualTo("2Gi");
        }
    }

    @Test
    void a_read_only_source_with_a_resize_pending_is_the_kubelets_FileSystemResizeFailed_noise_and_the_copy_still_succeeds() {
        try (Running c = copying("fixed", fixedClass("fixed", null))) {
            String pv = c.get("persistentvolumeclaims", "data").at("/spec/volumeName").asText();
            c.create("pods", copyPod("data", "tmp"));
            await("the copy pod ends", () -> podPhase(c, "stsresize-copy-data").equals("Succeeded"));
            assertThat(c.eventReasons("stsresize-copy-data")).as("no resize pending: no noise").doesNotContain("FileSystemResizeFailed");
            c.delete("pods", "stsresize-copy-data", null, Running.uid(c.get("pods", "stsresize-copy-data")));
            await("the pod is gone", () -> c.get("pods", "stsresize-copy-data") == null);

            PreBindingTest.patchVolume(c, pv, "{spec: {capacity: {storage: 2Gi}}}"); // as a resizer leaves it before the node step
            c.create("pods", copyPod("data", "tmp"));
            await("the copy pod ends", () -> podPhase(c, "stsresize-copy-data").equals("Succeeded"));
            String message = "MountVolume.NodeExpandVolume failed for volume \"" + pv + "\" requested read-only file system";
            assertThat(c.event("stsresize-copy-data", "FileSystemResizeFailed").path("message").asText()).isEqualTo(message);
            assertThat(c.event("data", "FileSystemResizeFailed").path("message").asText()).isEqualTo(message);
            assertThat(c.event("data", "FileSystemResizeFailed").path("type").asText()).isEqualTo("Warning");
        }
    }
}
