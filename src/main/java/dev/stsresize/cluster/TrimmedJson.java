package dev.stsresize.cluster;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * A JSON answer read into a tree of only the fields a shape names: everything else is skipped by the parser,
 * never built. A shape maps a field name to {@link #WHOLE} (kept as it is) or to the shape of its object (or of
 * each object of its array).
 */
final class TrimmedJson {
    /** The field is kept whole. */
    static final Map<String, Object> WHOLE = Map.of();

    private TrimmedJson() {}

    /** The answer trimmed to {@code shape}; one that is not a JSON object is null (as an empty body). */
    static ObjectNode read(InputStream in, Map<String, Object> shape) throws IOException {
        try (JsonParser p = TreeMapper.MAPPER.getFactory().createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            return (ObjectNode) value(p, shape);
        }
    }

    /** The value the parser is on, trimmed to {@code shape}; the parser left on its last token. */
    @SuppressWarnings("unchecked")
    private static JsonNode value(JsonParser p, Map<String, Object> shape) throws IOException {
        JsonToken t = p.currentToken();
        if (shape == WHOLE || t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
            return TreeMapper.MAPPER.readTree(p);
        }
        if (t == JsonToken.START_ARRAY) {
            ArrayNode a = TreeMapper.MAPPER.createArrayNode();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                a.add(value(p, shape));
            }
            return a;
        }
        ObjectNode o = TreeMapper.MAPPER.createObjectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            Object inner = shape.get(name);
            if (inner == null) {
                p.skipChildren();
            } else {
                o.set(name, value(p, (Map<String, Object>) inner));
            }
        }
        return o;
    }
}
