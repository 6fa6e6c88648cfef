package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.ServerUnreachable;
import dev.stsresize.plan.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Where a claim's file system stands, read from the claim, the pod that mounts it and the kubelet's
 * summary, and the follow of each pending one until the kubelet grew it, a stop, or its deadline.
 */
class FileSystemsUnitTest {
    private static final Quantity TARGET = Quantity.parse("20Gi");
    private static final long GI = 1L << 30;
    private final MemoryCluster cluster = new MemoryCluster();
    private final StopRequest stop = new StopRequest();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, Progress.NONE, stop);
    private final FileSystems fs = new FileSystems(cluster, waiter, cluster.time);

    private ObjectNode claim(String capacity, String allocation, String condition) {
        ObjectNode c = MemoryCluster.json(ClaimGrowerTest.claim("data-db-0", "20Gi", capacity));
        ObjectNode status = (ObjectNode) c.path("status");
        if (capacity == null) {
            status.remove("capacity");
        }
        if (allocation != null) {
            status.putObject("allocatedResourceStatuses").put("storage", allocation);
        }
        if (condition != null) {
            status.putArray("conditions").addObject().put("type", condition).put("status", "True").put("message", condition + ": why");
        }
        return cluster.put(c);
    }

    private void pod(String claim, String phase, String node, boolean terminating) {
        cluster.put("{'kind':'Pod','metadata':{'name':'db-0','namespace':'shop'" + (terminating ? ",'deletionTimestamp':'t'" : "") + "},"
                + "'spec':{'nodeName':'" + node + "','volumes':[{'name':'data','persistentVolumeClaim':{'claimName':'" + claim + "'}}]},"
                + "'status':{'phase':'" + phase + "'}}");
    }

    private void summary(String node, long bytes) {
        cluster.summaries.put(node, MemoryCluster.json("{'node':{'nodeName':'" + node + "'},'pods':[{'podRef':{'name':'db-0','namespace':'shop'},"
                + "'volume':[{'name':'data','pvcRef':{'name':'data-db-0','namespace':'shop'},'capacityBytes':" + bytes + "}]}]}"));
    }

    /** A pod and a kubelet's summary, once read, stand for the present for one stretch: the next reads come after it. */
    private void aStretchLater() {
        cluster.time.advance(FileSystems.FRESH);
    }

    private FileSystems.Checked check(ObjectNode c) {
        return fs.check("shop", "db", "data-db-0", TARGET, Optional.of(c));
    }

    @Test
    void a_claim_gone_or_not_grown_is_not_known() {
        assertThat(fs.check("shop", "db", "data-db-0", TARGET, Optional.empty()))
                .isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.UNKNOWN, -1, "", "the claim no longer exists"));
        pod("data-db-0", "Running", "n1", false);
        assertThat(check(claim("10Gi", null, null)))
                .isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.UNKNOWN, -1, "db-0", "its volume has not reached 20Gi (capacity 10Gi)"));
        assertThat(check(claim(null, null, null)).why()).isEqualTo("its volume has not reached 20Gi (capacity unknown)");
    }

    @Test
    void a_pending_resize_with_no_pod_mounting_the_claim_waits_for_one() {
        ObjectNode c = claim("20Gi", null, "FileSystemResizePending");
        FileSystems.Checked none = check(c);
        assertThat(none).isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.NO_POD, -1, "",
                "no pod mounts it: its file system grows when a pod next mounts it"));
        pod("data-db-7", "Running", "n1", false);
        assertThat(check(c).state()).as("the pod mounts another claim").isEqualTo(FileSystem.NO_POD);
        pod("data-db-0", "Running", "n1", true);
        assertThat(check(c).state()).as("the pod is terminating").isEqualTo(FileSystem.NO_POD);
    }

    @Test
    void a_pending_resize_under_a_running_pod_is_pending_or_waits_for_a_restart_when_the_node_refused() {
        pod("data-db-0", "Running", "n1", false);
        assertThat(check(claim("20Gi", null, "FileSystemResizePending"))).isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.PENDING,
                -1, "db-0", "the kubelet has not grown it yet (FileSystemResizePending)"));
        assertThat(check(claim("20Gi", "NodeResizePending", null)).why()).isEqualTo("the kubelet has not grown it yet (NodeResizePending)");
        assertThat(check(claim("20Gi", "NodeResizeInProgress", null)).state()).isEqualTo(FileSystem.PENDING);
        assertThat(check(claim("20Gi", "NodeResizeFailed", "NodeResizeError")).state()).as("no pending status: the condition alone")
                .isNotEqualTo(FileSystem.WAITS_FOR_RESTART);
        assertThat(check(claim("20Gi", "NodeResizePending", "NodeResizeError"))).isEqualTo(new FileSystems.Checked("data-db-0",
                FileSystem.WAITS_FOR_RESTART, -1, "db-0", "the kubelet could not grow it while pod db-0 runs (NodeResizeError: why)"));
        assertThat(check(claim("20Gi", "ControllerResizeInProgress", null)).state()).as("the controller's part is not the node's")
                .isEqualTo(FileSystem.GROWN);
    }

    @Test
    void grown_as_its_status_says_where_no_summary_speaks() {
        assertThat(check(claim("20Gi", null, null))).isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.GROWN, -1, "",
                "grown, as its status says (no pod mounts it now)"));
        pod("data-db-0", "Pending", "n1", false);
        summary("n1", 10 * GI);
        assertThat(check(claim("20Gi", null, null))).as("within a stretch, the pod as read").isEqualTo(new FileSystems.Checked("data-db-0",
                FileSystem.GROWN, -1, "", "grown, as its status says (no pod mounts it now)"));
        aStretchLater();
        assertThat(check(claim("20Gi", null, null))).as("a pod not running has no summary")
                .isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.GROWN, -1, "db-0", "grown, as its status says"));
        pod("data-db-0", "Running", "", false);
        aStretchLater();
        assertThat(check(claim("20Gi", null, null)).bytes()).as("no node").isEqualTo(-1);
        pod("data-db-0", "Running", "n2", false);
        aStretchLater();
        assertThat(check(claim("21Gi", null, null)).why()).as("the summary of n2 cannot be read").isEqualTo("grown, as its status says");
        assertThat(fs.summaryNote()).isEqualTo("the summary of node n2 could not be read (nodes \"n2\" not found): its file systems verified"
                + " from the claims' status only");
        cluster.summaries.put("n2", MemoryCluster.json("{'pods':[]}"));
        aStretchLater();
        assertThat(check(claim("20Gi", null, null)).bytes()).as("the summary says nothing of the claim").isEqualTo(-1);
    }

    @Test
    void the_kubelets_summary_decides_within_the_file_systems_overhead() {
        pod("data-db-0", "Running", "n1", false);
        ObjectNode grown = claim("20Gi", null, null);
        summary("n1", 20 * GI * 95 / 100);
        assertThat(check(grown)).isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.GROWN, 20 * GI * 95 / 100, "db-0",
                "grown: the kubelet reports 19Gi"));
        summary("n1", 20 * GI * 95 / 100 - 1);
        assertThat(check(grown).bytes()).as("one summary per node per stretch").isEqualTo(20 * GI * 95 / 100);
        aStretchLater();
        FileSystems.Checked below = check(grown);
        assertThat(below.state()).isEqualTo(FileSystem.PENDING);
        assertThat(below.bytes()).isEqualTo(20 * GI * 95 / 100 - 1);
        assertThat(below.why()).isEqualTo("its status says grown, but the kubelet's summary still reports 19Gi (below 20Gi less 5 % for"
                + " the file system's own metadata)");
        summary("n1", 40 * GI);
        aStretchLater();
        assertThat(check(grown).why()).as("twice the target: still its own").isEqualTo("grown: the kubelet reports 40Gi");
        summary("n1", 40 * GI + 1);
        aStretchLater();
        assertThat(check(grown)).isEqualTo(new FileSystems.Checked("data-db-0", FileSystem.GROWN, 40 * GI + 1, "db-0",
                "grown, as its status says (the kubelet reports a shared file system of 40Gi for it)"));
        assertThat(fs.summaryNote()).isEmpty();
    }

    @Test
    void forbidden_summaries_are_said_once_and_not_asked_again() {
        pod("data-db-0", "Running", "n1", false);
        summary("n1", 10 * GI);
        cluster.failNext("nodeSummary", MemoryCluster.error(403, "Forbidden", "nodes/proxy is forbidden"));
        assertThat(check(claim("20Gi", null, null)).why()).isEqualTo("grown, as its status says");
        assertThat(fs.summaryNote()).isEqualTo("the kubelets' summaries cannot be read (get nodes/proxy is forbidden): file systems verified"
                + " from the claims' status only");
        aStretchLater();
        assertThat(check(claim("20Gi", null, null)).bytes()).isEqualTo(-1);
        assertThat(cluster.reads()).filteredOn(r -> r.startsWith("nodeSummary")).hasSize(1);
    }

    @Test
    void a_summary_that_does_not_come_is_said_and_the_status_decides() {
        pod("data-db-0", "Running", "n1", false);
        summary("n1", 10 * GI);
        cluster.failNext("nodeSummary", new ServerUnreachable("timed out", null, false));
        assertThat(check(claim("20Gi", null, null)).bytes()).isEqualTo(-1);
        assertThat(fs.summaryNote()).isEqualTo("the summary of node n1 could not be read (timed out): its file systems verified from the"
                + " claims' status only");
        assertThat(check(claim("20Gi", null, null)).bytes()).as("not asked again within the stretch").isEqualTo(-1);
        aStretchLater();
        assertThat(check(claim("20Gi", null, null)).bytes()).as("asked again: only a refusal is remembered").isEqualTo(10 * GI);
    }

    @Test
    void a_pending_file_system_is_followed_until_the_kubelet_grew_it() {
        pod("data-db-0", "Running", "n1", false);
        claim("20Gi", null, "FileSystemResizePending");
        cluster.onWatch("PersistentVolumeClaim", "shop", "data-db-0", () -> { },
                () -> cluster.edit("PersistentVolumeClaim", "shop", "data-db-0", c -> ((ObjectNode) c.path("status")).remove("conditions")));
        Instant deadline = cluster.time.instant().plus(Duration.ofMinutes(5));
        Map<String, FileSystems.Checked> out = fs.follow("shop", "db", Map.of("data-db-0", "20Gi"), deadline, new StopRequest(), List::of);
        assertThat(out.get("data-db-0").state()).isEqualTo(FileSystem.GROWN);
        assertThat(cluster.time.instant()).isBefore(deadline);
    }

    @Test
    void a_pending_file_system_is_followed_until_its_deadline_in_stretches() {
        pod("data-db-0", "Running", "n1", false);
        claim("20Gi", null, "FileSystemResizePending");
        Instant deadline = cluster.time.instant().plus(Duration.ofSeconds(25));
        Map<String, FileSystems.Checked> out = fs.follow("shop", "db", Map.of("data-db-0", "20Gi"), deadline, new StopRequest(), List::of);
        assertThat(out.get("data-db-0").state()).isEqualTo(FileSystem.PENDING);
        assertThat(cluster.time.instant()).isAfterOrEqualTo(deadline).isBefore(deadline.plus(Duration.ofSeconds(10)));
        assertThat(cluster.reads()).filteredOn(r -> r.startsWith("watch")).as("one stretch of at most 10 s at a time")
                .hasSizeGreaterThanOrEqualTo(3);
        assertThat(cluster.reads()).filteredOn(r -> r.startsWith("getClaim")).as("each stretch watched from the claim as last seen, no GET")
                .hasSize(1);
    }

    @Test
    void a_stop_or_the_driver_going_on_ends_every_follow_each_claim_read_as_it_is() {
        pod("data-db-0", "Running", "n1", false);
        claim("20Gi", null, "FileSystemResizePending");
        cluster.put(ClaimGrowerTest.claim("data-db-1", "20Gi", "20Gi"));
        StopRequest goneOn = new StopRequest();
        goneOn.request("on");
        Instant deadline = cluster.time.instant().plus(Duration.ofMinutes(5));
        Map<String, String> targets = new java.util.LinkedHashMap<>();
        targets.put("data-db-0", "20Gi");
        targets.put("data-db-1", "20Gi");
        Map<String, FileSystems.Checked> out = fs.follow("shop", "db", targets, deadline, goneOn, List::of);
        assertThat(out.get("data-db-0").state()).isEqualTo(FileSystem.PENDING);
        assertThat(out.get("data-db-1").state()).isEqualTo(FileSystem.GROWN);
        assertThat(cluster.watches).isZero();

        claim("20Gi", null, "FileSystemResizePending");
        cluster.edit("PersistentVolumeClaim", "shop", "data-db-1", c -> ((ObjectNode) c.path("status")).putArray("conditions").addObject()
                .put("type", "FileSystemResizePending").put("status", "True"));
        stop.request("SIGINT");
        Map<String, FileSystems.Checked> stopped = fs.follow("shop", "db", targets, deadline, new StopRequest(), List::of);
        assertThat(stopped).containsOnlyKeys("data-db-0", "data-db-1");
        assertThat(cluster.watches).as("the second is not followed").isZero();
        assertThat(stopped.get("data-db-1").state()).isEqualTo(FileSystem.NO_POD);
    }

    @Test
    void past_its_deadline_nothing_is_followed() {
        pod("data-db-0", "Running", "n1", false);
        claim("20Gi", null, "FileSystemResizePending");
        Map<String, FileSystems.Checked> out = fs.follow("shop", "db", Map.of("data-db-0", "20Gi"), cluster.time.instant(),
                new StopRequest(), List::of);
        assertThat(out.get("data-db-0").state()).isEqualTo(FileSystem.PENDING);
        assertThat(cluster.watches).isZero();
    }

    private static StatefulSetResult.ClaimResult fs(String name, FileSystem f) {
        return new StatefulSetResult.ClaimResult(name, "10Gi", "20Gi", "20Gi", f, -1);
    }

    @Test
    void the_sentence_says_whether_the_pods_can_write_to_the_new_space() {
        assertThat(FileSystems.sentence(List.of())).isEmpty();
        assertThat(FileSystems.sentence(List.of(new StatefulSetResult.ClaimResult("a", "1", "2", "2")))).isEmpty();
        assertThat(FileSystems.sentence(List.of(fs("a", FileSystem.GROWN)))).isEqualTo("file system grown: the pods can write to the new space");
        assertThat(FileSystems.sentence(List.of(fs("a", FileSystem.GROWN), fs("b", FileSystem.GROWN))))
                .isEqualTo("2 file systems grown: the pods can write to the new space");
        assertThat(FileSystems.sentence(List.of(fs("a", FileSystem.GROWN), fs("b", FileSystem.NO_POD))))
                .isEqualTo("file systems: 1 grown, 1 mounted by no pod (grown when a pod mounts it): the pods can write to the new space");
        assertThat(FileSystems.sentence(List.of(fs("a", FileSystem.WAITS_FOR_RESTART), fs("b", FileSystem.WAITS_FOR_RESTART),
                fs("c", FileSystem.PENDING), fs("d", FileSystem.UNKNOWN), fs("e", FileSystem.WAITS_FOR_RESTART))))
                .isEqualTo("file systems: 3 wait for a pod restart, 1 still growing (the kubelet had not finished when the run stopped"
                        + " following it), 1 not known (the volume itself has not grown): the pods cannot use all of the new space yet");
        assertThat(FileSystems.sentence(List.of(fs("a", FileSystem.WAITS_FOR_RESTART)))).isEqualTo("file systems: 1 waits for a pod restart:"
                + " the pods cannot use all of the new space yet");
    }
}
