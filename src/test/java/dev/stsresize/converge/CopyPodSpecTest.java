package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ClaimDeleteAllowed;
import dev.stsresize.cluster.ClaimDeleteCheck;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.CopyCheck;
import dev.stsresize.cluster.CopyPodLog;
import dev.stsresize.cluster.CopyVerified;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy pod as {@link CopyPodSpec} builds it: docs/design.md's contract field by field, then sent through the
 * port's {@code createCopyPod} to the simulated cluster, whose kubelet runs it; its log is a {@link CopyVerified}
 * naming the destination, which then lets go of the temporary claim once its PV is Retain.
 */
class CopyPodSpecTest {
    @TempDir Path home;

    @Test
    void the_pod_is_the_contracts() {
        ObjectNode pod = CopyPodSpec.of("files", "data-web-1", "stsresize-data-web-1", CopyOptIn.DEFAULT_IMAGE);
        assertThat(pod.at("/metadata/name").asText()).isEqualTo(CopyPodLog.podName("data-web-1")).isEqualTo("stsresize-copy-data-web-1");
        assertThat(pod.at("/metadata/namespace").asText()).isEqualTo("files");
        assertThat(CopyPodLog.hasCopyPodLabels(pod)).isTrue();
        assertThat(pod.at("/metadata/labels/stsresize.dev~1copy-of").asText()).isEqualTo("data-web-1");
        JsonNode spec = pod.get("spec");
        assertThat(spec.path("restartPolicy").asText()).isEqualTo("Never");
        assertThat(spec.at("/securityContext/runAsUser").asInt(-1)).isZero();
        assertThat(spec.path("automountServiceAccountToken").isBoolean()).isTrue();
        assertThat(spec.path("automountServiceAccountToken").asBoolean(true)).as("no API token in a pod reading untrusted files").isFalse();
        assertThat(spec.path("terminationGracePeriodSeconds").asInt(30)).isLessThanOrEqualTo(10);
        assertThat(spec.path("containers")).hasSize(1);
        JsonNode c = spec.path("containers").path(0);
        assertThat(c.path("name").asText()).isEqualTo(CopyPodLog.CONTAINER);
        assertThat(c.path("image").asText()).isEqualTo("busybox:1.36.1");
        assertThat(c.path("command")).hasSize(3);
        assertThat(c.at("/command/0").asText() + " " + c.at("/command/1").asText()).isEqualTo("sh -c");
        assertThat(c.at("/command/2").asText()).isEqualTo(CopyPodSpec.script()).startsWith("# stsresize-copy v1\n");
        assertThat(c.at("/resources/requests").size()).isEqualTo(2);
        assertThat(c.at("/resources/limits").isMissingNode()).as("no memory limit to kill a long sort").isTrue();
        assertThat(c.path("volumeMounts").toString()).isEqualTo(
                "[{\"name\":\"src\",\"mountPath\":\"/src\",\"readOnly\":true},{\"name\":\"dst\",\"mountPath\":\"/dst\"}]");
        assertThat(spec.path("volumes").toString()).isEqualTo("[{\"name\":\"src\",\"persistentVolumeClaim\":{\"claimName\":\"data-web-1\","
                + "\"readOnly\":true}},{\"name\":\"dst\",\"persistentVolumeClaim\":{\"claimName\":\"stsresize-data-web-1\"}}]");
    }

    @Test
    void a_long_claims_pod_name_and_label_are_cut_as_the_contract_says() {
        String claim = "data-" + "x".repeat(70) + "-0";
        ObjectNode pod = CopyPodSpec.of("files", claim, "tmp", "registry.example/busybox:1");
        assertThat(pod.at("/metadata/name").asText()).hasSize(63).isEqualTo(CopyPodLog.podName(claim));
        assertThat(pod.at("/metadata/labels/stsresize.dev~1copy-of").asText()).hasSize(63).isEqualTo(CopyPodLog.copyOfLabel(claim));
        assertThat(pod.at("/spec/volumes/0/persistentVolumeClaim/claimName").asText()).as("the volume names the claim whole").isEqualTo(claim);
        assertThat(pod.at("/spec/containers/0/image").asText()).isEqualTo("registry.example/busybox:1");
    }

    @Test
    void the_simulated_cluster_takes_it_through_the_port_runs_it_and_its_log_proves_the_copy_and_frees_the_temporary_claim() throws Exception {
        try (Harness h = Harness.start(home, DemoScenario.copyCluster())) {
            Cluster cluster = h.cluster();
            ObjectNode temporary = Harness.yaml("""
                    apiVersion: v1
                    kind: PersistentVolumeClaim
                    metadata: {name: stsresize-data-web-1, namespace: files}
                    spec: {storageClassName: local-path, accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}
                    """);
            cluster.createClaim(temporary, false);
            ObjectNode created = cluster.createCopyPod(CopyPodSpec.of("files", "data-web-1", "stsresize-data-web-1", CopyOptIn.DEFAULT_IMAGE), false);
            String podName = created.at("/metadata/name").asText();

            Harness.await("the copy pod ends", () -> cluster.getPod("files", podName)
                    .map(p -> p.at("/status/phase").asText().matches("Succeeded|Failed")).orElse(false));
            ObjectNode pod = cluster.getPod("files", podName).orElseThrow();
            CopyCheck check = CopyPodLog.verify("files", "data-web-1", pod, cluster.podLog("files", podName));
            assertThat(check).as(check.toString()).isInstanceOf(CopyVerified.class);
            CopyVerified copy = (CopyVerified) check;
            assertThat(copy.destination()).isEqualTo("stsresize-data-web-1");
            assertThat(copy.podUid()).isEqualTo(pod.at("/metadata/uid").asText());

            // the procedure's step 5 as the port allows it: the new PV Retain, the copy pod gone, then the temporary claim
            ObjectNode tmp = cluster.getClaim("files", "stsresize-data-web-1").orElseThrow();
            String volume = tmp.at("/spec/volumeName").asText();
            assertThat(volume).isNotEmpty();
            ClaimDeleteCheck before = ClaimDeleteAllowed.check(cluster, copy, tmp);
            assertThat(before).as("its PV is still Delete, as provisioned").isInstanceOf(ClaimDeleteCheck.Refused.class);
            ObjectNode pv = cluster.getPersistentVolume(volume).orElseThrow();
            cluster.patchVolumeReclaimPolicy(volume, "Retain", pv.at("/metadata/resourceVersion").asText(), false);
            cluster.deleteCopyPod("files", podName, copy.podUid());
            ClaimDeleteCheck allowed = ClaimDeleteAllowed.check(cluster, copy, tmp);
            assertThat(allowed).as(allowed.toString()).isInstanceOf(ClaimDeleteAllowed.class);
            cluster.deleteClaim((ClaimDeleteAllowed) allowed);
            Harness.await("the temporary claim's PV is Released, kept", () -> cluster.getPersistentVolume(volume)
                    .map(p -> p.at("/status/phase").asText().equals("Released")).orElse(false));
            assertThat(cluster.getClaim("files", "stsresize-data-web-1")).isEmpty();
        }
    }
}
