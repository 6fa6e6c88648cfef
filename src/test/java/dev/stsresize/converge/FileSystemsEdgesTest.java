package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.plan.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The file systems' summary at its edges: several nodes' summaries unreadable said in one sentence in node order, a
 * claim on a file system shared with the node said where the result is read, the verification's reads taken for the
 * first look only while fresh, the kubelets read anew after a restart, and a claim read again after an earlier claim's wait.
 */
class FileSystemsEdgesTest {
    private static final long GI = 1L << 30;
    private final MemoryCluster cluster = new MemoryCluster();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, Progress.NONE, new StopRequest());
    private final FileSystems fs = new FileSystems(cluster, waiter, cluster.time);

    /** Pod db-{ordinal} on {@code node}, running, mounting data-db-{ordinal}. */
    private void pod(int ordinal, String node) {
        cluster.put("{'kind':'Pod','metadata':{'name':'db-" + ordinal + "','namespace':'shop'},'spec':{'nodeName':'" + node
                + "','volumes':[{'name':'data','persistentVolumeClaim':{'claimName':'data-db-" + ordinal + "'}}]},'status':{'phase':"
                + "'Running'}}");
    }

    private ObjectNode grown(int ordinal) {
        return cluster.put(ClaimGrowerTest.claim("data-db-" + ordinal, "20Gi", "20Gi"));
    }

    private static Map<String, String> targets(int claims) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < claims; i++) {
            out.put("data-db-" + i, "20Gi");
        }
        return out;
    }

    private Map<String, FileSystems.Checked> follow(int claims) {
        return fs.follow("shop", "db", targets(claims), cluster.time.instant().plus(Duration.ofMinutes(1)), new StopRequest(), List::of);
    }

    private static StatefulSetResult.ClaimResult reported(String name, long bytes) {
        return new StatefulSetResult.ClaimResult(name, "10Gi", "20Gi", "20Gi", FileSystem.GROWN, bytes);
    }

    @Test
    void several_unreadable_summaries_are_one_sentence_naming_each_node_in_order() {
        grown(0);
        grown(1);
        pod(0, "n2");
        pod(1, "n1");
        Map<String, FileSystems.Checked> out = follow(2);
        assertThat(out.values()).extracting(FileSystems.Checked::state).containsOnly(FileSystem.GROWN);
        assertThat(fs.summaryNote()).isEqualTo("the summaries of nodes n1 (nodes \"n1\" not found), n2 (nodes \"n2\" not found) could not"
                + " be read: their file systems verified from the claims' status only");
    }

    @Test
    void a_claim_on_the_nodes_own_disk_is_said_to_have_the_nodes_space_not_its_size() {
        assertThat(FileSystems.sentence(List.of(reported("a", 100 * GI)))).isEqualTo("file system grown: the pods can write to the new"
                + " space; 1 is on a file system shared with the node (the kubelet reports the node's disk for it): the space is the"
                + " node's, not the claim's size");
        assertThat(FileSystems.sentence(List.of(reported("a", 100 * GI), reported("b", 100 * GI), reported("c", 20 * GI))))
                .endsWith("; 2 are on a file system shared with the node (the kubelet reports the node's disk for them): the space is the"
                        + " node's, not the claim's size");
        assertThat(FileSystems.sentence(List.of(reported("a", 100 * GI), new StatefulSetResult.ClaimResult("b", "10Gi", "20Gi", "20Gi",
                FileSystem.WAITS_FOR_RESTART, -1)))).isEqualTo("file systems: 1 grown, 1 waits for a pod restart: the pods cannot use all"
                        + " of the new space yet; 1 is on a file system shared with the node (the kubelet reports the node's disk for it):"
                        + " the space is the node's, not the claim's size");
    }

    @Test
    void the_claims_the_verification_read_a_moment_ago_are_the_first_look() {
        ObjectNode seen = grown(0);
        cluster.remove("PersistentVolumeClaim", "shop", "data-db-0");
        fs.seed(new FileSystems.Seeds(cluster.time.instant(), Map.of("data-db-0", Optional.of(seen)), Map.of()));
        assertThat(follow(1).get("data-db-0").state()).as("as the verification read it").isEqualTo(FileSystem.GROWN);
        assertThat(cluster.reads()).noneMatch(r -> r.startsWith("getClaim"));
        assertThat(follow(1).get("data-db-0").state()).as("the seeds serve one look only").isEqualTo(FileSystem.UNKNOWN);
    }

    @Test
    void the_verifications_reads_once_stale_or_short_of_a_claim_are_read_again() {
        ObjectNode seen = grown(0);
        cluster.remove("PersistentVolumeClaim", "shop", "data-db-0");
        fs.seed(new FileSystems.Seeds(cluster.time.instant(), Map.of("data-db-0", Optional.of(seen)), Map.of()));
        cluster.time.advance(FileSystems.FRESH);
        assertThat(follow(1).get("data-db-0").state()).as("a stretch old: read anew").isEqualTo(FileSystem.UNKNOWN);

        FileSystems another = new FileSystems(cluster, waiter, cluster.time);
        another.seed(new FileSystems.Seeds(cluster.time.instant(), Map.of("data-db-0", Optional.of(seen)), Map.of()));
        grown(1);
        Map<String, FileSystems.Checked> out = another.follow("shop", "db", targets(2), cluster.time.instant().plus(Duration.ofMinutes(1)),
                new StopRequest(), List::of);
        assertThat(out.get("data-db-0").state()).as("the seeds lack data-db-1: every claim read").isEqualTo(FileSystem.UNKNOWN);
        assertThat(out.get("data-db-1").state()).isEqualTo(FileSystem.GROWN);
    }

    @Test
    void the_verifications_pods_stand_for_the_present_while_fresh() {
        grown(0);
        ObjectNode pod = MemoryCluster.json("{'kind':'Pod','metadata':{'name':'db-0','namespace':'shop'},'spec':{'nodeName':'n1','volumes':"
                + "[{'name':'data','persistentVolumeClaim':{'claimName':'data-db-0'}}]},'status':{'phase':'Running'}}");
        fs.seed(new FileSystems.Seeds(cluster.time.instant(), Map.of(), Map.of("db-0", Optional.of(pod))));
        FileSystems.Checked c = fs.check("shop", "db", "data-db-0", Quantity.parse("20Gi"), cluster.get("PersistentVolumeClaim", "shop",
                "data-db-0"));
        assertThat(c.pod()).as("the pod as the verification saw it, not read again").isEqualTo("db-0");
        assertThat(cluster.reads()).noneMatch(r -> r.startsWith("getPod"));
    }

    @Test
    void after_a_pod_restart_the_kubelets_summary_is_read_anew_within_the_stretch() {
        ObjectNode claim = grown(0);
        pod(0, "n1");
        cluster.summaries.put("n1", MemoryCluster.json("{'pods':[{'volume':[{'pvcRef':{'name':'data-db-0','namespace':'shop'},"
                + "'capacityBytes':" + (10 * GI) + "}]}]}"));
        assertThat(fs.check("shop", "db", "data-db-0", Quantity.parse("20Gi"), Optional.of(claim)).state()).isEqualTo(FileSystem.PENDING);
        cluster.summaries.put("n1", MemoryCluster.json("{'pods':[{'volume':[{'pvcRef':{'name':'data-db-0','namespace':'shop'},"
                + "'capacityBytes':" + (20 * GI) + "}]}]}"));
        fs.forget();
        FileSystems.Checked after = fs.check("shop", "db", "data-db-0", Quantity.parse("20Gi"), Optional.of(claim));
        assertThat(after.state()).isEqualTo(FileSystem.GROWN);
        assertThat(after.bytes()).isEqualTo(20 * GI);
    }

    @Test
    void a_claim_after_an_earlier_claims_wait_is_read_again_not_taken_from_before_the_wait() {
        pod(0, "n1");
        cluster.put(MemoryCluster.json(ClaimGrowerTest.claim("data-db-0", "20Gi", "20Gi").replace("'status':{", "'status':{'conditions':"
                + "[{'type':'FileSystemResizePending','status':'True'}],")));
        cluster.put(ClaimGrowerTest.claim("data-db-1", "20Gi", "10Gi"));
        cluster.onWatch("PersistentVolumeClaim", "shop", "data-db-0", () -> {
            cluster.edit("PersistentVolumeClaim", "shop", "data-db-0", c -> ((ObjectNode) c.path("status")).remove("conditions"));
            cluster.edit("PersistentVolumeClaim", "shop", "data-db-1", c -> Objects.child((ObjectNode) c.path("status"), "capacity")
                    .put("storage", "20Gi"));
        });
        Instant before = cluster.time.instant();
        Map<String, FileSystems.Checked> out = follow(2);
        assertThat(cluster.time.instant()).isAfter(before);
        assertThat(out.get("data-db-0").state()).isEqualTo(FileSystem.GROWN);
        assertThat(out.get("data-db-1").state()).as("grown during data-db-0's wait").isEqualTo(FileSystem.GROWN);
    }
}
