package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The re-apply (dry run, then for real) and, when it fails, the backup restored so that the pods
 * have their owner again; never a second StatefulSet over one someone else created meanwhile.
 */
class ReapplyTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final List<ProgressEvent> said = new ArrayList<>();
    private final List<String> checkpoints = new ArrayList<>();
    private final Events events = new Events(cluster, cluster.time, "alice", e -> { });
    private final Reapply reapply = new Reapply(cluster, events, said::add, checkpoints::add);

    private static Record record() {
        ObjectNode live = MemoryCluster.json("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'db','namespace':'shop',"
                + "'uid':'old-uid','resourceVersion':'7','finalizers':['x']},'spec':{'replicas':2,'template':'old'},'status':{'replicas':2}}");
        ObjectNode grown = MemoryCluster.json("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'db','namespace':'shop'},"
                + "'spec':{'replicas':2,'template':'grown'}}");
        return RecordBuilder.record().uid("old-uid").phase(Phase.REAPPLY.recorded()).fieldManager("helm").live(live).reapply(grown)
                .claimTargets(Map.of("data-db-0", "20Gi")).build();
    }

    @Test
    void the_recorded_object_is_applied_dry_run_first_by_its_field_manager() {
        Reapply.Result r = reapply.run(record(), () -> { });

        assertThat(r.restored()).isFalse();
        assertThat(r.message()).isEmpty();
        assertThat(r.statefulSet().at("/spec/template").asText()).isEqualTo("grown");
        assertThat(cluster.get("StatefulSet", "shop", "db").orElseThrow().at("/spec/template").asText()).isEqualTo("grown");
        assertThat(cluster.writes("applyStatefulSet")).extracting(MemoryCluster.Call::dryRun).containsExactly(true, false);
        assertThat(cluster.writes("applyStatefulSet")).allSatisfy(c -> assertThat(c.detail()).isEqualTo("helm force"));
        assertThat(checkpoints).containsExactly("re-apply statefulset db");
        String uid = r.statefulSet().at("/metadata/uid").asText();
        assertThat(said).singleElement().satisfies(p -> {
            assertThat(p.step()).isEqualTo(Phase.REAPPLY);
            assertThat(p.message()).isEqualTo("StatefulSet db re-applied (new UID " + uid + ", field manager helm)");
            assertThat(p.write()).isEqualTo(new Write.Apply("shop", "db", "helm"));
        });
        events.flush(); // as a run does at its end: the Events go off the critical path
        assertThat(cluster.eventsCreated).singleElement().satisfies(e -> {
            assertThat(e.path("reason").asText()).isEqualTo("Reapplied");
            assertThat(e.path("note").asText()).contains("(previous UID old-uid)");
        });
    }

    @Test
    void a_refused_dry_run_restores_the_backup_without_its_server_fields_and_says_so() {
        cluster.failNext("applyStatefulSet", MemoryCluster.error(422, "Invalid", "spec.template: Invalid value"));
        Reapply.Result r = reapply.run(record(), () -> { });

        assertThat(r.restored()).isTrue();
        assertThat(cluster.writes("applyStatefulSet")).as("nothing applied for real").isEmpty();
        ObjectNode restored = cluster.get("StatefulSet", "shop", "db").orElseThrow();
        assertThat(restored.at("/spec/template").asText()).isEqualTo("old");
        assertThat(restored.has("status")).isFalse();
        assertThat(restored.at("/metadata/finalizers").isMissingNode()).isTrue();
        assertThat(r.statefulSet().at("/metadata/uid").asText()).isEqualTo(restored.at("/metadata/uid").asText());
        assertThat(r.message()).isEqualTo("the re-apply of StatefulSet shop/db failed: spec.template: Invalid value; the backup was restored,"
                + " so the pods have their owner again, with the OLD claim templates. The claims keep their grown size; fix the manifest,"
                + " then run again");
        assertThat(checkpoints).containsExactly("restore statefulset db");
        assertThat(said).hasSize(2);
        assertThat(said.get(0).warning()).isTrue();
        assertThat(said.get(0).message()).isEqualTo("the re-apply failed: spec.template: Invalid value; restoring the backup");
        assertThat(said.get(1).write()).isEqualTo(new Write.Create("shop", "db"));
        assertThat(said.get(1).message()).isEqualTo("backup restored: StatefulSet db re-created as it was (UID "
                + restored.at("/metadata/uid").asText() + "), its pods are adopted by it");
        events.flush(); // as a run does at its end: the Events go off the critical path
        assertThat(cluster.eventsCreated).singleElement().satisfies(e -> assertThat(e.path("reason").asText()).isEqualTo("BackupRestored"));
    }

    @Test
    void a_statefulset_created_by_someone_else_meanwhile_is_not_replaced_and_is_named() {
        cluster.failNext("applyStatefulSet", MemoryCluster.error(500, "InternalError", "etcd timeout"));
        cluster.put("{'kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'theirs'}}");
        Reapply.Result r = reapply.run(record(), () -> { });

        assertThat(r.restored()).isFalse();
        assertThat(r.statefulSet().at("/metadata/uid").asText()).isEqualTo("theirs");
        assertThat(r.message()).isEqualTo("the re-apply of StatefulSet shop/db failed: etcd timeout; a StatefulSet of that name already"
                + " exists again (UID theirs), created by someone else: check it owns the pods");
        assertThat(checkpoints).isEmpty();
    }

    @Test
    void a_conflict_then_nothing_there_says_so_without_a_uid() {
        cluster.failNext("applyStatefulSet", MemoryCluster.error(500, "InternalError", "etcd timeout"));
        cluster.failNext("createStatefulSet", MemoryCluster.error(409, "AlreadyExists", "exists"));
        Reapply.Result r = reapply.run(record(), () -> { });
        assertThat(r.statefulSet()).isNull();
        assertThat(r.message()).contains("(UID ?)");
    }

    @Test
    void when_the_restore_fails_too_the_pods_have_no_owner_and_the_message_says_how_to_go_on() {
        cluster.failNext("applyStatefulSet", MemoryCluster.error(422, "Invalid", "bad"));
        cluster.failNext("createStatefulSet", MemoryCluster.error(403, "Forbidden", "create statefulsets is forbidden"));
        Reapply.Result r = reapply.run(record(), () -> { });

        assertThat(r.statefulSet()).isNull();
        assertThat(r.restored()).isFalse();
        assertThat(r.message()).isEqualTo("the re-apply of StatefulSet shop/db failed (bad) AND restoring the backup failed (create"
                + " statefulsets is forbidden): the pods have NO owner now. Run `kubectl stsresize resume` to try again, or create the"
                + " backup kept in the journal");
        assertThat(cluster.get("StatefulSet", "shop", "db")).isEmpty();
    }

    @Test
    void a_failure_of_the_real_apply_after_its_dry_run_restores_too() {
        cluster.failNext("applyStatefulSet", null);
        cluster.failNext("applyStatefulSet", MemoryCluster.error(409, "Conflict", "Apply failed with 1 conflict"));
        Reapply.Result r = reapply.run(record(), () -> { });
        assertThat(r.restored()).isTrue();
        assertThat(cluster.get("StatefulSet", "shop", "db").orElseThrow().at("/spec/template").asText()).isEqualTo("old");
        assertThat(r.message()).startsWith("the re-apply of StatefulSet shop/db failed: Apply failed with 1 conflict; the backup was restored");
    }
}
