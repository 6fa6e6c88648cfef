package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static dev.stsresize.converge.CopyWorld.STS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The copy past its first delete: the new volume re-pointed at the claim's own name and taken only while it still refers
 * to the copy, the claim re-created on it and waited for until Bound, the pod waited for until Ready; past an original
 * claim's delete nothing is re-applied (the StatefulSet would create that claim empty); the end read back from the
 * objects, never from the run's own account.
 */
class CopyRebindInMemoryTest extends OnCopyWorld {




    private String newVolume(String claim) {
        return c.w.journal.read(NS, STS).orElseThrow().copy().claims().get(claim).newVolume();
    }

    private void editVolume(String name, Consumer<ObjectNode> change) {
        c.cluster.edit("PersistentVolume", "default", name, change);
    }

    @Test
    void a_new_volume_taken_by_another_claim_is_not_taken_and_nothing_is_re_applied_past_the_delete() {
        String[] taken = new String[1];
        after("deleteClaim", "data-web-1", () -> {
            taken[0] = newVolume("data-web-1");
            editVolume(taken[0], v -> ((ObjectNode) v.at("/spec/claimRef")).put("name", "someone-else"));
        });
        StatefulSetResult r = run();
        assertThat(r.reason()).isEqualTo("copy-stopped");
        assertThat(r.detail()).startsWith("PersistentVolume " + taken[0] + " no longer refers to the copy of files/data-web-1 (claimRef"
                + " files/someone-else); it is not taken. The claim's data is on PersistentVolume ").doesNotContain("re-applied");
        assertThat(c.cluster.get("StatefulSet", NS, STS)).as("no StatefulSet to create the claim empty").isEmpty();
        assertThat(c.sent("pointVolumeAtClaim")).isEmpty();
        c.assertSafe();
    }

    @Test
    void a_new_volume_in_another_namespace_is_not_taken() {
        after("deleteClaim", "data-web-1", () -> editVolume(newVolume("data-web-1"), v -> ((ObjectNode) v.at("/spec/claimRef"))
                .put("namespace", "other")));
        assertThat(run().detail()).contains("(claimRef other/stsresize-copy-data-web-1); it is not taken");
    }

    @Test
    void a_claim_deleted_by_someone_before_its_copy_stops_the_run_naming_where_its_data_is() {
        String old = c.claimOf(1).at("/spec/volumeName").asText();
        after("evictPod", "web-1", () -> c.cluster.remove("PersistentVolumeClaim", NS, "data-web-1"));
        StatefulSetResult r = run();
        assertThat(r.detail()).startsWith("claim files/data-web-1 is gone and the record names no volume its copy went to; its data is on"
                + " PersistentVolume " + old + " (Retain). Nothing more is written").doesNotContain("re-applied");
        assertThat(c.sent("createCopyPod")).isEmpty();
        assertThat(c.cluster.get("StatefulSet", NS, STS)).as("not re-applied: it would create the claim empty").isEmpty();
        c.assertSafe();
    }

    @Test
    void a_conflict_on_the_re_point_is_read_again() {
        c.cluster.failNext("pointVolumeAtClaim", MemoryCluster.error(409, "Conflict", "the object has been modified"));
        StatefulSetResult r = run();
        assertThat(r.outcome()).as("the conflict read again: " + r.detail()).isEqualTo(Outcome.CONVERGED);

        c = new CopyWorld(home.resolve("again"));
        c.cluster.failAlways("pointVolumeAtClaim", MemoryCluster.error(409, "Conflict", "the object has been modified"));
        int[] tries = {0};
        c.cluster.whenFailing = m -> tries[0]++;
        StatefulSetResult changing = run();
        assertThat(tries[0]).as("read again twice after the first conflict").isEqualTo(3);
        assertThat(changing.detail()).startsWith("PersistentVolume " + newVolume("data-web-1") + " kept changing while it was re-pointed: run"
                + " again");
        c.assertSafe();
    }

