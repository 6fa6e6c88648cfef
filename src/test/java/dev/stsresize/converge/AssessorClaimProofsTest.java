package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cluster.RulesReview;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The claim patches' dry runs as a plan and an apply send them, on the in-memory demo cluster: a plan that cannot read
 * the StorageClasses proves each patch as apply does (and says apply's verdict), each refusal read for what the server
 * means by it, and each dry run carrying the size before as the real patch will.
 */
class AssessorClaimProofsTest extends OnMemoryWorld {
    private static final String NOT_EXPANDABLE = "only dynamically provisioned pvc can be resized and the storageclass that provisions"
            + " the pvc must support resize";

    private Assessed postgres(Assessor.Depth depth, CopyOptIn copy) {
        return new Assessor(w.cluster, w.heard).copying(copy).assess(List.of(MemoryWorld.declared("postgres")), false, depth, false,
                Optional.empty()).items().get(0);
    }

    private Assessed postgres() {
        return postgres(Assessor.Depth.APPLY, CopyOptIn.NONE);
    }

    private static String reason(Assessed a) {
        return ((Refusal) a.decision()).reason().label();
    }

    @Test
    void a_plan_that_cannot_read_the_storage_classes_proves_each_claim_patch_as_apply_would_and_no_delete() {
        w.cluster.storageClassesForbidden = true;
        Assessed a = postgres(Assessor.Depth.PLAN, CopyOptIn.NONE);
        assertThat(a.decision().verdict()).isEqualTo(Verdict.GROW);
        assertThat(w.cluster.writes("patchClaimStorage")).extracting(MemoryCluster.Call::name)
                .containsExactlyInAnyOrder("data-postgres-0", "data-postgres-1", "data-postgres-2");
        assertThat(w.cluster.writes("deleteStatefulSetOrphan")).as("a plan proves no delete").isEmpty();
        assertThat(w.cluster.realWrites()).isEmpty();
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("server dry run: 3 claim patch(es) accepted"));
    }

    @Test
    void a_plan_that_cannot_read_the_class_says_the_refusal_apply_would_meet_and_that_copy_cannot_be_decided() {
        w.cluster.storageClassesForbidden = true;
        w.cluster.failAlways("patchClaimStorage", MemoryCluster.error(403, "Forbidden", NOT_EXPANDABLE));
        Assessed a = postgres(Assessor.Depth.PLAN, CopyOptIn.withDefaults());
        assertThat(reason(a)).isEqualTo("not-expandable");
        assertThat(a.decision().detail()).endsWith("a cluster admin can allow expansion on their class; --copy cannot be decided without"
                + " reading the StorageClass (list storageclasses.storage.k8s.io, cluster-scoped): ask a cluster admin for it, then run"
                + " again");
    }

    @Test
    void a_plan_is_blocked_for_a_missing_verb_as_apply_would_be() {
        w.cluster.rules = ns -> new RulesReview(List.of(new RulesReview.Rule(List.of("get", "list", "watch"), List.of("*"), List.of("*"),
                List.of())), false, "");
        Assessed a = postgres(Assessor.Depth.PLAN, CopyOptIn.NONE);
        assertThat(a.decision().verdict()).isEqualTo(Verdict.BLOCKED);
        assertThat(reason(a)).isEqualTo("forbidden");
        assertThat(a.decision().detail()).contains("you cannot patch persistentvolumeclaims, delete statefulsets.apps");
        assertThat(w.cluster.writes()).as("refused before its dry run").isEmpty();
    }

    @Test
    void one_claim_that_cannot_grow_is_named_alone_in_the_servers_words() {
        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(403, "Forbidden", NOT_EXPANDABLE));
        Assessed a = postgres();
        assertThat(reason(a)).isEqualTo("not-expandable");
        assertThat(a.decision().detail()).matches("not-expandable: claim \"data-postgres-[0-2]\" cannot grow \\(the server: "
                + NOT_EXPANDABLE + "\\); a cluster admin can allow expansion on its class");
    }

    @Test
    void the_servers_words_naming_each_claim_are_one_sentence_said_for_the_first_claim() {
        // each claim's refusal names the claim itself: the same words but for the name
        w.cluster.patchAnswer = o -> {
            throw MemoryCluster.error(403, "Forbidden", "persistentvolumeclaims \"" + Objects.name(o) + "\" is forbidden: " + NOT_EXPANDABLE);
        };
        Assessed a = postgres();
        assertThat(a.decision().detail()).startsWith("not-expandable: claims \"data-postgres-0\", \"data-postgres-1\", \"data-postgres-2\""
                + " cannot grow (the server, for data-postgres-0: persistentvolumeclaims \"data-postgres-0\" is forbidden: " + NOT_EXPANDABLE + ")");
    }

    @Test
    void a_refusal_that_says_the_user_cannot_patch_is_forbidden_whichever_words_say_it() {
        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(403, "Forbidden", "persistentvolumeclaims is forbidden: cannot patch"
                + " resource in API group \"\""));
        assertThat(reason(postgres())).isEqualTo("forbidden");
        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(403, "Forbidden", "User \"bob\" has no right here"));
        Assessed a = postgres();
        assertThat(reason(a)).isEqualTo("forbidden");
        assertThat(a.decision().detail()).containsPattern("you cannot patch claim data-postgres-[0-2]: User \"bob\" has no right here");
    }

    @Test
    void each_claim_patch_dry_run_carries_the_size_before_as_the_real_patch_will() {
        Map<String, String> sizeBefore = new ConcurrentHashMap<>();
        w.cluster.patchAnswer = o -> {
            sizeBefore.put(Objects.name(o), o.at("/metadata/annotations").path(SizeBefore.ANNOTATION).asText("none"));
            return o;
        };
        postgres();
        assertThat(sizeBefore).containsOnly(Map.entry("data-postgres-0", "10Gi"), Map.entry("data-postgres-1", "10Gi"),
                Map.entry("data-postgres-2", "10Gi"));
    }

    @Test
    void an_immutable_field_refused_for_an_object_without_a_name_is_still_read_as_another_immutable_field() {
        w.cluster.failNext("applyStatefulSet", MemoryCluster.error(422, "Invalid", " is invalid: spec: Forbidden: updates to statefulset"
                + " spec for fields other than 'replicas' are forbidden"));
        Assessed a = postgres();
        assertThat(reason(a)).isEqualTo("other-immutable");
    }
}
