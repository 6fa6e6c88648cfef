package dev.stsresize.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.UncheckedIOException;
import java.util.List;

/** The rendered objects as one YAML stream, in apply order, with the NetworkPolicy's default CIDR explained. */
public final class RenderedStream {
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build());

    private RenderedStream() {}

    public static String yaml(List<ObjectNode> objects) {
        StringBuilder b = new StringBuilder();
        for (ObjectNode o : objects) {
            String doc = write(o);
            if ("NetworkPolicy".equals(o.path("kind").asText())) {
                doc = explainDefaultCidr(doc);
            }
            b.append(doc);
        }
        return b.toString();
    }

    private static String explainDefaultCidr(String doc) {
        StringBuilder out = new StringBuilder();
        for (String line : doc.split("\n", -1)) {
            if (line.trim().equals("cidr: " + JobRenderer.DEFAULT_CIDR)) {
                String indent = line.substring(0, line.indexOf("cidr:"));
                out.append(indent).append(JobRenderer.DEFAULT_CIDR_COMMENT).append('\n');
            }
            out.append(line).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }

    private static String write(ObjectNode o) {
        try {
            return YAML.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
