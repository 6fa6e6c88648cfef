package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A run's record as JSON (journal file, Secret): what it holds reads back, and what a reader fills in when it is missing. */
class RecordJsonTest {
    @Test
    void a_record_reads_back_as_written_with_its_claims_in_order() {
        ObjectNode live = Objects.parse("{\"metadata\":{\"name\":\"db\"}}");
        Map<String, String> targets = new LinkedHashMap<>();
        targets.put("data-db-2", "5Gi");
        targets.put("data-db-0", "5Gi");
        Record r = RecordBuilder.record().fieldManager("helm").live(live).claimTargets(targets).build();
        ObjectNode json = r.toJson();
        assertThat(json.path("apiVersion").asText()).isEqualTo("stsresize/v1");
        assertThat(json.path("kind").asText()).isEqualTo("Journal");
        Record back = Record.fromJson(json);
        assertThat(back).isEqualTo(r);
        assertThat(back.claimTargets().keySet()).containsExactly("data-db-2", "data-db-0");
        assertThat(back.withPhase("verifying").phase()).isEqualTo("verifying");
        assertThat(back.withHolder("bob").holder()).isEqualTo("bob");
        Record re = back.withReapply(live, Map.of("data-db-0", "6Gi"));
        assertThat(re.reapply()).isSameAs(live);
        assertThat(re.claimTargets()).containsExactly(Map.entry("data-db-0", "6Gi"));
        assertThat(re.phase()).isEqualTo("growing");
    }

    @Test
    void what_an_older_or_foreign_record_leaves_out_reads_as_empty_and_its_field_manager_as_kubectl() {
        Record r = Record.fromJson(Objects.parse("{\"namespace\":\"shop\",\"name\":\"db\",\"live\":\"not an object\"}"));
        assertThat(r.server()).isEmpty();
        assertThat(r.startedAt()).isEmpty();
        assertThat(r.fieldManager()).isEqualTo("kubectl");
        assertThat(r.live()).isNull();
        assertThat(r.reapply()).isNull();
        assertThat(r.claimTargets()).isEmpty();
    }

    @Test
    void the_claims_sizes_before_read_back_and_carry_through_every_change_but_only_sizes_of_the_runs_claims() {
        Map<String, String> targets = new LinkedHashMap<>();
        targets.put("data-db-0", "20Gi");
        targets.put("data-db-1", "20Gi");
        Record r = RecordBuilder.record().fieldManager("helm").claimTargets(targets)
                .claimsBefore(Map.of("data-db-0", "10Gi", "data-db-1", "10Gi")).build();
        Record back = Record.fromJson(r.toJson());
        assertThat(back).isEqualTo(r);
        assertThat(back.withPhase("verifying").withHolder("bob").withReapply(null, targets).claimsBefore())
                .containsExactlyInAnyOrderEntriesOf(Map.of("data-db-0", "10Gi", "data-db-1", "10Gi"));
        // written by someone else: a size that is no quantity, or a claim not of the run, is left out (shown as unknown)
        ObjectNode foreign = r.toJson();
        foreign.putObject("claimsBefore").put("data-db-0", "$(rm -rf /)").put("data-db-1", "10Gi").put("data-other-0", "1Gi");
        assertThat(Record.fromJson(foreign).claimsBefore()).containsExactly(Map.entry("data-db-1", "10Gi"));
        assertThat(RecordBuilder.record().server("s").uid("u").holder("h").phase("p").startedAt("t").fieldManager("f")
                .claimTargets(targets).build().toJson().has("claimsBefore"))
                .as("an older record's shape when nothing is known").isFalse();
    }
}
