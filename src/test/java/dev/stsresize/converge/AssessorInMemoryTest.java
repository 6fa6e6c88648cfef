package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ResourceAccess;
import dev.stsresize.cluster.RulesReview;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import dev.stsresize.sim.demo.DemoScenario;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Read, decide and prove on the in-memory demo cluster: what each proof's refusal becomes (refused,
 * blocked, or a failure in the server's words), what the permissions decide, and that an assessment
 * writes nothing but dry runs.
 */
class AssessorInMemoryTest extends OnMemoryWorld {
    private Assessed postgres() {
        return w.assess("postgres");
    }

    private static String reason(Assessed a) {
        return ((Refusal) a.decision()).reason().label();
    }

    @Test
    void the_whole_manifest_is_read_once_per_namespace_decided_proved_and_sorted_with_nothing_written() {
        Assessment all = new Assessor(w.cluster, w.heard).assess(DemoScenario.manifest(), false, Assessor.Depth.APPLY, false,
                Optional.empty());
        assertThat(all.items()).extracting(Assessed::name).containsExactly("clickhouse", "kafka", "etcd", "mysql", "ledger", "elasticsearch",
                "minio", "postgres", "redis");
        assertThat(all.items()).extracting(a -> a.decision().verdict()).containsExactly(Verdict.GROW, Verdict.GROW, Verdict.UP_TO_DATE,
                Verdict.REFUSED, Verdict.UP_TO_DATE, Verdict.GROW, Verdict.GROW_CLAIMS, Verdict.GROW, Verdict.REFUSED);
        assertThat(all.items()).allSatisfy(a -> assertThat(a.failure()).isNull());
        assertThat(all.notes()).isEmpty();
        assertThat(all.namespacesWithoutLeases()).isEmpty();
        assertThat(all.claims()).isNotEmpty();
        assertThat(w.cluster.realWrites()).isEmpty();
        assertThat(w.cluster.reads()).filteredOn(r -> r.startsWith("listStatefulSets")).containsExactlyInAnyOrder(
                "listStatefulSets namespace analytics", "listStatefulSets namespace legacy", "listStatefulSets namespace payments",
                "listStatefulSets namespace shop");
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).matches("\\d+ StatefulSet\\(s\\), \\d+ claim\\(s\\), 3"
                + " StorageClass\\(es\\), 2 CSIDriver\\(s\\) in 4 namespace\\(s\\)"));
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("server dry run: 3 claim patch(es) accepted"));
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).startsWith("server dry run: the orphan delete (UID "));
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("server dry run: the claim templates are the only"
                + " immutable difference"));
        Assessed pg = all.items().get(7);
        assertThat(pg.fieldManager()).isNotEmpty();
        assertThat(pg.reapply().at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
        assertThat(pg.live()).isNotNull();
        assertThat(pg.declared()).isNotNull();
    }

    @Test
    void all_namespaces_are_listed_once_and_a_prefetch_sends_the_same_lists_early() {
        Assessor assessor = new Assessor(w.cluster, w.heard).prefetchAllNamespaces();
        Assessment all = assessor.assess(List.of(MemoryWorld.declared("postgres")), true, Assessor.Depth.PLAN, false, Optional.empty());
        assertThat(all.items()).singleElement().satisfies(a -> assertThat(a.decision().verdict()).isEqualTo(Verdict.GROW));
        assertThat(w.cluster.reads()).filteredOn(r -> r.startsWith("listStatefulSets")).containsExactly("listStatefulSets all namespaces");
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).endsWith(" in all namespaces"));
        assertThat(w.cluster.writes()).as("a plan proves only the re-apply").extracting(MemoryCluster.Call::method)
                .containsExactly("applyStatefulSet");
        Assessment again = new Assessor(w.cluster, w.heard).assess(List.of(MemoryWorld.declared("postgres")), true, Assessor.Depth.PLAN,
                false, Optional.empty());
        assertThat(again.items()).hasSize(1);
    }

    @Test
    void hidden_storage_classes_and_csi_drivers_are_noted_and_left_to_the_servers_dry_run() {
        w.cluster.storageClassesForbidden = true;
        w.cluster.csiDriversForbidden = true;
        Assessment all = new Assessor(w.cluster, w.heard).assess(List.of(MemoryWorld.declared("postgres")), false, Assessor.Depth.APPLY,
                false, Optional.empty());
        assertThat(all.notes()).containsExactly(
                "StorageClasses cannot be listed (storageclasses is forbidden); whether each claim can grow is left to the server's dry run"
                        + " of its patch",
                "CSIDrivers cannot be listed (csidrivers is forbidden); whether a CSI class has a resizer is unchecked, and each"
                        + " StatefulSet growing claims of one says so");
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).contains("0 StorageClass(es), 0 CSIDriver(s)"));
    }

    @Test
    void the_servers_refusal_of_every_claim_of_a_class_that_cannot_expand_is_one_sentence_naming_them() {
        w.cluster.storageClassesForbidden = true;
        w.cluster.failAlways("patchClaimStorage", MemoryCluster.error(403, "Forbidden", "persistentvolumeclaims is forbidden: only"
                + " dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize"));
        Assessed a = postgres();
        assertThat(reason(a)).isEqualTo("not-expandable");
        assertThat(a.decision().detail()).isEqualTo("not-expandable: claims \"data-postgres-0\", \"data-postgres-1\", \"data-postgres-2\""
                + " cannot grow (the server, for data-postgres-0: persistentvolumeclaims is forbidden: only dynamically provisioned pvc"
                + " can be resized and the storageclass that provisions the pvc must support resize); a cluster admin can allow"
                + " expansion on their class");
    }

    @Test
    void missing_verbs_block_before_any_write_naming_them() {
        w.cluster.rules = ns -> new RulesReview(List.of(new RulesReview.Rule(List.of("get", "list", "watch"), List.of("*"), List.of("*"),
                List.of()), new RulesReview.Rule(List.of("create", "update", "delete"), List.of("", "coordination.k8s.io", "events.k8s.io"),
                List.of("leases", "secrets", "events"), List.of())), false, "");
        Assessed a = postgres();
        assertThat(a.decision().verdict()).isEqualTo(Verdict.BLOCKED);
        assertThat(reason(a)).isEqualTo("forbidden");
        assertThat(a.decision().detail()).contains("you cannot patch persistentvolumeclaims, delete statefulsets.apps, create"
                + " statefulsets.apps, patch statefulsets.apps in namespace shop; ask a cluster admin for these verbs");
        assertThat(w.cluster.accessReviews).as("the rules answered everything").isEmpty();
        assertThat(w.cluster.writes()).isEmpty();
    }

    @Test
    void claims_that_may_be_listed_and_patched_but_not_read_one_by_one_block_before_any_write() {
        // a Role granting list, watch and patch on claims but not get: the run reads each claim before its patch
        w.cluster.rules = ns -> new RulesReview(List.of(new RulesReview.Rule(List.of("*"), List.of("*"), List.of("statefulsets", "pods",
                "controllerrevisions", "events", "leases", "secrets"), List.of()), new RulesReview.Rule(List.of("list", "watch", "patch"),
                List.of(""), List.of("persistentvolumeclaims"), List.of())), false, "");
        Assessed a = postgres();
        assertThat(a.decision().verdict()).isEqualTo(Verdict.BLOCKED);
        assertThat(a.decision().detail()).contains("you cannot get persistentvolumeclaims in namespace shop");
        assertThat(w.cluster.writes()).isEmpty();
    }

    @Test
    void without_events_leases_or_secrets_the_run_goes_on_warned_its_record_in_the_journal_only() {
        w.cluster.rules = ns -> {
            throw MemoryCluster.error(403, "Forbidden", "selfsubjectrulesreviews is forbidden");
        };
        w.cluster.allowed = r -> !r.resource().equals("events") && !r.resource().equals("leases");
        Assessment all = new Assessor(w.cluster, w.heard).assess(List.of(MemoryWorld.declared("postgres")), false, Assessor.Depth.APPLY,
                true, Optional.empty());
        Assessed a = all.items().get(0);
        assertThat(a.decision().verdict()).isEqualTo(Verdict.GROW);
        assertThat(all.namespacesWithoutLeases()).containsExactly("shop");
        assertThat(a.decision().warnings()).anySatisfy(x -> assertThat(x).startsWith("Events are not recorded in namespace shop"))
                .anySatisfy(x -> assertThat(x).startsWith("the run's lock and record are kept in the local journal only").contains(
                        "you cannot get leases.coordination.k8s.io, create leases.coordination.k8s.io, update leases.coordination.k8s.io"
                                + " in namespace shop"));
        assertThat(w.cluster.accessReviews).extracting(ResourceAccess::describe).contains("create pods/eviction", "create events",
                "create events.events.k8s.io");
    }

    @Test
    void events_through_the_core_api_are_enough() {
        w.cluster.rules = ns -> {
            throw MemoryCluster.error(403, "Forbidden", "no");
        };
        w.cluster.allowed = r -> !(r.resource().equals("events") && r.group().equals("events.k8s.io"));
        Assessed a = postgres();
        assertThat(a.decision().warnings()).noneMatch(x -> x.startsWith("Events are not recorded"));
    }

    @Test
    void the_re_apply_dry_run_refuses_another_immutable_field_a_forbidden_patch_or_fails_in_the_servers_words() {
        w.cluster.failNext("applyStatefulSet", MemoryCluster.error(422, "Invalid", "StatefulSet.apps \"postgres\" is invalid: spec:"
                + " Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals' are forbidden"));
        Assessed immutable = postgres();
        assertThat(reason(immutable)).isEqualTo("other-immutable");
        assertThat(immutable.decision().verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(immutable.decision().detail()).contains("the server's dry run of the re-apply answers: StatefulSet.apps");

        w.cluster.failNext("applyStatefulSet", MemoryCluster.error(422, "Invalid", "spec: Forbidden: updates to statefulset spec for fields"
                + " other than 'replicas'"));
        assertThat(reason(postgres())).as("without the object's prefix").isEqualTo("other-immutable");

        w.cluster.failNext("applyStatefulSet", MemoryCluster.error(422, "Invalid", "StatefulSet.apps \"postgres\" is invalid:"
                + " spec.replicas: Invalid value: -1"));
        assertThat(postgres().failure()).isEqualTo("the server's dry run of the re-apply of StatefulSet shop/postgres failed:"
                + " StatefulSet.apps \"postgres\" is invalid: spec.replicas: Invalid value: -1. Nothing was written");

        w.cluster.failNext("applyStatefulSet", MemoryCluster.error(403, "Forbidden", "patch is forbidden"));
        Assessed forbidden = postgres();
        assertThat(reason(forbidden)).isEqualTo("forbidden");
        assertThat(forbidden.decision().detail()).contains("you cannot patch statefulsets.apps in namespace shop (the server: patch is"
                + " forbidden)");

        w.cluster.failNext("applyStatefulSet", MemoryCluster.error(500, "InternalError", "webhook down"));
        assertThat(postgres().failure()).isEqualTo("the server's dry run of the re-apply of StatefulSet shop/postgres failed: webhook down."
                + " Nothing was written");
        assertThat(w.cluster.realWrites()).isEmpty();
    }

    @Test
    void each_claim_patch_dry_run_refusal_is_read_for_what_it_is() {
        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(403, "Forbidden", "User \"bob\" cannot patch resource"));
        Assessed forbidden = postgres();
        assertThat(reason(forbidden)).isEqualTo("forbidden");
        // the claims' dry runs go together: which one the server answers first with the failure is the network's choice
        assertThat(forbidden.decision().detail()).containsPattern("you cannot patch claim data-postgres-[0-2]:");

        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(403, "Forbidden", "persistentvolumeclaims \"x\" is forbidden: exceeded"
                + " quota: storage"));
        assertThat(postgres().failure()).matches("claim shop/data-postgres-[0-2] cannot grow to 20Gi: persistentvolumeclaims \"x\" is"
                + " forbidden: exceeded quota: storage; raise the ResourceQuota, then run again\\. Nothing was written");

        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(403, "Forbidden", "only dynamically provisioned pvc can be resized"));
        Assessed fixed = postgres();
        assertThat(reason(fixed)).isEqualTo("not-expandable");
        assertThat(fixed.decision().verdict()).isEqualTo(Verdict.REFUSED);

        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(422, "Invalid", "spec: Forbidden: spec is immutable after creation"));
        assertThat(reason(postgres())).isEqualTo("claim-unbound");

        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(422, "Invalid", "something else"));
        assertThat(postgres().failure()).matches("the server's dry run of growing claim shop/data-postgres-[0-2] to 20Gi failed: something"
                + " else\\. Nothing was written");

        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(500, "InternalError", "etcd"));
        assertThat(postgres().failure()).contains("failed: etcd");
        assertThat(w.cluster.realWrites()).isEmpty();
    }

    @Test
    void the_orphan_delete_dry_run_refused_or_failing_stops_the_run() {
        w.cluster.failNext("deleteStatefulSetOrphan", MemoryCluster.error(403, "Forbidden", "delete is forbidden"));
        Assessed forbidden = postgres();
        assertThat(reason(forbidden)).isEqualTo("forbidden");
        assertThat(forbidden.decision().detail()).contains("you cannot delete statefulsets.apps in namespace shop (the server: delete is"
                + " forbidden). Nothing was written");

        w.cluster.failNext("deleteStatefulSetOrphan", MemoryCluster.error(409, "Conflict", "uid mismatch"));
        assertThat(postgres().failure()).isEqualTo("the server's dry run of the orphan delete of StatefulSet shop/postgres failed: uid"
                + " mismatch. Nothing was written; run again to re-read it");
        assertThat(w.cluster.realDeletes()).isEmpty();
    }

    @Test
    void a_claims_only_growth_proves_no_re_apply_nor_delete() {
        Assessed minio = w.assess("minio");
        assertThat(minio.decision().verdict()).isEqualTo(Verdict.GROW_CLAIMS);
        assertThat(w.cluster.writes()).extracting(MemoryCluster.Call::method).containsOnly("patchClaimStorage");
    }

    @Test
    void a_refusal_adds_its_finding_first_and_a_warning_keeps_the_decision() {
        Decision plan = postgres().decision();
        Decision warned = Assessor.warned(plan, "careful");
        assertThat(warned).isInstanceOf(Plan.class);
        assertThat(warned.warnings()).endsWith("careful");
        assertThat(warned.verdict()).isEqualTo(Verdict.GROW);
        Refusal refused = Assessor.refusal(plan, Reason.FORBIDDEN, "no");
        assertThat(refused.findings()).hasSize(1);
        Refusal twice = Assessor.refusal(refused, Reason.SHRINK, "smaller");
        assertThat(twice.findings()).extracting(f -> f.reason()).containsExactly(Reason.SHRINK, Reason.FORBIDDEN);
        Decision warnedRefusal = Assessor.warned(twice, "also");
        assertThat(warnedRefusal).isInstanceOf(Refusal.class);
        assertThat(warnedRefusal.warnings()).endsWith("also");
        assertThat(Assessor.isWork(plan)).isTrue();
        assertThat(Assessor.isWork(refused)).isFalse();
        assertThat(Assessor.isWork(w.assess("minio").decision())).isTrue();
        assertThat(Assessor.isWork(w.assess("etcd").decision())).isFalse();
        ObjectNode absent = MemoryWorld.declared("postgres");
        ((ObjectNode) absent.path("metadata")).put("name", "nowhere");
        assertThat(w.assess(absent).decision().verdict()).isEqualTo(Verdict.ABSENT);
    }
}
