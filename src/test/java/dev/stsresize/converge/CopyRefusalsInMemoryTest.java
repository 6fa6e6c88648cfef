package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static dev.stsresize.converge.CopyWorld.STS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * What a copy does before its first claim delete when the cluster is not as it read it: an eviction a
 * PodDisruptionBudget refuses is asked again until the deadline; a claim or volume gone, a claim not Bound, a volume that
 * keeps changing stop the run with nothing deleted; a failure of the API server ends it as a crash with its record kept.
 */
class CopyRefusalsInMemoryTest extends OnCopyWorld {
    private static final String CONFLICT = "Operation cannot be fulfilled on persistentvolumes";




    private String oldVolume(int ordinal) {
        return c.claimOf(ordinal).at("/spec/volumeName").asText();
    }

    /** The run advanced to its first eviction (past the checks' dry runs), {@code plant} done, then ended. */
    private Convergence.Turn atEviction(Runnable plant) {
        Convergence m = c.start();
        OnMemoryWorld.advanceTo(m, Phase.EVICT);
        plant.run();
        return end(m);
    }

    @Test
    void an_eviction_refused_by_a_pod_disruption_budget_is_asked_again() {
        StatefulSetResult r = atEviction(c::budgetRefusesOnce).result();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.sent("evictPod")).extracting(MemoryCluster.Call::name).containsExactly("web-1", "web-1", "web-0");
        assertThat(c.w.heard.events).anySatisfy(e -> assertThat(e.message()).isEqualTo("pod web-1: its PodDisruptionBudget does not allow"
                + " it down now (Cannot evict pod as it would violate the pod's disruption budget.); asking again in 5s"));
        c.assertSafe();
    }

    @Test
    void a_pod_that_goes_while_its_budget_refuses_is_not_evicted_again() {
        StatefulSetResult r = atEviction(() -> {
            c.budgetRefusesOnce();
            c.cluster.whenFailing = m -> c.cluster.remove("Pod", NS, "web-1");
        }).result();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.sent("evictPod")).extracting(MemoryCluster.Call::name).containsExactly("web-1", "web-0");
        assertThat(r.detail()).contains("until Ready: web-1 ").doesNotContain("not measured");
        c.assertSafe();
    }

    @Test
    void a_budget_that_refuses_until_the_timeout_stops_the_copy_with_the_statefulset_re_applied() {
        StatefulSetResult r = atEviction(() -> c.cluster.failAlways("evictPod", MemoryCluster.error(429, "TooManyRequests",
                "the budget allows 0 disruptions"))).result();
        assertThat(r.reason()).isEqualTo("copy-stopped");
        assertThat(r.detail()).startsWith("evicting pod files/web-1 is refused by its PodDisruptionBudget (the budget allows 0"
                + " disruptions) until --timeout ran out; nothing of its claims was copied or deleted. The StatefulSet is re-applied: run"
                + " again when the budget allows one pod down. The StatefulSet is re-applied: its pods are back on their claims");
        assertThat(c.sent("evictPod").size()).as("asked at 0 s, 5 s, … 55 s of the minute of --timeout: the next would come at its end")
                .isEqualTo(12);
        assertThat(c.pod("web-1").orElseThrow().at("/metadata/ownerReferences/0/uid").asText()).isEqualTo(c.w.uid("StatefulSet", NS, STS));
        assertThat(c.sent("createCopyPod")).isEmpty();
        c.assertSafe();
    }

    @Test
    void a_stop_while_the_budget_refuses_ends_the_wait_at_once() {
        Convergence.Turn end = atEviction(() -> {
            c.cluster.whenFailing = m -> c.w.stop.request("SIGINT");
            c.cluster.failAlways("evictPod", MemoryCluster.error(429, "TooManyRequests", "no disruption allowed"));
        });
        assertThat(end).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(c.sent("evictPod")).hasSize(1);
        assertThat(end.result().detail()).contains("The StatefulSet is re-applied: its pods are back on their claims");
    }

    @Test
    void an_eviction_that_fails_otherwise_ends_the_run_as_a_crash_keeping_its_record() {
        assertThatThrownBy(() -> atEviction(() -> c.cluster.failAlways("evictPod", MemoryCluster.error(500, "InternalError",
                "etcd down")))).hasMessage("etcd down");
        assertThat(c.w.journal.read(NS, STS)).isPresent();
        c.assertSafe();
    }

    @Test
    void a_pod_gone_before_its_eviction_is_not_evicted_and_its_downtime_is_not_measured_here() {
        Convergence m = c.start();
        OnMemoryWorld.advanceTo(m, Phase.EVICT);
        c.cluster.remove("Pod", NS, "web-1");
        StatefulSetResult r = end(m).result();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.sent("evictPod")).extracting(MemoryCluster.Call::name).containsExactly("web-0");
        assertThat(r.detail()).contains("(each pod down from its eviction until Ready: web-0 ")
                .contains("web-1 not measured here (taken down by an earlier process of the run))");
        c.assertSafe();
    }

    @Test
    void a_pod_that_goes_while_its_eviction_is_sent_counts_as_down() {
        StatefulSetResult r = atEviction(() -> {
            c.cluster.failNext("evictPod", MemoryCluster.error(404, "NotFound", "pods \"web-1\" not found"));
            c.cluster.whenFailing = m -> c.cluster.remove("Pod", NS, "web-1");
        }).result();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(r.detail()).contains("until Ready: web-1 ").doesNotContain("not measured");
        c.assertSafe();
    }

    @Test
    void a_conflict_on_a_volume_is_read_again_and_a_volume_that_keeps_changing_stops_the_copy_before_any_pod_goes_down() {
        c.cluster.failNext("patchVolumeReclaimPolicy", MemoryCluster.error(409, "Conflict", CONFLICT));
        StatefulSetResult once = run();
        assertThat(once.outcome()).as(once.detail()).isEqualTo(Outcome.CONVERGED);

        CopyWorld again = new CopyWorld(home.resolve("again"));
        c = again;
        String old = oldVolume(0);
        c.cluster.failAlways("patchVolumeReclaimPolicy", MemoryCluster.error(409, "Conflict", CONFLICT));
        int[] tries = {0};
        c.cluster.whenFailing = m -> tries[0]++;
        StatefulSetResult r = run();
        assertThat(r.reason()).isEqualTo("copy-stopped");
        assertThat(r.detail()).startsWith("PersistentVolume " + old + " kept changing while its reclaim policy was set: run again.");
        assertThat(tries[0]).as("read again twice after the first conflict").isEqualTo(3);
        assertThat(c.sent("deleteStatefulSetOrphan")).isEmpty();
        assertThat(c.sent("evictPod")).isEmpty();
        c.assertSafe();
    }

    @Test
    void a_reclaim_policy_refused_otherwise_ends_the_run_as_a_crash() {
        c.cluster.failAlways("patchVolumeReclaimPolicy", MemoryCluster.error(403, "Forbidden", "persistentvolumes is forbidden"));
        Convergence m = c.start();
        m.advance();
        assertThatThrownBy(m::advance).hasMessage("persistentvolumes is forbidden");
        assertThat(c.sent("evictPod")).isEmpty();
    }

    /** A run assessed on the cluster as it was, then {@code change} done by someone else before its first write. */
    private StatefulSetResult runAfter(Runnable change) {
        Convergence m = c.start();
        change.run();
        return end(m).result();
    }

    @Test
    void a_claim_not_bound_gone_or_without_its_volume_stops_the_copy_before_any_write_to_it() {
        assertThat(runAfter(() -> c.cluster.edit("PersistentVolumeClaim", NS, "data-web-0", o -> ((ObjectNode) o.path("status"))
                .put("phase", "Pending"))).detail()).startsWith("claim files/data-web-0 is not Bound to a volume: a copy reads a bound"
                        + " claim. The run is recorded");

        c = new CopyWorld(home.resolve("gone"));
        assertThat(runAfter(() -> c.cluster.remove("PersistentVolumeClaim", NS, "data-web-0")).detail()).startsWith("claim"
                + " files/data-web-0 is gone: someone deleted it before its copy began; nothing was deleted by this run");

        c = new CopyWorld(home.resolve("unbound"));
        assertThat(runAfter(() -> c.cluster.edit("PersistentVolumeClaim", NS, "data-web-0", o -> ((ObjectNode) o.path("spec"))
                .remove("volumeName"))).detail()).startsWith("claim files/data-web-0 is not Bound to a volume");

        c = new CopyWorld(home.resolve("no-volume"));
        String pv = oldVolume(0);
        StatefulSetResult r = runAfter(() -> c.cluster.remove("PersistentVolume", "default", pv));
        assertThat(r.detail()).startsWith("PersistentVolume " + pv + " of claim files/data-web-0 is not found");
        assertThat(c.sent("patchVolumeReclaimPolicy")).isEmpty();
        assertThat(c.sent("deleteStatefulSetOrphan")).isEmpty();
    }

    @Test
    void a_volume_deleted_once_its_policy_is_recorded_stops_the_copy_naming_it() {
        String pv = oldVolume(1);
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> {
            if (call.method().equals("patchVolumeReclaimPolicy") && call.name().equals(oldVolume(0))) {
                c.cluster.remove("PersistentVolume", "default", pv);
            }
        });
        StatefulSetResult r = run();
        assertThat(r.detail()).startsWith("PersistentVolume " + pv + " (old volume of data-web-1) is not found: it was deleted outside this"
                + " run");
    }

    @Test
    void an_old_volume_already_retain_is_left_as_it_is() {
        String pv = oldVolume(0);
        c.cluster.edit("PersistentVolume", "default", pv, v -> ((ObjectNode) v.path("spec")).put("persistentVolumeReclaimPolicy", "Retain"));
        StatefulSetResult r = run();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.sent("patchVolumeReclaimPolicy")).noneMatch(w -> w.name().equals(pv));
        assertThat(c.w.journal.all()).isEmpty();
        c.assertSafe();
    }

    @Test
    void a_copy_pod_made_by_an_earlier_process_is_followed_not_made_twice() {
        c.cluster.failNext("createCopyPod", MemoryCluster.error(409, "AlreadyExists", "pods \"stsresize-copy-data-web-1\" already exists"));
        c.cluster.whenFailing = m -> c.cluster.create("createCopyPod", "Pod", CopyPodSpec.of(NS, "data-web-1", "stsresize-copy-data-web-1",
                "busybox:1.36.1"), false);
        StatefulSetResult r = run();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        c.assertSafe();
    }

    @Test
    void a_temporary_claim_made_by_an_earlier_process_is_used_not_made_twice() {
        c.cluster.failNext("createClaim", MemoryCluster.error(409, "AlreadyExists", "persistentvolumeclaims already exists"));
        c.cluster.whenFailing = m -> c.cluster.create("createClaim", "PersistentVolumeClaim", MemoryCluster.json("{'apiVersion':'v1',"
                + "'kind':'PersistentVolumeClaim','metadata':{'name':'stsresize-copy-data-web-1','namespace':'files'},'spec':{"
                + "'storageClassName':'local-path','resources':{'requests':{'storage':'2Gi'}}}}"), false);
        StatefulSetResult r = run();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.checkpoints).as("no write of this process to tell").doesNotContain("create claim stsresize-copy-data-web-1");
        c.assertSafe();
    }

    @Test
    void a_temporary_claim_refused_by_the_server_ends_the_run_as_a_crash() {
        c.cluster.failNext("createClaim", MemoryCluster.error(403, "Forbidden", "persistentvolumeclaims is forbidden"));
        assertThatThrownBy(this::run).hasMessage("persistentvolumeclaims is forbidden");
        assertThat(c.sent("createCopyPod")).isEmpty();
    }

    @Test
    void a_copy_pod_refused_by_the_server_ends_the_run_as_a_crash_with_nothing_deleted() {
        c.cluster.failAlways("createCopyPod", MemoryCluster.error(403, "Forbidden", "pods is forbidden"));
        failingIn(Phase.COPY, "pods is forbidden");
        assertThat(c.sent("deleteClaim")).isEmpty();
    }
}
