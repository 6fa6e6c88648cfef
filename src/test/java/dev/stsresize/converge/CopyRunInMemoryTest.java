package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static dev.stsresize.converge.CopyWorld.STS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A whole copy migration in memory ({@link CopyWorld}): what it leaves (each claim under its own name at the target on a
 * new volume, the old volumes kept Retain and Released, nothing of the copy left behind) and the order of its writes
 * that keeps the data (docs/design.md, "The copy migration").
 */
class CopyRunInMemoryTest extends OnCopyWorld {
    final Map<String, String> oldVolumes = new java.util.HashMap<>();

    @BeforeEach
    void world() {
        for (int i = 0; i < 2; i++) {
            oldVolumes.put(CopyWorld.claim(i), c.claimOf(i).at("/spec/volumeName").asText());
        }
    }

    private int indexOf(String method, String name) {
        List<MemoryCluster.Call> writes = c.cluster.realWrites();
        for (int i = 0; i < writes.size(); i++) {
            if (writes.get(i).method().equals(method) && writes.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new AssertionError("no " + method + " of " + name + " in " + writes);
    }

    private int indexOf(String method, String name, String detail) {
        List<MemoryCluster.Call> writes = c.cluster.realWrites();
        for (int i = 0; i < writes.size(); i++) {
            MemoryCluster.Call w = writes.get(i);
            if (w.method().equals(method) && w.name().equals(name) && w.detail().equals(detail)) {
                return i;
            }
        }
        throw new AssertionError("no " + method + " of " + name + " " + detail + " in " + writes);
    }

    @Test
    void a_copy_run_converges_each_claim_at_the_target_on_a_new_volume_with_the_old_volumes_kept_retain_and_released() {
        StatefulSetResult r = run();

        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        for (int i = 0; i < 2; i++) {
            ObjectNode claim = c.claimOf(i);
            String now = claim.at("/spec/volumeName").asText();
            String old = oldVolumes.get(CopyWorld.claim(i));
            assertThat(now).as("claim %d on a new volume", i).isNotEmpty().isNotEqualTo(old);
            assertThat(claim.at("/status/phase").asText()).isEqualTo("Bound");
            assertThat(claim.at("/status/capacity/storage").asText()).isEqualTo(CopyWorld.SIZE);
            ObjectNode kept = c.volume(old).orElseThrow();
            assertThat(kept.at("/spec/persistentVolumeReclaimPolicy").asText()).isEqualTo("Retain");
            assertThat(kept.at("/status/phase").asText()).isEqualTo("Released");
            ObjectNode fresh = c.volume(now).orElseThrow();
            assertThat(fresh.at("/spec/claimRef/uid").asText()).isEqualTo(Objects.uid(claim));
            assertThat(fresh.at("/spec/persistentVolumeReclaimPolicy").asText()).as("its class's policy given back").isEqualTo("Delete");
            assertThat(c.pod(STS + "-" + i).orElseThrow().at("/metadata/ownerReferences/0/uid").asText())
                    .isEqualTo(c.w.uid("StatefulSet", NS, STS));
            assertThat(c.pod("stsresize-copy-" + CopyWorld.claim(i))).as("copy pod gone").isEmpty();
            assertThat(c.cluster.get("PersistentVolumeClaim", NS, "stsresize-copy-" + CopyWorld.claim(i))).as("temporary claim gone").isEmpty();
        }
        assertThat(c.w.sts(NS, STS).at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
        assertThat(r.detail()).startsWith("2 claim(s) copied to bigger volumes under their own names, one pod at a time")
                .contains("(each pod down from its eviction until Ready: web-1 ", ", web-0 ")
                .endsWith("; the old volumes are kept (Released, Retain): " + oldVolumes.get("data-web-0") + ", " + oldVolumes.get("data-web-1")
                        + ". Once the application is checked, free them with: kubectl delete pv " + oldVolumes.get("data-web-0") + " "
                        + oldVolumes.get("data-web-1"));
        assertThat(r.claims()).hasSize(2).allSatisfy(claim -> {
            assertThat(claim.to()).isEqualTo("2Gi");
            assertThat(claim.capacity()).isEqualTo("2Gi");
            assertThat(claim.copied().previousVolume()).isEqualTo(oldVolumes.get(claim.name()));
            assertThat(claim.copied().volume()).isEqualTo(c.w.claim(NS, claim.name()).at("/spec/volumeName").asText());
            assertThat(claim.copied().files()).isEqualTo(12);
            assertThat(claim.copied().bytes()).isEqualTo(40960);
            assertThat(claim.copied().fileSystem()).isEqualTo("ext4 size-kib=2097152 used-kib=40");
        });
        assertThat(r.pods()).extracting(p -> p.name() + " " + p.restarted()).containsExactly("web-0 true", "web-1 true");
        assertThat(c.w.released(NS, STS)).as("the Lease and the journal let go").isTrue();
        c.assertSafe();
    }

    @Test
    void the_run_goes_one_pod_at_a_time_the_highest_ordinal_first_saying_each_step() {
        Convergence m = c.start();
        List<String> turns = new ArrayList<>();
        while (m.finished() == null) {
            Convergence.Turn t = m.advance();
            turns.add(m.position() + (t instanceof Convergence.Turn.Moved ? "" : " " + t.getClass().getSimpleName()) + ": " + m.said());
        }
        assertThat(turns).containsExactly(
                "RETAIN: the Lease and the record hold the run",
                "ORPHAN_DELETE: every volume to copy is kept by reclaim policy Retain, its policy before recorded",
                "EVICT: StatefulSet gone (404); pods and claims re-read: each still there with its UID",
                "COPY: pod web-1 is down: its claims are copied next",
                "REBIND: the claims of pod web-1 copied and verified",
                "REAPPLY: the claims of pod web-1 are Bound under their own names to their new volumes; the old volumes kept",
                "POD_READY: re-applied: the StatefulSet stands again, with the grown claim templates",
                "ORPHAN_DELETE: pod web-1 is Ready on its new volumes",
                "EVICT: StatefulSet gone (404); pods and claims re-read: each still there with its UID",
                "COPY: pod web-0 is down: its claims are copied next",
                "REBIND: the claims of pod web-0 copied and verified",
                "REAPPLY: the claims of pod web-0 are Bound under their own names to their new volumes; the old volumes kept",
                "POD_READY: re-applied: the StatefulSet stands again, with the grown claim templates",
                "RECLAIM: pod web-0 is Ready on its new volumes",
                "VERIFY: the new volumes have their class's reclaim policy back",
                "ENDED Ended: the new volumes have their class's reclaim policy back");
        assertThat(c.sent("deleteStatefulSetOrphan")).as("one orphan delete per pod").hasSize(2);
        assertThat(c.sent("evictPod")).extracting(MemoryCluster.Call::name).containsExactly("web-1", "web-0");
        c.assertSafe();
    }

    @Test
    void the_old_volumes_are_set_to_retain_and_recorded_before_any_pod_goes_down() {
        Convergence m = c.start();
        OnMemoryWorld.advanceTo(m, Phase.ORPHAN_DELETE);
        CopyProgress recorded = c.w.journal.read(NS, STS).orElseThrow().copy();
        for (int i = 0; i < 2; i++) {
            CopyProgress.CopiedClaim claim = recorded.claims().get(CopyWorld.claim(i));
            assertThat(claim.oldVolume()).isEqualTo(oldVolumes.get(CopyWorld.claim(i)));
            assertThat(claim.oldPolicy()).as("the policy before, to give back on a revert").isEqualTo("Delete");
            assertThat(claim.uid()).isEqualTo(Objects.uid(c.claimOf(i)));
            assertThat(c.volume(claim.oldVolume()).orElseThrow().at("/spec/persistentVolumeReclaimPolicy").asText()).isEqualTo("Retain");
        }
        end(m);
        int firstEviction = indexOf("evictPod", "web-1");
        for (String old : oldVolumes.values()) {
            assertThat(indexOf("patchVolumeReclaimPolicy", old, "policy=Retain")).isLessThan(firstEviction);
        }
        assertThat(c.sent("patchVolumeReclaimPolicy")).as("each old volume set once, each new one twice (Retain, back)")
                .hasSize(6);
        assertThat(c.w.heard.events).anySatisfy(e -> assertThat(e.message()).isEqualTo("PersistentVolume " + oldVolumes.get("data-web-1")
                + " (old volume of data-web-1): reclaim policy Retain"));
    }

    @Test
    void the_copy_pod_goes_before_the_temporary_claim_and_the_new_volume_is_retain_before_any_claim_delete() {
        run();
        for (int i = 0; i < 2; i++) {
            String claim = CopyWorld.claim(i);
            String temp = "stsresize-copy-" + claim;
            String fresh = c.claimOf(i).at("/spec/volumeName").asText();
            int tempDelete = indexOf("deleteClaim", temp);
            assertThat(indexOf("deleteCopyPod", temp)).isLessThan(tempDelete);
            assertThat(indexOf("patchVolumeReclaimPolicy", fresh, "policy=Retain")).isLessThan(tempDelete);
            assertThat(tempDelete).as("the copy's claim before the original").isLessThan(indexOf("deleteClaim", claim));
            assertThat(indexOf("deleteClaim", claim)).isLessThan(indexOf("pointVolumeAtClaim", fresh));
            assertThat(indexOf("pointVolumeAtClaim", fresh, "claimRef=files/" + claim)).as("re-pointed at the claim's own name")
                    .isLessThan(indexOf("createClaim", claim));
        }
        assertThat(c.sent("deleteClaim")).hasSize(4);
        c.assertSafe();
    }

    @Test
    void the_copy_pod_reads_the_claim_read_only_and_writes_a_temporary_claim_at_the_target_of_the_same_class() {
        List<ObjectNode> seen = new ArrayList<>();
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> {
            if (call.method().equals("createCopyPod")) {
                seen.add(c.pod(call.name()).orElseThrow());
                seen.add(c.cluster.get("PersistentVolumeClaim", NS, call.name()).orElseThrow());
            }
        });
        run();
        assertThat(seen).hasSize(4);
        ObjectNode pod = seen.get(0);
        assertThat(Objects.name(pod)).isEqualTo("stsresize-copy-data-web-1");
        assertThat(pod.at("/spec/volumes/0/persistentVolumeClaim").toString()).isEqualTo("{\"claimName\":\"data-web-1\",\"readOnly\":true}");
        assertThat(pod.at("/spec/volumes/1/persistentVolumeClaim/claimName").asText()).isEqualTo("stsresize-copy-data-web-1");
        assertThat(pod.at("/spec/containers/0/image").asText()).isEqualTo("busybox:1.36.1");
        ObjectNode temp = seen.get(1);
        assertThat(temp.at("/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
        assertThat(temp.at("/spec/storageClassName").asText()).isEqualTo("local-path");
        assertThat(temp.at("/spec/accessModes").toString()).isEqualTo("[\"ReadWriteOnce\"]");
        assertThat(temp.at("/spec/volumeMode").asText()).isEqualTo("Filesystem");
        assertThat(temp.at("/metadata/labels/app.kubernetes.io~1managed-by").asText()).isEqualTo("kubectl-stsresize");
        assertThat(temp.at("/metadata/labels/stsresize.dev~1copy-of").asText()).isEqualTo("data-web-1");
        assertThat(c.w.heard.events).anySatisfy(e -> assertThat(e.message()).isEqualTo("copy pod stsresize-copy-data-web-1: data-web-1"
                + " read-only at /src, stsresize-copy-data-web-1 at /dst"));
        assertThat(c.w.heard.events).anySatisfy(e -> assertThat(e.message()).startsWith("claim data-web-1 copied to PersistentVolume pvc-")
                .endsWith(" and verified: 12 files, 40960 bytes, the same owners, modes, links and sha256 on both sides"));
    }

    @Test
    void the_claim_is_created_again_as_the_template_makes_it_on_its_new_volume_and_waited_for_until_bound() {
        run();
        ObjectNode claim = c.claimOf(1);
        assertThat(claim.at("/metadata/labels/app.kubernetes.io~1name").asText()).as("the selector's label").isEqualTo("web");
        assertThat(claim.at("/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
        assertThat(claim.at("/spec/storageClassName").asText()).isEqualTo("local-path");
        assertThat(claim.has("dataSource")).isFalse();
        assertThat(c.w.heard.events).anySatisfy(e -> assertThat(e.message()).isEqualTo("claim data-web-1 Bound to PersistentVolume "
                + claim.at("/spec/volumeName").asText()));
        assertThat(c.w.heard.events).anySatisfy(e -> assertThat(e.message()).isEqualTo("PersistentVolume " + claim.at("/spec/volumeName")
                .asText() + " now refers to claim data-web-1"));
    }

    @Test
    void a_running_copy_shows_its_last_progress_line_in_the_wait() {
        run();
        assertThat(c.w.heard.ticks).anySatisfy(t -> assertThat(t.what()).endsWith("progress files=6 bytes=20480"));
    }

    @Test
    void a_running_copy_whose_log_cannot_be_read_is_waited_for_all_the_same() {
        c.cluster.failNext("podLog", MemoryCluster.error(500, "InternalError", "the kubelet does not answer"));
        StatefulSetResult r = run();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(c.w.heard.ticks).noneSatisfy(t -> assertThat(t.what()).contains("the kubelet"));
    }

    @Test
    void the_new_volumes_are_of_the_class_and_image_the_operator_chose() {
        ObjectNode bigger = c.cluster.get("StorageClass", "default", "local-path").orElseThrow();
        ((ObjectNode) bigger.path("metadata")).put("name", "local-bigger").remove(List.of("uid", "resourceVersion"));
        bigger.put("reclaimPolicy", "Retain");
        c.cluster.put(bigger);
        c.optIn = new dev.stsresize.plan.CopyOptIn(true, java.util.Optional.of("local-bigger"), "registry.local/tools:1");
        String[] image = new String[1];
        after("createCopyPod", "stsresize-copy-data-web-1", () -> image[0] = c.pod("stsresize-copy-data-web-1").orElseThrow()
                .at("/spec/containers/0/image").asText());
        StatefulSetResult r = run();
        assertThat(image[0]).isEqualTo("registry.local/tools:1");
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        for (int i = 0; i < 2; i++) {
            ObjectNode fresh = c.volume(c.claimOf(i).at("/spec/volumeName").asText()).orElseThrow();
            assertThat(fresh.at("/spec/storageClassName").asText()).isEqualTo("local-bigger");
            assertThat(fresh.at("/spec/persistentVolumeReclaimPolicy").asText()).as("its class's Retain kept").isEqualTo("Retain");
        }
        assertThat(c.sent("patchVolumeReclaimPolicy")).as("the old volumes only: the new ones are Retain by their class").hasSize(2);
        assertThat(c.w.heard.events).anySatisfy(e -> assertThat(e.message()).isEqualTo("copy pod stsresize-copy-data-web-0: data-web-0"
                + " read-only at /src, stsresize-copy-data-web-0 at /dst"));
        c.assertSafe();
    }

    @Test
    void each_write_of_the_copy_is_said_naming_what_it_keeps() {
        StatefulSetResult r = run();
        String fresh = r.claims().get(1).copied().volume();
        String old = oldVolumes.get("data-web-1");
        assertThat(c.w.heard.events).extracting(ProgressEvent::message).contains(
                "pod web-1 evicted: it is down until its claims are copied and the StatefulSet re-creates it",
                "temporary claim stsresize-copy-data-web-1 at 2Gi for the copy of data-web-1",
                "copy pod stsresize-copy-data-web-1 deleted",
                "temporary claim stsresize-copy-data-web-1 deleted: PersistentVolume " + fresh + " keeps the copy (Retain)",
                "claim data-web-1 deleted: PersistentVolume " + old + " keeps its data (Released, Retain)",
                "claim data-web-1 created again on PersistentVolume " + fresh);
    }

    @Test
    void each_copy_step_is_recorded_before_its_writes() {
        Convergence m = c.start();
        List<String> phases = new ArrayList<>();
        while (m.finished() == null) {
            Phase at = m.position();
            m.advance();
            if (m.finished() == null) {
                phases.add(at + " " + m.phase());
            }
        }
        assertThat(phases).containsSubsequence("EVICT evicting", "COPY copying", "REBIND rebinding", "REAPPLY reapplying",
                "EVICT evicting", "COPY copying", "REBIND rebinding", "REAPPLY reapplying", "RECLAIM reclaiming");
    }
}
