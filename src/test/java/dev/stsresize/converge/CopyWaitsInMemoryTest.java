package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static dev.stsresize.converge.CopyWorld.STS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.PodLog;
import org.junit.jupiter.api.Test;

/**
 * What a copy waits for before it goes on, and what it says when that does not come: a pod evicted but still on its node
 * (nothing copied while it may write), a copy pod deleted but still holding its claims, a claim deleted but kept by its
 * pvc-protection finalizer, a copy's claim or volume gone as it ends. And a failed copy resumed: redone, not trusted.
 */
class CopyWaitsInMemoryTest extends OnCopyWorld {



    /** {@code kind/name} as it stands now put back, terminating, right after the next write {@code method} of it removed it. */
    private void keptTerminating(String method, String kind, String name) {
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(new java.util.function.Consumer<>() {
            ObjectNode last;
            boolean done;

            @Override
            public void accept(MemoryCluster.Call call) {
                if (!done && call.method().equals(method) && call.name().equals(name) && last != null) {
                    done = true;
                    ((ObjectNode) last.path("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z").remove("resourceVersion");
                    c.cluster.put(last);
                }
                if (!done) {
                    last = c.cluster.get(kind, NS, name).orElse(null);
                }
            }
        });
    }

    @Test
    void a_pod_evicted_but_still_on_its_node_is_waited_for_and_nothing_is_copied() {
        keptTerminating("evictPod", "Pod", "web-1");
        StatefulSetResult r = run();
        assertThat(r.detail()).startsWith("pod files/web-1 is still there after --timeout: its containers or volumes are not released on"
                + " its node (kubectl describe pod web-1 -n files); nothing was copied");
        assertThat(c.sent("createCopyPod")).isEmpty();
        c.assertSafe();
    }

    @Test
    void a_copy_pod_deleted_but_still_holding_its_claims_holds_their_deletes() {
        keptTerminating("deleteCopyPod", "Pod", "stsresize-copy-data-web-1");
        StatefulSetResult r = run();
        assertThat(r.detail()).startsWith("copy pod files/stsresize-copy-data-web-1 is still there after --timeout: its volumes are not"
                + " released on its node (kubectl describe pod stsresize-copy-data-web-1 -n files); the claims it holds cannot be deleted"
                + " until it is gone");
        assertThat(c.sent("deleteClaim")).isEmpty();
    }

    @Test
    void a_claim_kept_by_its_pvc_protection_finalizer_is_waited_for_before_its_name_is_taken_again() {
        keptTerminating("deleteClaim", "PersistentVolumeClaim", "data-web-1");
        StatefulSetResult r = run();
        assertThat(r.detail()).startsWith("claim files/data-web-1 is still there after --timeout: a pod still uses it (its"
                + " kubernetes.io/pvc-protection finalizer stays until no pod does: kubectl describe pvc data-web-1 -n files); its data is"
                + " safe on PersistentVolume ");
        assertThat(c.sent("pointVolumeAtClaim")).isEmpty();
        assertThat(c.sent("createClaim")).extracting(MemoryCluster.Call::name).containsExactly("stsresize-copy-data-web-1");
    }

    @Test
    void a_temporary_claim_or_its_volume_gone_as_the_copy_ends_proves_nothing_and_nothing_is_deleted() {
        c.copyLog = (claim, log) -> {
            c.cluster.remove("PersistentVolumeClaim", NS, "stsresize-copy-" + claim); // someone deletes it as the copy ends
            return new PodLog(log, true);
        };
        assertThat(run().detail()).startsWith("temporary claim files/stsresize-copy-data-web-1 is gone though its copy pod ended: the"
                + " copy's volume cannot be found; nothing was deleted");
        assertThat(c.sent("deleteClaim")).isEmpty();

        c = new CopyWorld(home.resolve("volume"));
        c.copyLog = (claim, log) -> {
            String pv = c.cluster.get("PersistentVolumeClaim", NS, "stsresize-copy-" + claim).orElseThrow().at("/spec/volumeName").asText();
            c.cluster.remove("PersistentVolume", "default", pv);
            return new PodLog(log, true);
        };
        assertThat(run().detail()).startsWith("the volume of temporary claim files/stsresize-copy-data-web-1 is not found; nothing was"
                + " deleted");
        assertThat(c.sent("deleteClaim")).isEmpty();
    }

    @Test
    void a_failed_copy_resumed_is_copied_again_into_the_same_temporary_claim_never_trusted() {
        c.copyLog = (claim, log) -> new PodLog(log.replace("stsresize-copy: verified\n", "stsresize-copy: error cp: short write\n"), true);
        StatefulSetResult failed = run();
        assertThat(failed.detail()).contains("phase Failed, not Succeeded");
        String temp = Objects.uid(c.w.claim(NS, "stsresize-copy-data-web-1"));

        c.copyLog = (claim, log) -> new PodLog(log, true);
        StatefulSetResult r = c.resume();

        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.sent("deleteCopyPod")).as("the failed copy pod deleted, then each good one").hasSize(3);
        assertThat(c.sent("createCopyPod")).extracting(MemoryCluster.Call::name).containsExactly("stsresize-copy-data-web-1",
                "stsresize-copy-data-web-1", "stsresize-copy-data-web-0");
        assertThat(c.sent("deleteClaim")).filteredOn(d -> d.name().equals("stsresize-copy-data-web-1")).singleElement()
                .satisfies(d -> assertThat(d.detail()).isEqualTo("uid=" + temp));
        c.assertSafe();
    }

    @Test
    void a_copy_pod_that_has_not_started_is_said_as_pending_while_it_is_waited_for() {
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> {
            if (call.method().equals("createCopyPod")) {
                c.cluster.edit("Pod", NS, call.name(), p -> ((ObjectNode) p.path("status")).put("phase", "Pending"));
            }
        });
        run();
        assertThat(c.w.heard.ticks).anySatisfy(t -> assertThat(t.what()).contains("pod Pending"));
        assertThat(c.w.uid("StatefulSet", NS, STS)).isNotEmpty();
    }

    @Test
    void an_original_claim_still_terminating_on_resume_is_not_copied_again_and_its_name_is_taken_once_it_is_gone() {
        keptTerminating("deleteClaim", "PersistentVolumeClaim", "data-web-1");
        c.diesAfter = CopyCrashAtEachWriteInMemoryTest.WRITES.indexOf("delete claim data-web-1") + 1;
        assertThatThrownBy(this::run).hasMessageStartingWith("the process dies after");
        c.cluster.onWatch("PersistentVolumeClaim", NS, "data-web-1", () -> c.cluster.remove("PersistentVolumeClaim", NS, "data-web-1"));
        StatefulSetResult r = c.resume();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.sent("createCopyPod")).hasSize(2);
        c.assertSafe();
    }
}
