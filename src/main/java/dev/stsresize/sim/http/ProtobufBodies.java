package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The few protobuf request bodies kubectl sends through its typed clients
 * ({@code kubectl auth can-i}: SelfSubjectAccessReview; {@code kubectl drain}: Eviction), decoded to
 * the JSON the rest of the server reads. The wire format is k8s.io/apimachinery's: the magic
 * "k8s\0", then a runtime.Unknown (typeMeta 1, raw 2) whose raw bytes are the object's message, with
 * field numbers from k8s.io/api generated.proto. Anything else is 415, as a server without that
 * serializer would answer.
 */
final class ProtobufBodies {
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    private ProtobufBodies() {}

    static boolean isProtobuf(String contentType) {
        return contentType != null && contentType.startsWith("application/vnd.kubernetes.protobuf");
    }

    static ObjectNode decode(byte[] body) {
        if (body.length < 4 || body[0] != MAGIC[0] || body[1] != MAGIC[1] || body[2] != MAGIC[2] || body[3] != MAGIC[3]) {
            throw unsupported();
        }
        Map<Integer, List<Object>> unknown = fields(body, 4, body.length);
        Map<Integer, List<Object>> typeMeta = message(first(unknown, 1));
        String apiVersion = text(typeMeta, 1);
        String kind = text(typeMeta, 2);
        Map<Integer, List<Object>> obj = message(first(unknown, 2));
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", kind);
        switch (kind) {
            case "SelfSubjectAccessReview" -> {
                Map<Integer, List<Object>> spec = message(first(obj, 2));
                ObjectNode s = out.putObject("spec");
                if (spec.containsKey(1)) {
                    Map<Integer, List<Object>> ra = message(first(spec, 1));
                    ObjectNode r = s.putObject("resourceAttributes");
                    String[] names = {"namespace", "verb", "group", "version", "resource", "subresource", "name"};
                    for (int i = 0; i < names.length; i++) {
                        r.put(names[i], text(ra, i + 1));
                    }
                }
                if (spec.containsKey(2)) {
                    Map<Integer, List<Object>> nr = message(first(spec, 2));
                    s.putObject("nonResourceAttributes").put("path", text(nr, 1)).put("verb", text(nr, 2));
                }
            }
            case "Eviction" -> {
                Map<Integer, List<Object>> meta = message(first(obj, 1));
                out.putObject("metadata").put("name", text(meta, 1)).put("namespace", text(meta, 3));
                if (obj.containsKey(2)) {
                    Map<Integer, List<Object>> d = message(first(obj, 2));
                    ObjectNode opts = out.putObject("deleteOptions");
                    if (d.containsKey(4)) {
                        opts.put("propagationPolicy", text(d, 4));
                    }
                    if (d.containsKey(2)) {
                        Map<Integer, List<Object>> pre = message(first(d, 2));
                        ObjectNode p = opts.putObject("preconditions");
                        if (pre.containsKey(1)) {
                            p.put("uid", text(pre, 1));
                        }
                        if (pre.containsKey(2)) {
                            p.put("resourceVersion", text(pre, 2));
                        }
                    }
                    for (Object dry : d.getOrDefault(5, List.of())) {
                        opts.withArray("/dryRun").add(new String((byte[]) dry, StandardCharsets.UTF_8));
                    }
                }
            }
            default -> throw unsupported();
        }
        return out;
    }

    private static ApiError unsupported() {
        return ApiError.of(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types "
                + "include: application/json, application/yaml", null);
    }

    private static byte[] first(Map<Integer, List<Object>> m, int field) {
        List<Object> v = m.get(field);
        return v == null || v.isEmpty() ? new byte[0] : (byte[]) v.get(0);
    }

    private static String text(Map<Integer, List<Object>> m, int field) {
        return new String(first(m, field), StandardCharsets.UTF_8);
    }

    private static Map<Integer, List<Object>> message(byte[] b) {
        return fields(b, 0, b.length);
    }

    /** Field number to values: byte[] for length-delimited fields, Long for varints. */
    private static Map<Integer, List<Object>> fields(byte[] b, int from, int to) {
        Map<Integer, List<Object>> out = new LinkedHashMap<>();
        int[] pos = {from};
        while (pos[0] < to) {
            long key = varint(b, pos);
            int field = (int) (key >>> 3);
            int wire = (int) (key & 7);
            Object value;
            switch (wire) {
                case 0 -> value = varint(b, pos);
                case 2 -> {
                    int len = (int) varint(b, pos);
                    if (len < 0 || pos[0] + len > to) {
                        throw unsupported();
                    }
                    byte[] v = new byte[len];
                    System.arraycopy(b, pos[0], v, 0, len);
                    pos[0] += len;
                    value = v;
                }
                case 1 -> {
                    pos[0] += 8;
                    value = 0L;
                }
                case 5 -> {
                    pos[0] += 4;
                    value = 0L;
                }
                default -> throw unsupported();
            }
            out.computeIfAbsent(field, k -> new ArrayList<>()).add(value);
        }
        return out;
    }

    private static long varint(byte[] b, int[] pos) {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos[0] >= b.length) {
                throw unsupported();
            }
            byte x = b[pos[0]++];
            result |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) {
                return result;
            }
        }
        throw unsupported();
    }
}
