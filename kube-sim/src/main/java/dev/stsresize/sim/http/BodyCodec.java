package dev.stsresize.sim.http;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.sim.ApiError;
import java.io.IOException;
import org.yaml.snakeyaml.LoaderOptions;

/** The server's JSON and YAML codecs; request bodies are bounded like the real server's (3 MiB objects). */
public final class BodyCodec {
    public static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectMapper YAML;

    static {
        LoaderOptions loader = new LoaderOptions();
        loader.setMaxAliasesForCollections(50);
        loader.setNestingDepthLimit(100);
        loader.setCodePointLimit(4 * 1024 * 1024);
        YAMLFactory f = YAMLFactory.builder().loaderOptions(loader)
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(100).build()).build();
        YAML = new ObjectMapper(f);
    }

    private BodyCodec() {}

    public static JsonNode parse(byte[] body) {
        try {
            JsonNode n = MAPPER.readTree(body);
            return n == null ? MAPPER.createObjectNode() : n;
        } catch (IOException e) {
            throw ApiError.of(400, "BadRequest", "the body of the request was in an unknown format - accepted media types include: "
                    + "application/json, application/yaml, application/vnd.kubernetes.protobuf", null);
        }
    }

    /** A YAML or JSON body (apply patches may be either). */
    public static JsonNode parseYaml(byte[] body) {
        try {
            JsonNode n = YAML.readTree(body);
            return n == null ? MAPPER.createObjectNode() : n;
        } catch (IOException e) {
            throw ApiError.of(400, "BadRequest", "error decoding YAML: " + firstLine(e.getMessage()), null);
        }
    }

    public static byte[] bytes(JsonNode n) {
        try {
            return MAPPER.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
