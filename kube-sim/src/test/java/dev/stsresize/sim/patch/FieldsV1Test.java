package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FieldsV1Test {
    /** Shaped like an entry a real server wrote after a client-side apply. */
    private static final String REAL = "{'f:metadata':{'f:annotations':{'.':{},'f:kubectl.kubernetes.io/last-applied-configuration':{}},"
            + "'f:finalizers':{'.':{},'v:\"orphan\"':{}}},"
            + "'f:spec':{'f:replicas':{},'f:template':{'f:spec':{'f:containers':{'k:{\"name\":\"web\"}':{'.':{},'f:image':{},"
            + "'f:ports':{'.':{},'k:{\"containerPort\":80,\"protocol\":\"TCP\"}':{'.':{},'f:containerPort':{}}}}}}},"
            + "'f:volumeClaimTemplates':{}}}";

    @Test
    void decodingAndEncodingGivesBackTheSameDocument() {
        JsonNode real = J.node(REAL);
        assertThat(FieldsV1.encode(FieldsV1.decode(real))).isEqualTo(real);
    }

    @Test
    void aDotMakesThePrefixItselfOwned() {
        FieldSet set = FieldsV1.decode(J.node(REAL));
        List<PathElement> annotations = List.of(new PathElement.Field("metadata"), new PathElement.Field("annotations"));
        assertThat(set.has(annotations)).isTrue();
        assertThat(set.has(List.of(new PathElement.Field("spec"))))
                .as("a prefix without '.' is not owned itself").isFalse();
        assertThat(set.toString()).contains(".spec.template.spec.containers[name=\"web\"].image",
                ".spec.template.spec.containers[name=\"web\"].ports[containerPort=80,protocol=\"TCP\"]",
                ".metadata.finalizers[=\"orphan\"]", ".spec.volumeClaimTemplates");
    }

    @Test
    void elementsSortFieldsBeforeKeysBeforeValuesBeforeIndices() {
        FieldSet set = new FieldSet();
        set.insert(List.of(new PathElement.Index(0)));
        set.insert(List.of(new PathElement.Value(J.node("\"v\""))));
        set.insert(List.of(new PathElement.Key(new java.util.TreeMap<>(java.util.Map.of("name", J.node("\"k\""))))));
        set.insert(List.of(new PathElement.Field("z")));
        assertThat(FieldsV1.encode(set).fieldNames()).toIterable().containsExactly("f:z", "k:{\"name\":\"k\"}", "v:\"v\"", "i:0");
    }

    @Test
    void setOperationsWorkPathByPath() {
        FieldSet a = FieldsV1.decode(J.node("{'f:a':{},'f:b':{'f:c':{}}}"));
        FieldSet b = FieldsV1.decode(J.node("{'f:b':{'f:c':{}},'f:d':{}}"));
        assertThat(FieldsV1.encode(a.union(b))).isEqualTo(J.node("{'f:a':{},'f:b':{'f:c':{}},'f:d':{}}"));
        assertThat(FieldsV1.encode(a.difference(b))).isEqualTo(J.node("{'f:a':{}}"));
        assertThat(FieldsV1.encode(a.intersection(b))).isEqualTo(J.node("{'f:b':{'f:c':{}}}"));
        assertThat(a.hasAtOrBelow(List.of(new PathElement.Field("b")))).isTrue();
        assertThat(a.hasAtOrBelow(List.of(new PathElement.Field("d")))).isFalse();
        assertThat(new FieldSet().isEmpty()).isTrue();
        assertThat(a.isEmpty()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "q:1", "k:{bad", "i:x", "f"})
    void anUnreadableElementIsRejected(String key) {
        assertThatThrownBy(() -> FieldsV1.element(key)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(key);
    }
}
