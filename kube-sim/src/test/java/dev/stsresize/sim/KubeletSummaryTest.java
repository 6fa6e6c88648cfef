package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.usage.Growth;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kubelet summary API through the API server ({@code GET /api/v1/nodes/NODE/proxy/stats/summary}):
 * its body for the Running pods of that node, usage from the simulator's model (grows, stops at full,
 * capacity from the claim's status), the node proxy's authorization and its 404 for an unknown node.
 */
class KubeletSummaryTest extends FreshSim {
    static final long GI = 1024L * 1024 * 1024;
    static final long MI = 1024L * 1024;
    static final Instant T0 = Instant.parse("2026-12-03T20:00:00Z");
    static final String SUMMARY_A = "/api/v1/nodes/node-a/proxy/stats/summary";

    @BeforeEach
    void load() {
        sim.usage().useClock(Clock.fixed(T0, ZoneOffset.UTC));
        sim.load(Fixtures.storageClass("expandable", true),
                Fixtures.boundClaim("data-db-0", "expandable", "10Gi", "10Gi"),
                Fixtures.boundClaim("data-db-1", "expandable", "10Gi", "10Gi"),
                Fixtures.pendingClaim("data-db-2", "expandable", "10Gi"),
                pod("db-0", "node-a", "Running", "data-db-0", true),
                pod("db-1", "node-b", "Running", "data-db-1", false),
                pod("db-2", "node-a", "Running", "data-db-2", false),
                pod("db-3", "node-a", "Pending", "data-db-0", false),
                lost("data-db-4"), pod("db-4", "node-a", "Running", "data-db-4", false));
        sim.usage().set("default", "data-db-0", Growth.fraction(0.5, MI));
    }

    /** A claim that has a capacity but is not Bound (its volume is gone): the kubelet cannot mount it. */
    static ObjectNode lost(String name) {
        ObjectNode claim = Fixtures.boundClaim(name, "expandable", "10Gi", "10Gi");
        ((ObjectNode) claim.get("status")).put("phase", "Lost");
        return claim;
    }

