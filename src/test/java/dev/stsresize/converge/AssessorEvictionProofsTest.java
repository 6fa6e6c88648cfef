package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ResourceAccess;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import dev.stsresize.sim.demo.DemoScenario;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The proofs of a copy plan, before any write: each pod's eviction as a dry run (a PodDisruptionBudget that keeps a pod
 * now blocks the run, naming the pod), and the rights a copy needs beyond a re-create, in the namespace and cluster-wide.
 * On the demo's copy scenario (files/web, two pods on rancher's local-path class, which cannot expand) in memory.
 */
class AssessorEvictionProofsTest extends OnMemoryWorld {
    private static final String BUDGET = "Cannot evict pod as it would violate the pod's disruption budget.";

    @BeforeEach
    void copyScenario() {
        for (ObjectNode o : DemoScenario.copyCluster()) {
            if (!o.path("kind").asText().equals("Namespace")) {
                w.cluster.put(o);
            }
        }
        w.cluster.rules = ns -> {
            throw MemoryCluster.error(403, "Forbidden", "selfsubjectrulesreviews is forbidden");
        };
    }

    private Assessed web(Assessor.Depth depth) {
        return new Assessor(w.cluster, w.heard).copying(CopyOptIn.withDefaults()).assess(DemoScenario.copyManifest(), false, depth,
                false, Optional.empty()).items().get(0);
    }

    private static String reason(Assessed a) {
        return ((Refusal) a.decision()).reason().label();
    }

