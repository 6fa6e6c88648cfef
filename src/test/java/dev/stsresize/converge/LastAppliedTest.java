package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The last-applied-configuration a re-apply writes, byte for byte as {@code kubectl apply} writes it for the manifest:
 * keys sorted at every depth (inside lists too), Go's HTML escapes, the annotation itself left out, a newline at the end.
 */
class LastAppliedTest {
    @Test
    void keys_are_sorted_at_every_depth_inside_lists_too_and_the_text_ends_with_a_newline() {
        ObjectNode o = Objects.parse("{\"spec\":{\"b\":1,\"a\":[{\"z\":true,\"y\":null}]},\"kind\":\"StatefulSet\",\"metadata\":{\"name\":"
                + "\"db\",\"annotations\":{\"" + LastApplied.ANNOTATION + "\":\"old\",\"x\":\"1\"}}}");
        assertThat(LastApplied.of(o)).isEqualTo("{\"kind\":\"StatefulSet\",\"metadata\":{\"annotations\":{\"x\":\"1\"},\"name\":\"db\"},"
                + "\"spec\":{\"a\":[{\"y\":null,\"z\":true}],\"b\":1}}\n");
        assertThat(o.at("/metadata/annotations").has(LastApplied.ANNOTATION)).as("the manifest's object is left as it was").isTrue();
    }

    @Test
    void the_characters_gos_encoder_escapes_are_escaped_as_it_does() {
        ObjectNode o = Objects.MAPPER.createObjectNode();
        o.putObject("metadata").put("name", "db");
        o.put("note", "a<b>c&d\u2028e\u2029f");
        assertThat(LastApplied.of(o)).isEqualTo("{\"metadata\":{\"annotations\":{},\"name\":\"db\"},"
                + "\"note\":\"a\\u003cb\\u003ec\\u0026d\\u2028e\\u2029f\"}\n");
    }
}