    static ObjectNode pod(String name, String node, String phase, String claim, boolean scratch) {
        return Fixtures.yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: default, uid: uid-" + name + "}\n"
                + "spec:\n  nodeName: " + node + "\n  containers: [{name: db, image: postgres}]\n  volumes:\n"
                + "  - {name: data, persistentVolumeClaim: {claimName: " + claim + "}}\n"
                + (scratch ? "  - {name: scratch, emptyDir: {}}\n" : "")
                + "status: {phase: " + phase + ", hostIP: 10.0.0.7, startTime: '2026-12-03T19:00:00Z'}\n");
    }

    JsonNode summary() {
        SimClient.Answer a = admin.get(SUMMARY_A);
        assertThat(a.code()).as(a.body()).isEqualTo(200);
        return a.json();
    }

    static JsonNode volume(JsonNode summary, String pod, String volume) {
        for (JsonNode p : summary.path("pods")) {
            if (p.at("/podRef/name").asText().equals(pod)) {
                for (JsonNode v : p.path("volume")) {
                    if (v.path("name").asText().equals(volume)) {
                        return v;
                    }
                }
            }
        }
        return null;
    }

    @Test
    void the_summary_lists_the_running_pods_of_the_node_with_their_bound_claims_and_only_those() {
        JsonNode s = summary();
        assertThat(s.at("/node/nodeName").asText()).isEqualTo("node-a");
        assertThat(s.path("pods").findValuesAsText("name")).as("Running pods of node-a; db-1 is on node-b, db-3 Pending")
                .contains("db-0", "db-2").doesNotContain("db-1", "db-3");
        JsonNode pod0 = s.path("pods").get(0);
        assertThat(pod0.path("podRef").toString()).isEqualTo("{\"name\":\"db-0\",\"namespace\":\"default\",\"uid\":\"uid-db-0\"}");
        JsonNode data = volume(s, "db-0", "data");
        // ext4's 5 % reserve: 0.5Gi of the 10Gi is neither used nor available
        assertThat(data.toString()).isEqualTo("{\"time\":\"2026-12-03T20:00:00Z\",\"availableBytes\":" + 9 * GI / 2
                + ",\"capacityBytes\":" + 10 * GI + ",\"usedBytes\":" + 5 * GI
                + ",\"name\":\"data\",\"pvcRef\":{\"name\":\"data-db-0\",\"namespace\":\"default\"}}");
        JsonNode scratch = volume(s, "db-0", "scratch");
        assertThat(scratch).as("an emptyDir is measured too").isNotNull();
        assertThat(scratch.has("pvcRef")).as("no pvcRef for a volume not backed by a claim").isFalse();
        assertThat(volume(s, "db-2", "data")).as("a claim not Bound is not mounted, so not measured").isNull();
        assertThat(volume(s, "db-4", "data")).as("nor one Lost, whatever capacity it shows").isNull();
    }

    @Test
    void usage_grows_at_its_rate_and_stops_where_writes_are_refused() {
        long before = volume(summary(), "db-0", "data").path("usedBytes").asLong();
        sim.usage().advance(Duration.ofSeconds(100));
        JsonNode later = volume(summary(), "db-0", "data");
        assertThat(later.path("usedBytes").asLong()).isEqualTo(before + 100 * MI);
        assertThat(later.path("availableBytes").asLong()).isEqualTo(10 * GI - before - 100 * MI - GI / 2);
        assertThat(later.path("time").asText()).isEqualTo("2026-12-03T20:01:40Z");
        sim.usage().advance(Duration.ofDays(30));
        JsonNode full = volume(summary(), "db-0", "data");
        assertThat(full.path("usedBytes").asLong()).as("an application's writes stop at the reserve, below capacity")
                .isEqualTo(10 * GI - GI / 2);
        assertThat(full.path("availableBytes").asLong()).isZero();
    }

    @Test
    void a_file_system_without_a_reserve_is_full_at_capacity_and_the_state_keeps_its_reserve() {
        sim.load(Fixtures.yaml("apiVersion: sim.stsresize.dev/v1\nkind: VolumeUsage\nmetadata: {name: volume-usage}\n"
                + "claims:\n- {namespace: default, name: data-db-0, reservedFraction: 0}\n"));
        JsonNode xfs = volume(summary(), "db-0", "data");
        assertThat(xfs.path("availableBytes").asLong()).isEqualTo(xfs.path("capacityBytes").asLong() - xfs.path("usedBytes").asLong());
        assertThat(sim.usageDocument().toString()).contains("{\"namespace\":\"default\",\"name\":\"data-db-0\","
                + "\"usedFraction\":0.5,\"bytesPerSecond\":1048576.0,\"reservedFraction\":0.0}");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sim.load(Fixtures.yaml("apiVersion: sim.stsresize.dev/v1\nkind: VolumeUsage\n"
                + "metadata: {name: u}\nclaims:\n- {namespace: default, name: x, reservedFraction: 0.9}\n")))
                .hasMessage("VolumeUsage claims[0] (default/x) has reservedFraction 0.9; use a fraction from 0 to 0.5 (0.05 = ext4's default,"
                        + " 0 = xfs).");
    }

    @Test
    void a_hostpath_csi_volume_reports_the_nodes_disk_and_a_hostpath_pv_nothing() {
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-data-db-0}\n"
                        + "spec: {capacity: {storage: 10Gi}, accessModes: [ReadWriteOnce], csi: {driver: hostpath.csi.k8s.io, volumeHandle: h0}}\n"
                        + "status: {phase: Bound}\n"),
                Fixtures.yaml("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-data-db-4}\n"
                        + "spec: {capacity: {storage: 10Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /var/local/db-4}}\n"
                        + "status: {phase: Bound}\n"),
                Fixtures.boundClaim("data-db-4", "expandable", "10Gi", "10Gi"));
        JsonNode s = summary();
        assertThat(volume(s, "db-0", "data").path("capacityBytes").asLong()).as("the node's disk the directory is on")
                .isEqualTo(100 * GI);
        assertThat(volume(s, "db-0", "scratch").path("capacityBytes").asLong()).isEqualTo(100 * GI);
        assertThat(volume(s, "db-4", "data")).as("hostPath keeps no metrics: the summary leaves it out").isNull();
        assertThat(s.path("pods").findValuesAsText("name")).as("its pod is listed all the same").contains("db-4");
    }

    @Test
    void after_a_resize_the_capacity_is_the_claims_and_the_usage_carries_on() {
        long used = volume(summary(), "db-0", "data").path("usedBytes").asLong();
        sim.load(Fixtures.boundClaim("data-db-0", "expandable", "20Gi", "20Gi"));
        JsonNode grown = volume(summary(), "db-0", "data");
        assertThat(grown.path("capacityBytes").asLong()).isEqualTo(20 * GI);
        assertThat(grown.path("usedBytes").asLong()).as("the same bytes: the percentage drops").isEqualTo(used);
        assertThat(grown.path("availableBytes").asLong()).as("the reserve grows with the file system").isEqualTo(20 * GI - used - GI);
    }

    @Test
    void an_unknown_node_is_the_node_registrys_404() {
        SimClient.Answer a = admin.get("/api/v1/nodes/nope/proxy/stats/summary");
        assertThat(a.code()).isEqualTo(404);
        assertThat(a.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"nodes \\\"nope\\\" not found\",\"reason\":\"NotFound\",\"details\":{\"name\":\"nope\",\"kind\":\"nodes\"},\"code\":404}");
    }

    @Test
    void another_kubelet_path_is_the_kubelet_mux_404() {
        SimClient.Answer a = admin.get("/api/v1/nodes/node-a/proxy/metrics/nonexistent");
        assertThat(a.code()).isEqualTo(404);
        assertThat(a.body()).isEqualTo("404 page not found\n");
    }

    @Test
    void nodes_proxy_is_authorized_as_get_on_nodes_slash_proxy_at_the_cluster_scope() {
        SimClient viewer = new SimClient(sim, sim.tokenFor("prod", "viewer"));
        SimClient.Answer denied = viewer.get(SUMMARY_A);
        assertThat(denied.code()).isEqualTo(403);
        assertThat(denied.message()).isEqualTo("nodes \"node-a\" is forbidden: User \"system:serviceaccount:prod:viewer\" cannot get "
                + "resource \"nodes/proxy\" in API group \"\" at the cluster scope");
        assertThat(denied.json().path("details").toString()).isEqualTo("{\"name\":\"node-a\",\"kind\":\"nodes\"}");
        SimClient.Answer unknown = viewer.get("/api/v1/nodes/nope/proxy/stats/summary");
        assertThat(unknown.code()).as("authorization comes before the node's lookup").isEqualTo(403);

        sim.load(Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: node-stats}\n"
                        + "rules: [{apiGroups: [''], resources: [nodes/proxy], verbs: [get]}]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: node-stats}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: node-stats}\n"
                        + "subjects: [{kind: ServiceAccount, name: viewer, namespace: prod}]\n"));
        assertThat(viewer.get(SUMMARY_A).code()).as("granted nodes/proxy get").isEqualTo(200);
        assertThat(sim.requests().get(sim.requests().size() - 1).resource()).isEqualTo("nodes/proxy");
    }

    @Test
    void the_same_seed_gives_the_same_usage_and_another_seed_another() {
        JsonNode seeded = volume(summaryOfFreshCluster(7), "db-0", "data");
        assertThat(volume(summaryOfFreshCluster(7), "db-0", "data")).isEqualTo(seeded);
        assertThat(volume(summaryOfFreshCluster(8), "db-0", "data").path("usedBytes")).isNotEqualTo(seeded.path("usedBytes"));
        double fraction = seeded.path("usedBytes").asDouble() / seeded.path("capacityBytes").asDouble();
        assertThat(fraction).as("a claim without a growth of its own is quiet: 10-55 %").isBetween(0.10, 0.55);
    }

    JsonNode summaryOfFreshCluster(long seed) {
        try (SimCluster other = SimCluster.start()) {
            other.usage().useClock(Clock.fixed(T0, ZoneOffset.UTC)).seed(seed);
            other.load(Fixtures.boundClaim("data-db-0", "expandable", "10Gi", "10Gi"), pod("db-0", "node-a", "Running", "data-db-0", false));
            return SimClient.admin(other).get(SUMMARY_A).json();
        }
    }

    @Test
    void a_volume_usage_document_in_the_state_sets_the_model_and_a_mistake_names_the_entry() {
        sim.load(Fixtures.yaml("apiVersion: sim.stsresize.dev/v1\nkind: VolumeUsage\nmetadata: {name: volume-usage}\nseed: 3\n"
                + "claims:\n- {namespace: default, name: data-db-0, usedBytes: 1073741824, bytesPerSecond: 10}\n"));
        assertThat(volume(summary(), "db-0", "data").path("usedBytes").asLong()).isEqualTo(GI);
        assertThat(sim.usageDocument().toString()).contains("\"seed\":3", "{\"namespace\":\"default\",\"name\":\"data-db-0\","
                + "\"usedBytes\":1073741824,\"bytesPerSecond\":10.0}");
        assertThat(admin.get("/api/v1/namespaces/default/configmaps").body()).doesNotContain("VolumeUsage");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sim.load(Fixtures.yaml(
                "apiVersion: sim.stsresize.dev/v1\nkind: VolumeUsage\nmetadata: {name: u}\nclaims:\n- {namespace: default, name: x, usedFraction: 1.5}\n")))
                .hasMessage("VolumeUsage claims[0] (default/x) has usedFraction 1.5; use a fraction from 0 to 1 (0.92 = 92 %).");
    }
}
