package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A record standing for the StatefulSet its run re-applied: that object's UID is the next orphan delete's precondition
 * and the object (without its managedFields) the backup; a run that grows in place is no copy.
 */
class RecordStandingTest {
    private static Record record() {
        ObjectNode live = Objects.parse("{\"metadata\":{\"name\":\"db\",\"namespace\":\"shop\",\"uid\":\"u1\"}}");
        return new Record("https://memory", "shop", "db", "u1", "alice", "growing", "t", "kubectl", live, null,
                Map.of("data-db-0", "20Gi"), Map.of("data-db-0", "10Gi"));
    }

    @Test
    void the_re_applied_statefulset_is_the_next_precondition_and_the_backup_without_its_managed_fields() {
        ObjectNode standing = Objects.parse("{\"metadata\":{\"name\":\"db\",\"namespace\":\"shop\",\"uid\":\"u2\",\"managedFields\":[{"
                + "\"manager\":\"kubectl\"}]},\"spec\":{\"replicas\":3}}");
        Record r = record().withStanding(standing);
        assertThat(r.uid()).isEqualTo("u2");
        assertThat(r.live().path("metadata").has("managedFields")).isFalse();
        assertThat(r.live().at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(standing.path("metadata").has("managedFields")).as("the object read is left as it was").isTrue();
        assertThat(r.claimTargets()).isEqualTo(Map.of("data-db-0", "20Gi"));
        assertThat(r.claimsBefore()).isEqualTo(Map.of("data-db-0", "10Gi"));
        assertThat(r.phase()).isEqualTo("growing");
    }

    @Test
    void a_run_that_grows_in_place_is_no_copy_and_one_given_a_copys_progress_is() {
        assertThat(record().copies()).isFalse();
        assertThat(record().toJson().has("copy")).isFalse();
        Record copying = record().withCopy(CopyProgress.start("busybox", "", Map.of("data-db-0", "20Gi")));
        assertThat(copying.copies()).isTrue();
        assertThat(copying.toJson().has("copy")).isTrue();
        assertThat(copying.uid()).isEqualTo("u1");
    }
}