    @Test
    void a_re_point_refused_otherwise_ends_the_run_as_a_crash_and_resume_finishes() {
        c.cluster.failNext("pointVolumeAtClaim", MemoryCluster.error(500, "InternalError", "etcd down"));
        failingIn(Phase.REBIND, "etcd down");
        StatefulSetResult r = c.resume();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.sent("createCopyPod")).as("not copied again: the record names the new volume").hasSize(2);
        c.assertSafe();
    }

    @Test
    void a_new_volume_deleted_before_its_re_point_stops_the_copy_naming_where_the_data_is() {
        String[] fresh = new String[1];
        after("deleteClaim", "data-web-1", () -> {
            fresh[0] = newVolume("data-web-1");
            c.cluster.remove("PersistentVolume", "default", fresh[0]);
        });
        assertThat(run().detail()).startsWith("PersistentVolume " + fresh[0] + " holding the copy of files/data-web-1 is not found");
    }

    @Test
    void a_claim_re_created_but_not_bound_when_resumed_is_waited_for_before_the_re_apply() {
        c.diesAfter = CopyCrashAtEachWriteInMemoryTest.WRITES.indexOf("create claim data-web-1") + 1;
        assertThatThrownBy(this::run).hasMessageStartingWith("the process dies after");
        String fresh = newVolume("data-web-1");
        c.cluster.edit("PersistentVolumeClaim", NS, "data-web-1", o -> ((ObjectNode) o.path("status")).put("phase", "Pending"));
        StatefulSetResult r = c.resume();
        assertThat(r.detail()).startsWith("claim files/data-web-1 is not Bound to PersistentVolume " + fresh + " before --timeout");
        assertThat(c.cluster.get("StatefulSet", NS, STS)).isEmpty();
    }

    @Test
    void a_claim_never_bound_on_its_new_volume_holds_the_re_apply() {
        after("createClaim", "data-web-1", () -> c.cluster.edit("PersistentVolumeClaim", NS, "data-web-1",
                o -> ((ObjectNode) o.path("status")).put("phase", "Pending")));
        StatefulSetResult r = run();
        assertThat(r.detail()).startsWith("claim files/data-web-1 is not Bound to PersistentVolume " + newVolume("data-web-1") + " before"
                + " --timeout; the StatefulSet is not re-applied until it is. Run `kubectl stsresize resume files/web`");
        assertThat(c.cluster.get("StatefulSet", NS, STS)).isEmpty();
        c.assertSafe();
    }

    @Test
    void a_claim_re_created_by_someone_else_after_the_delete_is_left_and_nothing_more_is_written() {
        after("deleteClaim", "data-web-1", () -> {
            throw new IllegalStateException("the process dies");
        });
        Convergence m = c.start();
        assertThatThrownBy(() -> end(m)).hasMessage("the process dies");
        String old = c.w.journal.read(NS, STS).orElseThrow().copy().claims().get("data-web-1").oldVolume();
        c.cluster.put("{'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'data-web-1','namespace':'files'},"
                + "'spec':{'volumeName':'pv-theirs'},'status':{'phase':'Bound'}}");
        int writes = c.cluster.realWrites().size();

        StatefulSetResult r = c.resume();

        assertThat(r.detail()).startsWith("claim files/data-web-1 was created again by someone else, on PersistentVolume pv-theirs, not on"
                + " the copy's volume " + newVolume("data-web-1") + "; nothing more is written. The old data is on PersistentVolume " + old
                + " (Retain)");
        assertThat(c.cluster.realWrites().subList(writes, c.cluster.realWrites().size())).extracting(MemoryCluster.Call::method)
                .doesNotContain("deleteClaim", "pointVolumeAtClaim", "createClaim", "applyStatefulSet", "createStatefulSet");
    }

    @Test
    void a_run_resumed_past_the_original_delete_re_points_and_re_creates_the_claim() {
        after("deleteClaim", "data-web-1", () -> {
            throw new IllegalStateException("the process dies");
        });
        assertThatThrownBy(() -> end(c.start())).hasMessage("the process dies");
        String copied = newVolume("data-web-1");
        StatefulSetResult r = c.resume();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.claimOf(1).at("/spec/volumeName").asText()).isEqualTo(copied);
        assertThat(c.sent("createCopyPod")).hasSize(2);
        c.assertSafe();
    }

    @Test
    void a_copy_whose_proof_was_lost_with_its_pod_is_kept_listed_and_done_again() {
        after("deleteClaim", "stsresize-copy-data-web-1", () -> {
            throw new IllegalStateException("the process dies");
        });
        assertThatThrownBy(() -> end(c.start())).hasMessage("the process dies");
        String given = newVolume("data-web-1");

        StatefulSetResult r = c.resume();

        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.w.heard.events).anySatisfy(e -> assertThat(e.message()).isEqualTo("claim data-web-1: the copy on PersistentVolume "
                + given + " can no longer be proven (its copy pod and temporary claim are gone); it is kept (Retain), listed at the end,"
                + " and the claim is copied again"));
        assertThat(c.claimOf(1).at("/spec/volumeName").asText()).isNotEqualTo(given);
        assertThat(c.volume(given).orElseThrow().at("/spec/persistentVolumeReclaimPolicy").asText()).isEqualTo("Retain");
        assertThat(r.detail()).contains("the old volumes are kept (Released, Retain): ").contains(given);
        assertThat(c.sent("createCopyPod")).extracting(MemoryCluster.Call::name).containsExactly("stsresize-copy-data-web-1",
                "stsresize-copy-data-web-1", "stsresize-copy-data-web-0");
        c.assertSafe();
    }

    @Test
    void a_pod_not_ready_on_its_new_volumes_before_the_timeout_ends_the_run_leaving_the_other_pods_untouched() {
        Convergence m = c.start();
        OnMemoryWorld.advanceTo(m, Phase.REAPPLY);
        c.w.controllerRuns = false;
        StatefulSetResult r = end(m).result();
        assertThat(r.reason()).isEqualTo("pod-not-ready");
        assertThat(r.detail()).isEqualTo("pod web-1 is not Ready on its new volumes before --timeout; the other pods are untouched. Find"
                + " out why (kubectl describe pod web-1 -n files), then `kubectl stsresize resume files/web`");
        assertThat(c.pod("web-0")).as("untouched").isPresent();
        assertThat(c.sent("evictPod")).hasSize(1);
    }

    @Test
    void a_statefulset_deleted_after_its_re_apply_stops_a_resumed_copy() {
        OnMemoryWorld.advanceTo(c.start(), Phase.POD_READY);
        // the process dies; someone deletes the StatefulSet once resume has read it standing
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> c.cluster.remove("StatefulSet", NS, STS));
        StatefulSetResult r = c.resume();
        assertThat(r.detail()).startsWith("StatefulSet files/web is gone after its re-apply: someone deleted it. The run is recorded");
        assertThat(c.sent("evictPod")).hasSize(1);
    }

    /** The run at its verification, {@code change} done, then ended: the result it gives. */
    private StatefulSetResult verifiedAfter(Runnable change) {
        Convergence m = c.start();
        OnMemoryWorld.advanceTo(m, Phase.VERIFY);
        change.run();
        return end(m).result();
    }

    @Test
    void the_end_is_read_back_from_the_objects_a_claim_below_its_target_is_not_verified() {
        StatefulSetResult r = verifiedAfter(() -> c.cluster.edit("PersistentVolumeClaim", NS, "data-web-0",
                o -> ((ObjectNode) o.at("/status/capacity")).put("storage", "1Gi")));
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.reason()).isEqualTo("not-verified");
        assertThat(r.detail()).startsWith("the copy is not verified from the objects: claim data-web-0 is on " + newVolumeOf(0) + " at 1Gi,"
                + " not on " + newVolumeOf(0) + " at 2Gi; the old volumes are kept (Released, Retain): ");
        assertThat(c.w.released(NS, STS)).as("released all the same: nothing more to do").isTrue();
    }

    private String newVolumeOf(int ordinal) {
        return c.claimOf(ordinal).at("/spec/volumeName").asText();
    }

    @Test
    void the_end_is_read_back_from_the_objects_a_claim_or_pod_missing_or_not_ready_is_said() {
        StatefulSetResult r = verifiedAfter(() -> {
            c.cluster.remove("PersistentVolumeClaim", NS, "data-web-0");
            c.cluster.edit("PersistentVolumeClaim", NS, "data-web-1", o -> {
                ((ObjectNode) o.path("spec")).remove("volumeName");
                ((ObjectNode) o.path("status")).remove("capacity");
            });
            c.cluster.remove("Pod", NS, "web-0");
            c.cluster.edit("Pod", NS, "web-1", p -> ((ObjectNode) p.at("/status/conditions/2")).put("status", "False"));
        });
        assertThat(r.detail()).contains("claim data-web-0 is missing; claim data-web-1 is on no volume at no capacity, not on ")
                .contains("; pod web-0 is missing; pod web-1 is not Ready under the StatefulSet");
    }

    @Test
    void a_claim_at_its_target_on_another_volume_than_its_copy_is_not_verified() {
        StatefulSetResult r = verifiedAfter(() -> c.cluster.edit("PersistentVolumeClaim", NS, "data-web-1",
                o -> ((ObjectNode) o.path("spec")).put("volumeName", "pv-someone")));
        assertThat(r.detail()).startsWith("the copy is not verified from the objects: claim data-web-1 is on pv-someone at 2Gi, not on ");
    }

    @Test
    void the_end_without_the_statefulset_is_not_verified() {
        StatefulSetResult r = verifiedAfter(() -> c.cluster.remove("StatefulSet", NS, STS));
        assertThat(r.detail()).contains("StatefulSet files/web is gone");
        assertThat(r.pods()).isEmpty();
    }

    @Test
    void a_pod_of_another_owner_is_not_ready_under_the_statefulset() {
        StatefulSetResult r = verifiedAfter(() -> c.cluster.edit("Pod", NS, "web-1",
                p -> ((ObjectNode) p.at("/metadata/ownerReferences/0")).put("uid", "uid-someone")));
        assertThat(r.detail()).contains("pod web-1 is not Ready under the StatefulSet");
    }
}
