package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManagedFieldsCodecTest {
    private static ManagedEntry entry(String manager, String operation, String subresource, String time, String apiVersion) {
        return new ManagedEntry(new ManagedEntry.Id(manager, operation, subresource), apiVersion, time,
                FieldsV1.decode(J.node("{'f:spec':{'f:x':{}}}")));
    }

    @Test
    void entriesAreWrittenApplyFirstThenByTimeManagerApiVersionAndSubresource() {
        ObjectNode object = J.obj("{}");
        ManagedFieldsCodec.write(object, List.of(
                entry("b", "Update", "", "2026-01-01T00:00:01Z", "v1"),
                entry("z", "Apply", "", "2026-01-01T00:00:02Z", "v1"),
                entry("a", "Update", "status", "2026-01-01T00:00:01Z", "v1"),
                entry("a", "Update", "", "2026-01-01T00:00:01Z", "v1"),
                entry("a", "Update", "", "2026-01-01T00:00:01Z", "apps/v1"),
                entry("y", "Apply", "", "2026-01-01T00:00:01Z", "v1"),
                entry("untimed", "Update", "", null, "v1")));
        List<String> order = new ArrayList<>();
        object.at("/metadata/managedFields").forEach(e -> order.add(e.get("manager").asText() + "/" + e.get("apiVersion").asText()
                + "/" + e.path("subresource").asText("-")));
        assertThat(order).containsExactly("y/v1/-", "z/v1/-", "untimed/v1/-", "a/apps/v1/-", "a/v1/-", "a/v1/status", "b/v1/-");
        JsonNode untimed = object.at("/metadata/managedFields/2");
        assertThat(untimed.has("time")).isFalse();
        assertThat(object.at("/metadata/managedFields/5/subresource").asText()).isEqualTo("status");
    }

    @Test
    void emptyEntriesAreDroppedAndNoneLeftMeansNoField() {
        ObjectNode object = J.obj("{metadata:{name:'x',managedFields:[{manager:'old'}]}}");
        ManagedFieldsCodec.write(object, List.of(new ManagedEntry(new ManagedEntry.Id("m", "Update", ""), "v1", "t", new FieldSet())));
        assertThat(object).isEqualTo(J.obj("{metadata:{name:'x'}}"));
    }

    @Test
    void readingGivesBackWhatWasWritten() {
        ObjectNode object = J.obj("{metadata:{}}");
        List<ManagedEntry> entries = List.of(entry("kubectl", "Apply", "", "2026-01-01T00:00:01Z", "apps/v1"),
                entry("ctrl", "Update", "status", "2026-01-01T00:00:02Z", "apps/v1"));
        ManagedFieldsCodec.write(object, entries);
        assertThat(ManagedFieldsCodec.read(object)).isEqualTo(entries);
        assertThat(ManagedFieldsCodec.read(J.obj("{metadata:{}}"))).isEmpty();
        assertThat(ManagedFieldsCodec.read(null)).isEmpty();
        assertThat(ManagedFieldsCodec.read(J.obj("{metadata:{managedFields:[{manager:'m',operation:'Update'}]}}")).get(0).fields().isEmpty()).isTrue();
    }

    @Test
    void conflictMessagesNameUpdatersWithTheirApiVersionAndSubresource() {
        ManagedEntry.Id scale = new ManagedEntry.Id("kube-controller-manager", "Update", "scale");
        assertThat(scale.printed("apps/v1")).isEqualTo("\"kube-controller-manager\" with subresource \"scale\" using apps/v1");
        assertThat(scale.identifier("apps/v1"))
                .isEqualTo("{\"manager\":\"kube-controller-manager\",\"operation\":\"Update\",\"apiVersion\":\"apps/v1\",\"subresource\":\"scale\"}");
        ManagedEntry.Id apply = new ManagedEntry.Id("kubectl", "Apply", "");
        assertThat(apply.printed("apps/v1")).isEqualTo("\"kubectl\"");
        assertThat(apply.identifier("apps/v1")).isEqualTo("{\"manager\":\"kubectl\",\"operation\":\"Apply\"}");
    }
}
