package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.FakeApiServer.Recorded;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bytes KubeCluster sends for a copy's reads and writes (a claim copied to a bigger volume). */
class CopyRequestsTest {
    static final String POD_PATH = "/api/v1/namespaces/shop/pods/stsresize-copy-data-db-1";
    @TempDir Path home;

    Cluster connect(FakeApiServer server) throws Exception {
        return Kubeconfigs.tokenCluster(home, server.url(), "t");
    }

    static JsonNode body(Recorded r) throws Exception {
        return TreeMapper.MAPPER.readTree(r.body());
    }

    @Test
    void the_reclaim_policy_patch_is_a_merge_patch_of_that_field_at_the_resource_version_read() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.onAnything(Answer.json(200, "{}"));
            connect(server).patchVolumeReclaimPolicy("pv-1", "Retain", "7", false);
            Recorded r = server.last();
            assertThat(r.method() + " " + r.path()).isEqualTo("PATCH /api/v1/persistentvolumes/pv-1");
            assertThat(r.header("Content-Type")).startsWith("application/merge-patch+json");
            assertThat(body(r)).isEqualTo(TreeMapper.MAPPER.readTree(
                    "{\"metadata\":{\"resourceVersion\":\"7\"},\"spec\":{\"persistentVolumeReclaimPolicy\":\"Retain\"}}"));
            assertThatThrownBy(() -> connect(server).patchVolumeReclaimPolicy("pv-1", "Keep", "7", false))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> connect(server).patchVolumeReclaimPolicy("pv-1", "Retain", "", false))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void the_claim_ref_is_re_pointed_by_name_without_uid_and_never_removed() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.onAnything(Answer.json(200, "{}"));
            connect(server).pointVolumeAtClaim("pv-2", "shop", "data-db-1", "9", false);
            Recorded r = server.last();
            assertThat(r.method() + " " + r.path()).isEqualTo("PATCH /api/v1/persistentvolumes/pv-2");
            assertThat(r.header("Content-Type")).startsWith("application/merge-patch+json");
            JsonNode ref = body(r).at("/spec/claimRef");
            assertThat(ref.isObject()).as("claimRef is merged into, never null (a removal)").isTrue();
            assertThat(ref.path("namespace").asText()).isEqualTo("shop");
            assertThat(ref.path("name").asText()).isEqualTo("data-db-1");
            assertThat(ref.get("uid").isNull()).as("the uid removed, so the PV is pre-bound to the next claim of that name").isTrue();
            assertThat(ref.get("resourceVersion").isNull()).isTrue();
            assertThat(body(r).at("/metadata/resourceVersion").asText()).isEqualTo("9");
            assertThat(RequestLogRules.removesClaimRef(r.body())).isFalse();
        }
    }

    @Test
    void a_copy_pod_is_created_only_with_its_labels_and_deleted_only_by_uid_after_its_labels_are_read() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.onAnything(Answer.json(200, "{}"));
            server.on("GET", POD_PATH, Answer.json(200, CopyPodLogTest.pod().toString()));
            Cluster cluster = connect(server);
            ObjectNode unlabelled = CopyPodLogTest.pod();
            ((ObjectNode) unlabelled.get("metadata")).remove("labels");
            assertThatThrownBy(() -> cluster.createCopyPod(unlabelled, false)).isInstanceOf(IllegalArgumentException.class);
            assertThat(server.requests()).isEmpty();

            cluster.createCopyPod(CopyPodLogTest.pod(), false);
            assertThat(server.last().method() + " " + server.last().path()).isEqualTo("POST /api/v1/namespaces/shop/pods");

            assertThatThrownBy(() -> cluster.deleteCopyPod("shop", "stsresize-copy-data-db-1", "another-uid"))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> cluster.deleteCopyPod("shop", "db-1", "pod-uid")).isInstanceOf(IllegalArgumentException.class);
            assertThat(server.requests()).extracting(Recorded::method).containsExactly("POST", "GET");

            cluster.deleteCopyPod("shop", "stsresize-copy-data-db-1", "pod-uid");
            Recorded delete = server.last();
            assertThat(delete.method() + " " + delete.path()).isEqualTo("DELETE " + POD_PATH);
            assertThat(body(delete).at("/preconditions/uid").asText()).isEqualTo("pod-uid");
        }
    }

    @Test
    void a_foreign_pod_of_the_copy_pods_name_is_not_deleted() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            ObjectNode foreign = CopyPodLogTest.pod();
            ((ObjectNode) foreign.get("metadata")).remove("labels");
            server.on("GET", POD_PATH, Answer.json(200, foreign.toString()));
            assertThatThrownBy(() -> connect(server).deleteCopyPod("shop", "stsresize-copy-data-db-1", "pod-uid"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("not the copy pod this run created");
            assertThat(server.requests()).extracting(Recorded::method).containsExactly("GET");
        }
    }

    @Test
    void the_claim_delete_sends_the_uid_the_token_names() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.onAnything(Answer.json(200, "{}"));
            connect(server).deleteClaim(ClaimDeleteAllowedTest.allowed());
            Recorded r = server.last();
            assertThat(r.method() + " " + r.path()).isEqualTo("DELETE /api/v1/namespaces/shop/persistentvolumeclaims/data-db-1");
            assertThat(body(r).at("/preconditions/uid").asText()).isEqualTo("claim-uid");
            assertThat(RequestLogRules.violation(r)).isNull();
        }
    }

    @Test
    void the_pod_log_is_read_as_text_and_a_log_past_the_limit_is_marked_cut() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.on("GET", POD_PATH + "/log",
                    new Answer(200, List.of(CopyPodLogTest.LOG), Map.of("Content-Type", "text/plain")));
            PodLog log = connect(server).podLog("shop", "stsresize-copy-data-db-1");
            assertThat(log).isEqualTo(new PodLog(CopyPodLogTest.LOG, true));

            server.on("GET", POD_PATH + "/log", new Answer(200, List.of("x".repeat(PodLog.LIMIT_BYTES + 1)), Map.of("Content-Type", "text/plain")));
            PodLog cut = connect(server).podLog("shop", "stsresize-copy-data-db-1");
            assertThat(cut.complete()).isFalse();
            assertThat(cut.text()).hasSize(PodLog.LIMIT_BYTES);
        }
    }

    @Test
    void a_tail_of_the_log_is_asked_with_tailLines_and_never_proves_a_copy_the_whole_log_proves() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            // the server answers the whole log, as if the tail held all of it: still no proof
            server.on("GET", POD_PATH + "/log", new Answer(200, List.of(CopyPodLogTest.LOG), Map.of("Content-Type", "text/plain")));
            PodLog tail = connect(server).podLogTail("shop", "stsresize-copy-data-db-1", 20);
            assertThat(server.last().query()).isEqualTo("tailLines=20");
            assertThat(tail.text()).isEqualTo(CopyPodLogTest.LOG);
            assertThat(tail.complete()).as("a tail is never the whole log").isFalse();
            assertThat(CopyPodLogTest.verify(CopyPodLogTest.pod(), CopyPodLogTest.LOG)).isInstanceOf(CopyVerified.class);
            assertThat(CopyPodLog.verify("shop", "data-db-1", CopyPodLogTest.pod(), tail)).isInstanceOf(CopyCheck.Unverified.class);
        }
    }
}
