package dev.stsresize.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class DocumentWriterTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void writesKubectlsJsonLayoutStraightToTheOutputAndLeavesItOpen() {
        ObjectNode doc = MAPPER.createObjectNode().put("kind", "Plan");
        doc.putArray("items").addObject().put("name", "pg-0").putArray("warnings");
        doc.putObject("empty");
        boolean[] closed = {false};
        StringWriter out = new StringWriter() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        DocumentWriter.json(doc, out);
        assertThat(closed[0]).as("stdout is the command's, not the writer's to close").isFalse();
        assertThat(out.toString()).isEqualTo("""
                {
                  "kind": "Plan",
                  "items": [
                    {
                      "name": "pg-0",
                      "warnings": []
                    }
                  ],
                  "empty": {}
                }
                """);
        assertThat(DocumentWriter.json(doc)).isEqualTo(out.toString());
    }
}
