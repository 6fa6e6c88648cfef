package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.plan.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which pod's file system a claim is, and which kubelets are asked about it: a pod that mounts
 * another claim or is terminating is not the claim's; a kubelet is asked only about a volume whose
 * status says grown (the rest cannot be settled by it); a --fs-timeout shorter than a stretch is kept.
 * Each check on a new {@link FileSystems}, so no pod read earlier stands for the one planted.
 */
class FileSystemsReadsInMemoryTest {
    private static final Quantity TARGET = Quantity.parse("20Gi");
    private final MemoryCluster cluster = new MemoryCluster();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, Progress.NONE, new StopRequest());

    private FileSystems fresh() {
        return new FileSystems(cluster, waiter, cluster.time);
    }

    private ObjectNode claim(String capacity, String condition) {
        ObjectNode c = MemoryCluster.json(ClaimGrowerTest.claim("data-db-0", "20Gi", capacity));
        if (condition != null) {
            ((ObjectNode) c.path("status")).putArray("conditions").addObject().put("type", condition).put("status", "True");
        }
        return cluster.put(c);
    }

    private void pod(String claim, boolean terminating) {
        cluster.put("{'kind':'Pod','metadata':{'name':'db-0','namespace':'shop'" + (terminating ? ",'deletionTimestamp':'t'" : "") + "},"
                + "'spec':{'nodeName':'n1','volumes':[{'name':'data','persistentVolumeClaim':{'claimName':'" + claim + "'}}]},"
                + "'status':{'phase':'Running'}}");
        cluster.summaries.put("n1", MemoryCluster.json("{'pods':[{'volume':[{'pvcRef':{'name':'" + claim + "','namespace':'shop'},"
                + "'capacityBytes':" + (20L << 30) + "}]}]}"));
    }

    private FileSystems.Checked check(ObjectNode c) {
        return fresh().check("shop", "db", "data-db-0", TARGET, Optional.of(c));
    }

    private Map<String, FileSystems.Checked> follow(Instant deadline) {
        return fresh().follow("shop", "db", Map.of("data-db-0", "20Gi"), deadline, new StopRequest(), List::of);
    }

    private long summariesAsked() {
        return cluster.reads().stream().filter(r -> r.startsWith("nodeSummary")).count();
    }

    @Test
    void a_pod_that_mounts_another_claim_or_is_terminating_is_not_the_claims() {
        ObjectNode pending = claim("20Gi", "FileSystemResizePending");
        pod("data-db-7", false);
        assertThat(check(pending).state()).isEqualTo(FileSystem.NO_POD);
        pod("data-db-0", true);
        assertThat(check(pending).state()).isEqualTo(FileSystem.NO_POD);
        pod("data-db-0", false);
        assertThat(check(pending).state()).as("the claim's own running pod").isEqualTo(FileSystem.PENDING);

        ObjectNode grown = claim("20Gi", null);
        pod("data-db-7", false);
        assertThat(check(grown)).isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.GROWN, -1, "",
                "grown, as its status says (no pod mounts it now)"));
        pod("data-db-0", false);
        assertThat(check(grown)).isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.GROWN, 20L << 30, "db-0",
                "grown: the kubelet reports 20Gi"));
    }

    @Test
    void no_kubelet_is_asked_about_a_volume_that_has_not_grown_or_waits_for_it() {
        pod("data-db-0", false);
        claim("10Gi", null);
        assertThat(follow(cluster.time.instant()).get("data-db-0").state()).isEqualTo(FileSystem.UNKNOWN);
        claim("20Gi", "FileSystemResizePending");
        assertThat(follow(cluster.time.instant()).get("data-db-0").state()).isEqualTo(FileSystem.PENDING);
        claim(null, null);
        assertThat(follow(cluster.time.instant()).get("data-db-0").state()).isEqualTo(FileSystem.UNKNOWN);
        assertThat(summariesAsked()).isZero();

        pod("data-db-7", false);
        claim("20Gi", null);
        assertThat(follow(cluster.time.instant()).get("data-db-0").state()).isEqualTo(FileSystem.GROWN);
        assertThat(summariesAsked()).as("its node holds another claim's pod").isZero();

        pod("data-db-0", false);
        assertThat(follow(cluster.time.instant()).get("data-db-0").bytes()).isEqualTo(20L << 30);
        assertThat(summariesAsked()).isOne();
    }

    @Test
    void a_file_systems_deadline_shorter_than_a_stretch_is_kept() {
        pod("data-db-0", false);
        claim("20Gi", "FileSystemResizePending");
        Instant start = cluster.time.instant();
        Instant deadline = start.plus(Duration.ofSeconds(2));
        assertThat(follow(deadline).get("data-db-0").state()).isEqualTo(FileSystem.PENDING);
        assertThat(cluster.watches).as("one watch of %s, not a whole stretch", cluster.watchStep).isOne();
        assertThat(cluster.time.instant()).isBefore(start.plus(Waiter.TICK));
    }
}
