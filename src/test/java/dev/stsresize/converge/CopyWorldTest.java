package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static dev.stsresize.converge.CopyWorld.STS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ClaimDeleteAllowed;
import dev.stsresize.cluster.CopyVerified;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link CopyWorld}'s safety checks can fail: a delete no correct copy sends, sent here by hand with a proof the steps
 * took, makes {@link CopyWorld#assertSafe} go red (its negative controls). And the steps on their own, one by one, as a
 * driver calls them.
 */
class CopyWorldTest extends OnCopyWorld {
    Steps.Run run;

    @BeforeEach
    void world() {
        c = new CopyWorld(home);
        run = c.w.steps.lock(c.w.steps.check(c.assess(), CopyWorld.options(), true), CopyWorld.options(), true).run();
    }

    /** The steps up to web-1's copy proven: its old volumes Retain, the StatefulSet orphan-deleted, web-1 evicted and copied. */
    private CopyVerified copied() {
        c.w.steps.retainOld(run);
        Steps.Deleted del = c.w.steps.orphanDelete(run, new Steps.DeleteAllowed(NS, STS, c.w.uid("StatefulSet", NS, STS)));
        assertThat(del.gone()).as(del.message()).isTrue();
        c.w.steps.evict(run, CopyWorld.options());
        c.w.steps.copy(run, CopyWorld.options());
        return run.proofs.get("data-web-1");
    }

    @Test
    void a_claim_deleted_while_a_pod_mounts_it_is_caught() {
        CopyVerified proof = copied();
        assertThat(proof).as("web-1's copy proven").isNotNull();
        ObjectNode pod = CopyPodSpec.of(NS, "data-web-0", "data-web-1", "busybox");
        ((ObjectNode) pod.path("metadata")).put("name", "reader");
        c.cluster.put(pod);
        ClaimDeleteAllowed allowed = (ClaimDeleteAllowed) ClaimDeleteAllowed.check(c.cluster, proof, c.w.claim(NS, "data-web-1"));
        c.cluster.deleteClaim(allowed);
        assertThatThrownBy(c::assertSafe).hasMessageContaining("claim data-web-1 deleted while pod reader mounts it");
    }

    @Test
    void a_volume_deleted_by_its_reclaim_policy_is_caught() {
        CopyVerified proof = copied();
        ObjectNode claim = c.w.claim(NS, "data-web-1");
        ClaimDeleteAllowed allowed = (ClaimDeleteAllowed) ClaimDeleteAllowed.check(c.cluster, proof, claim);
        String pv = claim.at("/spec/volumeName").asText();
        c.cluster.edit("PersistentVolume", "default", pv, v -> ((ObjectNode) v.path("spec")).put("persistentVolumeReclaimPolicy", "Delete"));
        c.cluster.deleteClaim(allowed);
        assertThat(c.volume(pv)).isEmpty();
        assertThatThrownBy(c::assertSafe).hasMessageContaining("PersistentVolume " + pv + " deleted with claim data-web-1 by its reclaim"
                + " policy Delete");
    }

    @Test
    void a_claim_deleted_without_its_copy_proven_is_caught_as_it_happens_and_in_the_deletes_sent() {
        CopyVerified proof = copied();
        c.proven.clear();
        c.cluster.deleteClaim((ClaimDeleteAllowed) ClaimDeleteAllowed.check(c.cluster, proof, c.w.claim(NS, "data-web-1")));
        assertThatThrownBy(c::assertSafe).hasMessageContaining("claim data-web-1 deleted before its copy was proven");
        c.violations.clear();
        assertThatThrownBy(c::assertSafe).hasMessageStartingWith("a delete the converge may not send: Call[method=deleteClaim");
    }

    @Test
    void the_steps_one_by_one_record_the_copy_before_its_deletes_and_leave_the_claim_on_its_new_volume() {
        CopyVerified proof = copied();
        String fresh = c.w.journal.read(NS, STS).orElseThrow().copy().claims().get("data-web-1").newVolume();
        assertThat(fresh).as("the new volume recorded before any delete").isNotEmpty();
        assertThat(proof.destination()).isEqualTo("stsresize-copy-data-web-1");
        assertThat(c.sent("deleteClaim")).isEmpty();

        c.w.steps.rebind(run, CopyWorld.options());
        assertThat(c.claimOf(1).at("/spec/volumeName").asText()).isEqualTo(fresh);
        assertThat(run.downSince).containsOnlyKeys(1);

        c.w.steps.reapply(run);
        assertThat(c.w.steps.podReady(run, CopyWorld.options())).isTrue();
        assertThat(run.downFor).containsOnlyKeys(1);
        assertThat(run.record().copy().done()).containsExactly(1);
        assertThat(run.record().copy().current()).isZero();
        assertThat(run.record().uid()).as("the re-applied StatefulSet, the next delete's").isEqualTo(c.w.uid("StatefulSet", NS, STS));
        c.assertSafe();
    }

    @Test
    void with_every_pod_done_the_wait_for_a_pod_is_over_at_once() {
        run.lock.update(run.record().withCopy(run.record().copy().ordinalDone(1).ordinalDone(0)));
        int watches = c.cluster.watches;
        assertThat(c.w.steps.podReady(run, CopyWorld.options())).isTrue();
        assertThat(c.cluster.watches).isEqualTo(watches);
    }

    @Test
    void a_pod_beyond_the_replicas_is_not_waited_for() {
        c.cluster.edit("StatefulSet", NS, STS, s -> ((ObjectNode) s.path("spec")).put("replicas", 1));
        c.cluster.remove("Pod", NS, "web-1");
        int watches = c.cluster.watches;
        assertThat(c.w.steps.podReady(run, CopyWorld.options())).as("web-1 scaled away").isTrue();
        assertThat(c.cluster.watches).isEqualTo(watches);
        assertThat(run.record().copy().done()).containsExactly(1);
    }

    @Test
    void the_reclaim_gives_back_only_a_policy_other_than_retain() {
        CopyProgress copy = run.record().copy();
        String pv = c.claimOf(0).at("/spec/volumeName").asText();
        run.lock.update(run.record().withCopy(copy.with(copy.claims().get("data-web-0").withNew(pv, "Retain"))
                .with(copy.claims().get("data-web-1").withNew(c.claimOf(1).at("/spec/volumeName").asText(), ""))));
        c.w.steps.reclaim(run);
        assertThat(c.sent("patchVolumeReclaimPolicy")).isEmpty();
        run.lock.update(run.record().withCopy(copy.with(copy.claims().get("data-web-0").withNew(pv, "Recycle"))));
        c.w.steps.reclaim(run);
        assertThat(c.volume(pv).orElseThrow().at("/spec/persistentVolumeReclaimPolicy").asText()).isEqualTo("Recycle");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"Ready", "another owner", "not Ready", "only its containers ready"})
    void a_pod_counts_as_back_only_when_ready_under_the_statefulset_standing(String pod) {
        run.standing = c.w.sts(NS, STS);
        c.cluster.edit("Pod", NS, "web-1", p -> {
            switch (pod) {
                case "another owner" -> ((ObjectNode) p.at("/metadata/ownerReferences/0")).put("uid", "uid-another");
                case "not Ready" -> ((ObjectNode) p.at("/status/conditions/2")).put("status", "False");
                case "only its containers ready" -> ((com.fasterxml.jackson.databind.node.ArrayNode) p.at("/status/conditions")).remove(2);
                default -> { }
            }
        });
        boolean back = c.w.steps.podReady(run, CopyWorld.options());
        assertThat(back).isEqualTo(pod.equals("Ready"));
        assertThat(run.record().copy().done()).hasSize(back ? 1 : 0);
    }

    @Test
    void a_claim_already_on_its_new_volume_is_not_retained_again_its_old_volume_may_be_gone() {
        copied();
        c.w.steps.rebind(run, CopyWorld.options());
        String old = run.record().copy().claims().get("data-web-1").oldVolume();
        c.cluster.remove("PersistentVolume", "default", old); // the operator freed it
        int patches = c.sent("patchVolumeReclaimPolicy").size();
        c.w.steps.retainOld(run);
        assertThat(c.sent("patchVolumeReclaimPolicy")).hasSize(patches);
        c.cluster.remove("PersistentVolumeClaim", NS, "data-web-1"); // deleted again, past its move
        c.w.steps.retainOld(run);
        assertThat(c.sent("patchVolumeReclaimPolicy")).hasSize(patches);
    }

    @Test
    void a_claim_is_made_again_as_its_template_says_at_the_target_on_its_new_volume_and_from_no_data_source() {
        Record r = run.record();
        ObjectNode reapply = r.reapply().deepCopy();
        ObjectNode template = (ObjectNode) reapply.at("/spec/volumeClaimTemplates/0");
        ((ObjectNode) template.path("metadata")).putObject("labels").put("tier", "data").put("app.kubernetes.io/name", "overridden");
        ((ObjectNode) template.path("metadata")).putObject("annotations").put("backup", "daily");
        ObjectNode spec = (ObjectNode) template.path("spec");
        spec.put("volumeName", "pv-of-the-template");
        spec.putObject("dataSource").put("kind", "VolumeSnapshot").put("name", "snap");
        spec.putObject("dataSourceRef").put("kind", "VolumeSnapshot").put("name", "snap");
        Record declared = r.withReapply(reapply, r.claimTargets());
        CopyProgress.CopiedClaim claim = r.copy().claims().get("data-web-1").withNew("pv-new", "Delete");

        ObjectNode made = CopySteps.rebound(declared, claim);

        assertThat(made.at("/metadata/name").asText()).isEqualTo("data-web-1");
        assertThat(made.at("/metadata/namespace").asText()).isEqualTo(NS);
        assertThat(made.at("/metadata/labels").toString()).as("the template's labels, the selector's over them")
                .isEqualTo("{\"tier\":\"data\",\"app.kubernetes.io/name\":\"web\"}");
        assertThat(made.at("/metadata/annotations/backup").asText()).isEqualTo("daily");
        assertThat(made.at("/spec/volumeName").asText()).isEqualTo("pv-new");
        assertThat(made.at("/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
        assertThat(made.at("/spec").has("dataSource")).isFalse();
        assertThat(made.at("/spec").has("dataSourceRef")).isFalse();
        assertThat(made.at("/spec/storageClassName").asText()).isEqualTo("local-path");

        CopyProgress.CopiedClaim stranger = new CopyProgress.CopiedClaim("logs-web-1", 1, "", "", "", "pv-new", "", java.util.List.of());
        assertThatThrownBy(() -> CopySteps.rebound(declared, stranger)).isInstanceOf(CopySteps.CopyStopped.class)
                .hasMessage("claim logs-web-1 matches no claim template of files/web");
    }

    @Test
    void a_rebind_without_a_proof_of_this_process_proves_the_copy_first() {
        c.w.steps.retainOld(run);
        c.w.steps.orphanDelete(run, new Steps.DeleteAllowed(NS, STS, c.w.uid("StatefulSet", NS, STS)));
        c.w.steps.evict(run, CopyWorld.options());
        c.w.steps.rebind(run, CopyWorld.options());
        assertThat(run.proofs).containsOnlyKeys("data-web-1");
        assertThat(c.claimOf(1).at("/spec/volumeName").asText()).isEqualTo(run.record().copy().claims().get("data-web-1").newVolume());
        c.assertSafe();
    }

    @Test
    void a_claim_not_yet_moved_is_kept_retain_even_once_its_copy_is_recorded() {
        copied();
        String old = run.record().copy().claims().get("data-web-1").oldVolume();
        c.cluster.edit("PersistentVolume", "default", old, v -> ((ObjectNode) v.path("spec")).put("persistentVolumeReclaimPolicy", "Delete"));
        c.w.steps.retainOld(run);
        assertThat(c.volume(old).orElseThrow().at("/spec/persistentVolumeReclaimPolicy").asText()).isEqualTo("Retain");
    }
}
