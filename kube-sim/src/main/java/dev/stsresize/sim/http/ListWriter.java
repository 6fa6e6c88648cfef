package dev.stsresize.sim.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.store.ResourceType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * LIST answers: {@code <Kind>List} with items in key order (without their apiVersion/kind, as the
 * real server serialises typed lists), paged by {@code limit} and an opaque {@code continue} token
 * holding the last key, with {@code remainingItemCount}. Streams stored nodes straight to bytes so a
 * list of thousands of objects copies nothing.
 */
final class ListWriter {
    private ListWriter() {}

    record Page(List<ObjectNode> items, String continueToken, long remaining) {}

    static Page page(List<ObjectNode> matching, long limit, String continueToken, long resourceVersion) {
        int start = 0;
        if (continueToken != null && !continueToken.isEmpty()) {
            String after = decode(continueToken);
            while (start < matching.size() && key(matching.get(start)).compareTo(after) <= 0) {
                start++;
            }
        }
        if (limit <= 0 || start + limit >= matching.size()) {
            return new Page(matching.subList(start, matching.size()), null, 0);
        }
        int end = (int) (start + limit);
        String token = encode(resourceVersion, key(matching.get(end - 1)));
        return new Page(matching.subList(start, end), token, matching.size() - end);
    }

    static byte[] write(ResourceType t, Page page, long resourceVersion) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(4096 + page.items().size() * 2048);
        try (JsonGenerator g = BodyCodec.MAPPER.getFactory().createGenerator(buf)) {
            g.writeStartObject();
            g.writeStringField("kind", t.kind() + "List");
            g.writeStringField("apiVersion", t.apiVersion());
            g.writeObjectFieldStart("metadata");
            g.writeStringField("resourceVersion", Long.toString(resourceVersion));
            if (page.continueToken() != null) {
                g.writeStringField("continue", page.continueToken());
                g.writeNumberField("remainingItemCount", page.remaining());
            }
            g.writeEndObject();
            g.writeArrayFieldStart("items");
            for (ObjectNode item : page.items()) {
                g.writeStartObject();
                for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!e.getKey().equals("apiVersion") && !e.getKey().equals("kind")) {
                        g.writeFieldName(e.getKey());
                        BodyCodec.MAPPER.writeTree(g, e.getValue());
                    }
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return buf.toByteArray();
    }


    private static String key(ObjectNode o) {
        return o.path("metadata").path("namespace").asText("") + "/" + o.path("metadata").path("name").asText();
    }

    private static String encode(long rv, String key) {
        String json = "{\"v\":\"meta.k8s.io/v1\",\"rv\":" + rv + ",\"start\":" + BodyCodec.MAPPER.getNodeFactory().textNode(key) + "}";
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String token) {
        try {
            JsonNode n = BodyCodec.MAPPER.readTree(Base64.getUrlDecoder().decode(token));
            return n.path("start").asText();
        } catch (IOException | IllegalArgumentException e) {
            throw ApiError.of(400, "BadRequest", "continue key is not valid: " + e.getMessage(), null);
        }
    }
}
