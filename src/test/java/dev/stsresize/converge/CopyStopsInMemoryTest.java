package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static dev.stsresize.converge.CopyWorld.STS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cluster.PodLog;
import org.junit.jupiter.api.Test;

/**
 * A stop (Ctrl-C, SIGTERM) honoured at the copy's safe points: the request in flight finished, no other write started,
 * the record kept; the StatefulSet re-applied when it was absent and the pod's claims intact, so that the pod comes back
 * on them; and {@code resume} finishing the copy from there.
 */
class CopyStopsInMemoryTest extends OnCopyWorld {
    private Convergence.Turn.Stopped stopped() {
        Convergence.Turn end = end(c.start());
        assertThat(end).isInstanceOf(Convergence.Turn.Stopped.class);
        return (Convergence.Turn.Stopped) end;
    }

    private void resumed() {
        StatefulSetResult r = c.resume(new StopRequest());
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        c.assertSafe();
    }

    @Test
    void a_stop_while_the_old_volumes_are_retained_ends_there_with_the_statefulset_untouched() {
        after("patchVolumeReclaimPolicy", c.claimOf(0).at("/spec/volumeName").asText(), () -> c.w.stop.request("SIGINT"));
        Convergence.Turn.Stopped s = stopped();
        assertThat(s.phase()).isEqualTo(Phase.RETAIN.recorded());
        assertThat(s.result().detail()).startsWith("at phase retaining (SIGINT): the request in flight finished and no other write"
                + " started. The run is recorded: `kubectl stsresize resume files/web` finishes it").doesNotContain("re-applied");
        assertThat(c.sent("patchVolumeReclaimPolicy")).as("every old volume retained: one step").hasSize(2);
        assertThat(c.sent("deleteStatefulSetOrphan")).isEmpty();
        resumed();
    }

    @Test
    void a_stop_as_the_copy_ends_deletes_nothing_and_resume_proves_the_copy_from_its_pod() {
        c.copyLog = (claim, log) -> {
            c.w.stop.request("SIGTERM");
            return new PodLog(log, true);
        };
        Convergence.Turn.Stopped s = stopped();
        assertThat(s.result().detail()).contains("The StatefulSet is re-applied: its pods are back on their claims");
        assertThat(c.sent("deleteClaim")).isEmpty();
        assertThat(c.pod("web-1").orElseThrow().at("/spec/volumes/0/persistentVolumeClaim/claimName").asText()).isEqualTo("data-web-1");
        c.copyLog = (claim, log) -> new PodLog(log, true);
        resumed();
        assertThat(c.sent("createCopyPod")).as("the ended copy proven again, not made twice").hasSize(2);
    }

    @Test
    void a_stop_while_the_pod_comes_back_on_its_new_volume_ends_there_and_resume_waits_for_it() {
        Convergence m = c.start();
        OnMemoryWorld.advanceTo(m, Phase.REAPPLY);
        c.w.controllerRuns = false;
        c.cluster.onWatch("Pod", NS, "web-1", () -> c.w.stop.request("SIGINT"));
        Convergence.Turn end = end(m);
        assertThat(end).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(end.result().detail()).doesNotContain("re-applied");
        assertThat(c.sent("evictPod")).hasSize(1);
        c.controllerBack();
        resumed();
    }

    @Test
    void a_stop_once_the_pod_is_ready_again_ends_before_the_next_pod_goes_down() {
        after("applyStatefulSet", STS, () -> c.w.stop.request("SIGINT"));
        after("createStatefulSet", STS, () -> c.w.stop.request("SIGINT"));
        Convergence.Turn.Stopped s = stopped();
        assertThat(c.sent("evictPod")).extracting(MemoryCluster.Call::name).containsExactly("web-1");
        assertThat(s.result().detail()).doesNotContain("re-applied");
        resumed();
    }

    @Test
    void a_stop_as_the_pod_comes_back_ready_keeps_its_ordinal_done_and_resume_goes_on_with_the_next() {
        Convergence m = c.start();
        OnMemoryWorld.advanceTo(m, Phase.POD_READY);
        // the pod is Ready: the ordinal recorded done (the record's write), and then the stop comes
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> c.w.stop.request("SIGINT"));
        Convergence.Turn end = end(m);
        assertThat(end).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(m.said()).isEqualTo("pod web-1 is Ready on its new volumes");
        assertThat(c.w.journal.read(NS, STS).orElseThrow().copy().done()).containsExactly(1);
        resumed();
        assertThat(c.sent("evictPod")).extracting(MemoryCluster.Call::name).containsExactly("web-1", "web-0");
    }
}
