package dev.stsresize.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

/** Keys sorted at every level, so that the same content gives the same bytes whatever order the manifest wrote. */
final class Canonical {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Canonical() {}

    static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> keys = new ArrayList<>();
            node.fieldNames().forEachRemaining(keys::add);
            Collections.sort(keys);
            ObjectNode out = MAPPER.createObjectNode();
            for (String k : keys) {
                out.set(k, sorted(node.get(k)));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = MAPPER.createArrayNode();
            node.forEach(n -> out.add(sorted(n)));
            return out;
        }
        return node;
    }

    static String json(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(sorted(node));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code hexDigits} hex digits of the sha256 of the canonical JSON. */
    static String hash(JsonNode node, int hexDigits) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(json(node).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d).substring(0, hexDigits);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
