package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The one reader of fields by path and the one namespace/name key. */
class MetadataTest {
    private static final JsonNode STS = Trees.parse("""
            {"metadata": {"name": "web", "namespace": "", "labels": {"a": "b"}, "uid": null}}""");

    @Test
    void textIsNullForWhatIsNotAScalar() {
        assertThat(Metadata.text(STS, "metadata", "name")).isEqualTo("web");
        assertThat(Metadata.text(STS, "metadata", "uid")).isNull();
        assertThat(Metadata.text(STS, "metadata", "labels")).isNull();
        assertThat(Metadata.text(STS, "metadata", "generation")).isNull();
    }

    @Test
    void anEmptyNamespaceIsTheDefaultOne() {
        assertThat(Metadata.key(STS, "team")).isEqualTo("team/web");
        assertThat(Metadata.key(Trees.parse("{\"metadata\": {\"namespace\": \"db\"}}"), "team")).isEqualTo("db/");
        assertThat(Metadata.key("db", "pg")).isEqualTo("db/pg");
    }
}