    @Test
    void a_copy_whose_pods_may_go_is_a_copy_plan_and_says_so_having_evicted_nothing() {
        Assessed web = web(Assessor.Depth.PLAN);
        assertThat(web.failure()).isNull();
        assertThat(web.decision().verdict()).as(web.decision().detail()).isEqualTo(Verdict.COPY);
        assertThat(w.cluster.writes("evictPod")).extracting(MemoryCluster.Call::name).containsExactlyInAnyOrder("web-0", "web-1");
        assertThat(w.cluster.writes("evictPod")).allSatisfy(c -> assertThat(c.dryRun()).isTrue());
        assertThat(w.cluster.get("Pod", "files", "web-0")).isPresent();
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("server dry run: the eviction of each pod to copy"
                + " is accepted (its budgets let it go now)"));
    }

    @Test
    void a_budget_that_keeps_every_pod_blocks_the_copy_naming_each_pod_in_order() {
        w.cluster.failAlways("evictPod", MemoryCluster.error(429, "TooManyRequests", BUDGET));
        Assessed web = web(Assessor.Depth.PLAN);
        assertThat(web.decision().verdict()).isEqualTo(Verdict.BLOCKED);
        assertThat(reason(web)).isEqualTo("copy-budget");
        assertThat(web.decision().detail()).contains("a PodDisruptionBudget does not let these pods go now (pod web-0: " + BUDGET
                + "; pod web-1: " + BUDGET + "), and the copy takes each pod down in turn. Nothing was written; run again when it"
                + " allows one pod down (kubectl get pdb -n files)");
        assertThat(w.cluster.realWrites()).isEmpty();
        assertThat(w.heard.events).noneMatch(p -> p.message().startsWith("server dry run: the eviction"));
    }

    @Test
    void a_budget_that_keeps_one_pod_blocks_the_copy_naming_that_pod() {
        w.cluster.failNext("evictPod", MemoryCluster.error(429, "TooManyRequests", BUDGET));
        Assessed web = web(Assessor.Depth.PLAN);
        assertThat(reason(web)).isEqualTo("copy-budget");
        assertThat(web.decision().detail()).containsPattern("does not let this pod go now \\(pod web-[01]: " + BUDGET.replace(".", "\\.")
                + "\\), and the copy");
    }

    @Test
    void the_claim_of_a_pod_scaled_away_is_copied_without_an_eviction_no_pod_runs_for_it() {
        ObjectNode scaledAway = w.claim("files", "data-web-1");
        ((ObjectNode) scaledAway.path("metadata")).put("name", "data-web-2").put("uid", "uid-data-web-2").remove("resourceVersion");
        w.cluster.put(scaledAway);
        Assessed web = web(Assessor.Depth.PLAN);
        assertThat(web.decision().verdict()).as(web.decision().detail()).isEqualTo(Verdict.COPY);
        assertThat(web.decision().claimsToCopy()).anySatisfy(c -> {
            assertThat(c.name()).isEqualTo("data-web-2");
            assertThat(c.scaledAway()).isTrue();
        });
        assertThat(w.cluster.writes("evictPod")).extracting(MemoryCluster.Call::name).containsExactlyInAnyOrder("web-0", "web-1");
    }

    @Test
    void an_eviction_refused_for_the_user_blocks_the_copy_as_forbidden() {
        w.cluster.failAlways("evictPod", MemoryCluster.error(403, "Forbidden", "pods \"web-0\" is forbidden: cannot create pods/eviction"));
        Assessed web = web(Assessor.Depth.PLAN);
        assertThat(reason(web)).isEqualTo("forbidden");
        assertThat(web.decision().detail()).contains("you cannot evict pods in namespace files (the server: pods \"web-0\" is forbidden:"
                + " cannot create pods/eviction). Nothing was written");
    }

    @Test
    void an_eviction_dry_run_that_fails_otherwise_is_the_runs_failure_in_the_servers_words() {
        w.cluster.failAlways("evictPod", MemoryCluster.error(500, "InternalError", "etcd timed out"));
        Assessed web = web(Assessor.Depth.PLAN);
        assertThat(web.failure()).matches("the server's dry run of the eviction of pod files/web-[01] failed: etcd timed out\\. Nothing was"
                + " written; run again");
    }

    @Test
    void a_pod_already_gone_has_nothing_to_evict_and_does_not_block_the_copy() {
        w.cluster.remove("Pod", "files", "web-1");
        Assessed web = web(Assessor.Depth.PLAN);
        assertThat(web.decision().verdict()).isEqualTo(Verdict.COPY);
        assertThat(web.failure()).isNull();
    }

    @Test
    void a_copy_without_the_namespace_verbs_it_needs_beyond_a_re_create_is_refused_naming_them() {
        w.cluster.allowed = r -> !(r.resource().equals("pods") && r.subresource().equals("log"))
                && !(r.resource().equals("persistentvolumeclaims") && r.verb().equals("delete"));
        Assessed web = web(Assessor.Depth.PLAN);
        assertThat(reason(web)).isEqualTo("forbidden");
        assertThat(web.decision().detail()).contains("you cannot get pods/log, delete persistentvolumeclaims in namespace files; ask a"
                + " cluster admin for these verbs (a Role bound to your user), then run again. Nothing was written");
        assertThat(web.decision().detail()).doesNotContain("cluster-wide");
    }

    @Test
    void a_copy_without_the_volumes_rights_is_refused_saying_a_role_binding_cannot_grant_them() {
        w.cluster.allowed = r -> !r.resource().equals("persistentvolumes");
        Assessed web = web(Assessor.Depth.PLAN);
        assertThat(reason(web)).isEqualTo("forbidden");
        assertThat(web.decision().detail()).contains("you cannot get persistentvolumes, patch persistentvolumes cluster-wide, which the"
                + " copy needs to keep each old and new volume with reclaim policy Retain and to point the new one at its claim; ask a"
                + " cluster admin for these verbs (a ClusterRole with a ClusterRoleBinding to your user: a RoleBinding grants nothing on"
                + " PersistentVolumes), then run again. Nothing was written");
        assertThat(web.decision().detail()).doesNotContain("in namespace files;");
        assertThat(w.cluster.accessReviews).filteredOn(r -> r.resource().equals("persistentvolumes"))
                .extracting(ResourceAccess::namespace).containsOnly("");
    }

    @Test
    void a_copy_asks_every_verb_it_needs_in_the_namespace_and_on_the_volumes() {
        web(Assessor.Depth.PLAN);
        assertThat(w.cluster.accessReviews).extracting(r -> r.namespace() + " " + r.describe()).contains("files create pods/eviction",
                "files create pods", "files get pods", "files delete pods", "files get pods/log", "files create persistentvolumeclaims",
                "files delete persistentvolumeclaims", " get persistentvolumes", " patch persistentvolumes");
    }

    @Test
    void a_growth_in_place_asks_nothing_of_the_volumes_nor_of_a_copys_pods() {
        List<ObjectNode> postgres = List.of(MemoryWorld.declared("postgres"));
        new Assessor(w.cluster, w.heard).assess(postgres, false, Assessor.Depth.PLAN, false, Optional.empty());
        assertThat(w.cluster.accessReviews).extracting(ResourceAccess::describe).doesNotContain("get persistentvolumes", "get pods/log",
                "create pods/eviction", "delete persistentvolumeclaims");
        assertThat(w.cluster.writes("evictPod")).isEmpty();
    }
}
