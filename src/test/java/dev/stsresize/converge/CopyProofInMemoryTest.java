package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static dev.stsresize.converge.CopyWorld.STS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cluster.PodLog;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * No claim is deleted before its copy pod's log proves the copy: a log that differs, is cut short, or lacks its last
 * line stops the run with nothing deleted, the StatefulSet re-applied so the evicted pod comes back on its own claim, and
 * the record kept for {@code resume}; the same for a copy that does not end in time or a stop while it runs.
 */
class CopyProofInMemoryTest extends OnCopyWorld {
    final Map<String, String> uids = new HashMap<>();

    @BeforeEach
    void world() {
        for (int i = 0; i < 2; i++) {
            uids.put(CopyWorld.claim(i), Objects.uid(c.claimOf(i)));
        }
    }


    /** Nothing deleted, each claim the original, the StatefulSet back with the evicted pod on its own claim, the run recorded. */
    private void nothingLost(StatefulSetResult r) {
        assertThat(c.sent("deleteClaim")).as("no claim deleted").isEmpty();
        uids.forEach((claim, uid) -> assertThat(Objects.uid(c.w.claim(NS, claim))).as(claim + " untouched").isEqualTo(uid));
        String sts = c.w.uid("StatefulSet", NS, STS);
        assertThat(sts).as("the StatefulSet re-applied").isNotEmpty();
        assertThat(c.pod("web-1").orElseThrow().at("/metadata/ownerReferences/0/uid").asText()).isEqualTo(sts);
        assertThat(c.pod("web-1").orElseThrow().at("/spec/volumes/0/persistentVolumeClaim/claimName").asText()).isEqualTo("data-web-1");
        assertThat(c.w.journal.read(NS, STS)).as("the record kept for resume").isPresent();
        assertThat(c.w.journal.read(NS, STS).orElseThrow().uid()).as("the re-applied UID recorded, the next delete's").isEqualTo(sts);
        assertThat(r.detail()).contains(". The StatefulSet is re-applied: its pods are back on their claims. The run is recorded:"
                + " `kubectl stsresize resume files/web` goes on from here");
        c.assertSafe();
    }

    @Test
    void a_copy_whose_manifests_differ_stops_the_run_with_nothing_deleted() {
        c.copyLog = (claim, log) -> new PodLog(log.replace("dst sha256=" + sha(log), "dst sha256=" + "0".repeat(64)), true);
        StatefulSetResult r = run();

        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.reason()).isEqualTo("copy-stopped");
        assertThat(r.detail()).startsWith("the copy of claim files/data-web-1 is not proven: copy pod files/stsresize-copy-data-web-1:"
                + " the manifests differ in sha256").contains(". Nothing was deleted: the claim, its volume and its data are as they were;"
                + " the copy pod stsresize-copy-data-web-1 and the temporary claim stsresize-copy-data-web-1 are left for you to read"
                + " (kubectl logs stsresize-copy-data-web-1 -n files)");
        assertThat(c.pod("stsresize-copy-data-web-1")).as("left to read").isPresent();
        nothingLost(r);
    }

    @Test
    void a_log_cut_short_proves_nothing() {
        c.copyLog = (claim, log) -> new PodLog(log, false);
        StatefulSetResult r = run();
        assertThat(r.detail()).contains("its log was cut short");
        nothingLost(r);
    }

    @Test
    void a_log_without_its_verified_line_proves_nothing() {
        c.copyLog = (claim, log) -> new PodLog(log.replace("stsresize-copy: verified\n", ""), true);
        StatefulSetResult r = run();
        assertThat(r.detail()).contains("not proven").contains("phase Failed, not Succeeded");
        nothingLost(r);
    }

    @Test
    void a_log_that_says_the_copy_of_another_claim_proves_nothing() {
        // the pod of data-web-1 printing data-web-0's manifests: the source and the copy each whole, but not of one another
        c.copyLog = (claim, log) -> new PodLog(log.replace("dst sha256=" + sha(log), "dst sha256=" + sha(CopyWorld.faithfulLog("data-web-0"))),
                true);
        StatefulSetResult r = run();
        assertThat(r.detail()).contains("the manifests differ in sha256");
        nothingLost(r);
    }

    private static String sha(String log) {
        int at = log.indexOf("src sha256=") + "src sha256=".length();
        return log.substring(at, at + 64);
    }

    @Test
    void a_copy_that_does_not_end_in_time_stops_with_nothing_deleted_and_says_where_to_look() {
        c.copiesEnd = false;
        StatefulSetResult r = run();
        assertThat(r.detail()).startsWith("the copy of claim files/data-web-1 did not end before --timeout (pod stsresize-copy-data-web-1);"
                + " nothing was deleted. Look at it with: kubectl logs stsresize-copy-data-web-1 -n files");
        nothingLost(r);
    }

    @Test
    void a_stop_while_the_claim_is_copied_brings_the_pod_back_and_keeps_the_record() {
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> {
            if (call.method().equals("createCopyPod")) {
                c.w.stop.request("SIGINT");
            }
        });
        Convergence.Turn end = end(c.start());
        assertThat(end).isInstanceOf(Convergence.Turn.Stopped.class);
        StatefulSetResult r = end.result();
        assertThat(r.outcome()).isEqualTo(Outcome.STOPPED);
        // the StatefulSet re-applied on the stop: resume goes on from its re-apply, the UID it recorded
        assertThat(((Convergence.Turn.Stopped) end).phase()).isEqualTo(Phase.REAPPLY.recorded());
        assertThat(r.detail()).contains("kubectl stsresize resume files/web").contains(". The StatefulSet is re-applied: its pods are back"
                + " on their claims");
        assertThat(c.sent("deleteClaim")).isEmpty();
        assertThat(c.pod("web-1").orElseThrow().at("/metadata/ownerReferences/0/uid").asText()).isEqualTo(c.w.uid("StatefulSet", NS, STS));
        c.assertSafe();
    }

    @Test
    void a_stop_after_the_second_eviction_re_applies_the_statefulset_with_the_first_pod_moved() {
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> {
            if (call.method().equals("evictPod") && call.name().equals("web-0")) {
                c.w.stop.request("SIGINT");
            }
        });
        Convergence.Turn end = end(c.start());
        assertThat(end).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(end.result().detail()).contains("The StatefulSet is re-applied");
        assertThat(c.sent("deleteClaim")).as("only web-1's claim and its copy's").hasSize(2);
        c.assertSafe();
    }

    @Test
    void a_claim_is_deleted_only_with_its_volume_re_read_as_retain() {
        String old = c.claimOf(1).at("/spec/volumeName").asText();
        after("deleteClaim", "stsresize-copy-data-web-1", () -> c.cluster.edit("PersistentVolume", "default", old,
                v -> ((com.fasterxml.jackson.databind.node.ObjectNode) v.path("spec")).put("persistentVolumeReclaimPolicy", "Delete")));
        StatefulSetResult r = run();
        assertThat(r.detail()).startsWith("claim files/data-web-1 is not deleted: its PersistentVolume " + old + " has reclaim policy"
                + " Delete, not Retain, so deleting the claim could delete its data");
        assertThat(c.sent("deleteClaim")).extracting(MemoryCluster.Call::name).containsExactly("stsresize-copy-data-web-1");
        assertThat(Objects.uid(c.claimOf(1))).isEqualTo(uids.get("data-web-1"));
        assertThat(r.detail()).contains("The StatefulSet is re-applied: its pods are back on their claims");
        c.assertSafe();
    }
}
