package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a copy stands, as the record keeps it: the order resume goes in (highest ordinal first, as the StatefulSet
 * controller scales down), what a claim carries through its copy, and a record read back as untrusted text.
 */
class CopyProgressTest {
    /** Two templates over ordinals 0–2, in the order a decision lists them. */
    static Map<String, String> targets() {
        Map<String, String> t = new LinkedHashMap<>();
        for (String claim : List.of("data-web-0", "data-web-1", "data-web-2", "logs-web-0", "logs-web-1", "logs-web-2")) {
            t.put(claim, "2Gi");
        }
        return t;
    }

    @Test
    void a_new_copy_has_read_nothing_and_goes_from_the_highest_ordinal_down() {
        CopyProgress p = CopyProgress.start("busybox:1.36.1", "local-path", targets());
        assertThat(p.claims().keySet()).containsExactlyElementsOf(targets().keySet());
        assertThat(p.claims().get("logs-web-2").ordinal()).isEqualTo(2);
        assertThat(p.claims().values()).allSatisfy(c -> assertThat(List.of(c.uid(), c.oldVolume(), c.oldPolicy(), c.newVolume(),
                c.newPolicy())).containsOnly(""));
        assertThat(p.ordinalsLeft()).containsExactly(2, 1, 0);
        assertThat(p.current()).isEqualTo(2);
        assertThat(p.started()).isFalse();
        assertThat(p.claimsOf(1)).extracting(CopyProgress.CopiedClaim::claim).containsExactly("data-web-1", "logs-web-1");
    }

    @Test
    void each_ordinal_done_moves_the_copy_to_the_next_and_every_one_done_ends_it() {
        CopyProgress p = CopyProgress.start("img", "cls", targets()).ordinalDone(2);
        assertThat(p.started()).isTrue();
        assertThat(p.current()).isEqualTo(1);
        p = p.ordinalDone(1).ordinalDone(1);
        assertThat(p.done()).as("kept once, in order").containsExactly(1, 2);
        assertThat(p.ordinalsLeft()).containsExactly(0);
        p = p.ordinalDone(0);
        assertThat(p.ordinalsLeft()).isEmpty();
        assertThat(p.current()).isEqualTo(-1);
    }

    @Test
    void a_claim_carries_its_old_and_new_volume_and_a_new_volume_given_up_is_listed_not_forgotten() {
        CopyProgress p = CopyProgress.start("img", "cls", targets());
        CopyProgress.CopiedClaim c = p.claims().get("data-web-2").withOld("uid-2", "pv-old", "Delete").withNew("pv-new", "Delete");
        p = p.with(c);
        assertThat(p.claims().get("data-web-2")).isEqualTo(new CopyProgress.CopiedClaim("data-web-2", 2, "uid-2", "pv-old", "Delete",
                "pv-new", "Delete", List.of()));
        CopyProgress.CopiedClaim again = c.abandonNew();
        assertThat(again.newVolume()).isEmpty();
        assertThat(again.newPolicy()).isEmpty();
        assertThat(again.abandoned()).containsExactly("pv-new");
        assertThat(List.of(again.uid(), again.oldVolume(), again.oldPolicy())).containsExactly("uid-2", "pv-old", "Delete");
        assertThat(again.withNew("pv-newer", "Retain").abandonNew().abandoned()).containsExactly("pv-new", "pv-newer");
        assertThat(p.claims().get("data-web-1").oldVolume()).as("the other claims untouched").isEmpty();
    }

    @Test
    void the_record_reads_back_what_it_wrote() {
        CopyProgress p = CopyProgress.start("busybox:1.36.1", "fast", targets()).ordinalDone(2);
        p = p.with(p.claims().get("logs-web-1").withOld("u", "pv-a", "Retain").withNew("pv-b", "Delete").abandonNew().withNew("pv-c", "Delete"));
        assertThat(CopyProgress.fromJson(p.toJson(), targets())).isEqualTo(p);
    }

    @Test
    void a_record_read_back_is_untrusted_text_for_exactly_the_claims_the_run_targets() {
        ObjectNode o = CopyProgress.start("img", "cls", targets()).toJson();
        o.withArray("done").add("2").add(1);
        ((ObjectNode) o.get("claims")).putObject("data-other-0").put("newVolume", "pv-someone-elses");
        ((ObjectNode) o.at("/claims/data-web-0")).put("newVolume", 42);
        CopyProgress p = CopyProgress.fromJson(o, targets());
        assertThat(p.done()).as("only whole numbers count as ordinals done").containsExactly(1);
        assertThat(p.claims()).as("a claim the run does not target is left out").doesNotContainKey("data-other-0")
                .containsOnlyKeys(targets().keySet());
        assertThat(p.claims().get("data-web-0").newVolume()).isEqualTo("42");
        assertThat(CopyProgress.fromJson(Objects.MAPPER.createArrayNode(), targets())).isNull();
        assertThat(CopyProgress.fromJson(null, targets())).isNull();
        assertThat(CopyProgress.fromJson(Objects.MAPPER.createObjectNode(), targets()).claims().get("data-web-1").oldVolume()).isEmpty();
    }

    @Test
    void a_claims_ordinal_is_the_number_after_its_last_dash() {
        assertThat(CopyProgress.ordinalOf("data-my-web-12")).isEqualTo(12);
        assertThatThrownBy(() -> CopyProgress.ordinalOf("data")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("claim data does not end in an ordinal");
        assertThatThrownBy(() -> CopyProgress.ordinalOf("data-web-x")).isInstanceOf(IllegalArgumentException.class);
    }
}
