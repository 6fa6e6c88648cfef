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
        Record r = new Record("https://k", "shop", "db", "u1", "alice", "growing", "t0", "helm", live, null, targets);
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
}
