package dev.stsresize.converge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code kubectl.kubernetes.io/last-applied-configuration} as {@code kubectl apply} (client-side) writes it for a
 * manifest's object: the object with that annotation removed (an empty {@code annotations} map kept, as kubectl's
 * unstructured {@code SetAnnotations} keeps it), encoded as Go's {@code encoding/json} Encoder does (keys sorted,
 * no spaces, {@code <}, {@code >}, {@code &}, U+2028 and U+2029 escaped, a newline at the end): kubectl's
 * staging/src/k8s.io/kubectl/pkg/util/apply.go GetModifiedConfiguration, and apimachinery's unstructured JSON
 * scheme. A StatefulSet re-applied with the annotation of its old manifest would make {@code kubectl diff} and
 * {@code kubectl apply -f} of the new manifest see a change the cluster already holds.
 */
final class LastApplied {
    static final String ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";
    private static final ObjectMapper JSON = new ObjectMapper();

    private LastApplied() {}

    static String of(ObjectNode declared) {
        ObjectNode copy = declared.deepCopy();
        ObjectNode meta = Objects.child(copy, "metadata");
        ObjectNode annotations = Objects.child(meta, "annotations");
        annotations.remove(ANNOTATION);
        try {
            return goEscaped(JSON.writeValueAsString(sorted(copy))) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree read from JSON or YAML always writes back", e);
        }
    }

    /** Go's json.Marshal of a map writes its keys in order. */
    private static JsonNode sorted(JsonNode n) {
        if (n.isObject()) {
            Map<String, JsonNode> fields = new TreeMap<>();
            Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                fields.put(e.getKey(), sorted(e.getValue()));
            }
            ObjectNode out = JSON.createObjectNode();
            fields.forEach(out::set);
            return out;
        }
        if (n.isArray()) {
            var out = JSON.createArrayNode();
            n.forEach(x -> out.add(sorted(x)));
            return out;
        }
        return n;
    }

    /** The characters Go's Encoder escapes (SetEscapeHTML true by default) that Jackson writes as they are; only in strings. */
    private static String goEscaped(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }
}
