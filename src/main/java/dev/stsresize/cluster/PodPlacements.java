package dev.stsresize.cluster;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Set;

/**
 * A pod LIST read for where the pods run: each item keeps only {@code metadata} {@code name}, {@code namespace},
 * {@code ownerReferences}, {@code deletionTimestamp}, {@code spec.nodeName} and
 * {@code status.phase}; the list keeps its {@code metadata}. Everything else is skipped while it is read, not
 * built into a tree: 6,000 whole pods (~11 MiB of JSON) made a tree of which usage reads three fields.
 */
final class PodPlacements {
    /** What each item keeps, per top-level field of a pod. */
    static final Map<String, Set<String>> KEPT = Map.of(
            "metadata", Set.of("name", "namespace", "ownerReferences", "deletionTimestamp"),
            "spec", Set.of("nodeName"),
            "status", Set.of("phase"));

    private PodPlacements() {}

    /** The list, items trimmed; an answer that is not a JSON object is null (as an empty body). */
    static ObjectNode read(InputStream in) throws IOException {
        try (JsonParser p = TreeMapper.MAPPER.getFactory().createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            ObjectNode list = TreeMapper.MAPPER.createObjectNode();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("items") && value == JsonToken.START_ARRAY) {
                    ArrayNode items = list.putArray("items");
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        items.add(item(p));
                    }
                } else if (field.equals("items") || field.equals("metadata") || field.equals("kind") || field.equals("apiVersion")) {
                    list.set(field, TreeMapper.MAPPER.readTree(p));
                } else {
                    p.skipChildren();
                }
            }
            return list;
        }
    }

    /** One pod, the parser on its START_OBJECT; returns with the parser on its END_OBJECT. */
    private static ObjectNode item(JsonParser p) throws IOException {
        ObjectNode pod = TreeMapper.MAPPER.createObjectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            Set<String> kept = KEPT.get(field);
            if (kept == null || value != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            ObjectNode part = pod.putObject(field);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (kept.contains(name)) {
                    JsonNode v = TreeMapper.MAPPER.readTree(p);
                    part.set(name, v);
                } else {
                    p.skipChildren();
                }
            }
        }
        return pod;
    }
}
