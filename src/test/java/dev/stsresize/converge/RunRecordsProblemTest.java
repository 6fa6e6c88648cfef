package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Whether a stored record may be acted on, decided from the record and the live StatefulSet alone: the
 * place it names, the object it holds, the UID, and changes by someone else since it stopped.
 */
class RunRecordsProblemTest {
    private static ObjectNode sts(String ns, String name, String uid, int replicas) {
        return Objects.parse("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"uid\":\"" + uid
                + "\",\"resourceVersion\":\"7\"},\"spec\":{\"replicas\":" + replicas + "}}");
    }

    private static PendingRun run(Record r, boolean local) {
        return new PendingRun("shop", "db", r, local, "somewhere", "");
    }

    private static Record record(String phase, ObjectNode live, ObjectNode reapply) {
        return RecordBuilder.record().server("").holder("h").phase(phase).startedAt("").live(live).reapply(reapply).build();
    }

    @Test
    void a_record_matching_the_live_statefulset_is_trusted_whatever_the_server_changed() {
        ObjectNode recorded = sts("shop", "db", "u1", 3);
        ObjectNode now = sts("shop", "db", "u1", 3);
        ((ObjectNode) now.get("metadata")).put("resourceVersion", "99").put("generation", 4).putArray("finalizers").add("x");
        now.putObject("status").put("replicas", 2);
        ((ObjectNode) now.get("spec")).putArray("volumeClaimTemplates").addObject().put("grown", true);
        assertThat(RunRecords.problem(run(record("growing", recorded, null), false), Optional.of(now))).isEmpty();
        assertThat(RunRecords.problem(run(record("growing", recorded, null), false), Optional.empty()))
                .as("no StatefulSet standing: nothing to compare").isEmpty();
    }

    @Test
    void a_record_naming_another_place_than_where_it_was_found_is_refused() {
        Record elsewhere = RecordBuilder.record().server("").name("kafka").holder("h").startedAt("")
                .live(sts("shop", "db", "u1", 3)).build();
        assertThat(RunRecords.problem(run(elsewhere, true), Optional.empty()))
                .isEqualTo("it was found as the record of shop/db but names StatefulSet shop/kafka");
        Record liveElsewhere = record("growing", sts("prod", "db", "u1", 3), null);
        assertThat(RunRecords.problem(run(liveElsewhere, true), Optional.empty()))
                .isEqualTo("it was found as the record of shop/db but names StatefulSet prod/db");
        Record reapplyElsewhere = record("growing", sts("shop", "db", "u1", 3), sts("shop", "other", "u1", 3));
        assertThat(RunRecords.problem(run(reapplyElsewhere, true), Optional.empty()))
                .isEqualTo("it was found as the record of shop/db but names StatefulSet shop/other");
    }

    @Test
    void a_record_without_its_live_object_is_refused() {
        assertThat(RunRecords.problem(run(record("growing", null, null), true), Optional.empty())).isEqualTo("it holds no live object");
    }

    @Test
    void another_uid_is_refused_unless_this_machine_stopped_after_its_own_reapply() {
        ObjectNode recorded = sts("shop", "db", "u1", 3);
        ObjectNode recreated = sts("shop", "db", "u2", 3);
        String refusal = "it recorded StatefulSet UID u1, but the live StatefulSet shop/db has UID u2";
        for (String phase : new String[] {"locked", "growing", "deleting"}) {
            assertThat(RunRecords.problem(run(record(phase, recorded, null), true), Optional.of(recreated))).as(phase).isEqualTo(refusal);
        }
        for (String phase : new String[] {"reapplying", "verifying"}) {
            assertThat(RunRecords.problem(run(record(phase, recorded, null), true), Optional.of(recreated))).as(phase).isEmpty();
            assertThat(RunRecords.problem(run(record(phase, recorded, null), false), Optional.of(recreated)))
                    .as("a record in the cluster proves no re-apply of ours: " + phase).isEqualTo(refusal);
        }
    }

    @Test
    void a_change_by_someone_else_since_the_run_stopped_is_named_and_refused() {
        ObjectNode recorded = sts("shop", "db", "u1", 3);
        ObjectNode now = sts("shop", "db", "u1", 5);
        ((ObjectNode) now.get("metadata")).putObject("labels").put("team", "x");
        assertThat(RunRecords.problem(run(record("growing", recorded, null), false), Optional.of(now))).isEqualTo(
                "StatefulSet shop/db changed since the run stopped (claim templates and server fields aside): "
                        + "/metadata/labels/team: (absent) → \"x\"; /spec/replicas: 3 → 5. Resuming would undo that change");
    }

    @Test
    void staleness_ignores_exactly_the_server_kept_fields_and_the_claim_templates() {
        ObjectNode a = sts("shop", "db", "u1", 3);
        ObjectNode b = a.deepCopy();
        ((ObjectNode) b.get("metadata")).put("resourceVersion", "8").put("generation", 2).put("deletionTimestamp", "t")
                .put("deletionGracePeriodSeconds", 0).put("uid", "u9").putArray("managedFields").addObject().put("manager", "m");
        assertThat(RunRecords.staleness(a, b)).containsExactly("/metadata/uid: \"u1\" → \"u9\"");
        ((ObjectNode) b.get("metadata")).put("uid", "u1").put("selfLink", "/x");
        assertThat(RunRecords.staleness(a, b)).containsExactly("/metadata/selfLink: (absent) → \"/x\"");
    }
}
