package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.gson.annotations.SerializedName;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The field names each served kind declares, derived lazily from client-java's generated models
 * (their {@code @SerializedName} fields mirror the OpenAPI schema the real server builds its typed
 * patches from). Used to refuse unknown fields the way structured-merge-diff does:
 * {@code .spec.foo: field not declared in schema}.
 */
public final class FieldSchema {
    private static final String MODELS = "io.kubernetes.client.openapi.models.";
    private static final Map<Class<?>, Map<String, Type>> FIELDS = new ConcurrentHashMap<>();

    private FieldSchema() {}

    /** The model class of a kind ("apps/v1", "StatefulSet"), if client-java has one. */
    public static Optional<Class<?>> modelOf(String apiVersion, String kind) {
        String name = switch (kind) {
            case "Event" -> apiVersion.equals("v1") ? "CoreV1Event" : "EventsV1Event";
            default -> "V1" + kind;
        };
        try {
            return Optional.of(Class.forName(MODELS + name));
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }

    /** The path of the first field {@code value} has and {@code model} does not declare, e.g. ".spec.foo". */
    public static Optional<String> firstUnknownField(JsonNode value, Class<?> model) {
        return firstUnknownField(value, model, Set.of());
    }

    /**
     * As {@link #firstUnknownField(JsonNode, Class)}, with {@code declaredToo} fields the schema
     * declares beyond client-java's model, by path (".spec.someFutureField"; a list's items share the
     * list's path: ".spec.template.spec.containers.someFutureField"), each with any content: what a
     * newer API server knows. Tests use it (see {@code SimCluster#declareField}).
     */
    public static Optional<String> firstUnknownField(JsonNode value, Class<?> model, Set<String> declaredToo) {
        return unknown(value, model, "", declaredToo);
    }

    private static Optional<String> unknown(JsonNode value, Type type, String path, Set<String> extra) {
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (type instanceof ParameterizedType p) {
            Type raw = p.getRawType();
            if (raw == java.util.List.class && value.isArray()) {
                for (JsonNode item : value) {
                    Optional<String> u = unknown(item, p.getActualTypeArguments()[0], path, extra);
                    if (u.isPresent()) {
                        return u;
                    }
                }
            } else if (raw == Map.class && value.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    Optional<String> u = unknown(e.getValue(), p.getActualTypeArguments()[1], path + "." + e.getKey(), extra);
                    if (u.isPresent()) {
                        return u;
                    }
                }
            }
            return Optional.empty();
        }
        if (!(type instanceof Class<?> c) || !c.getName().startsWith(MODELS) || !value.isObject()) {
            return Optional.empty(); // scalars, quantities, IntOrString, free-form objects
        }
        Map<String, Type> fields = fieldsOf(c);
        if (fields.isEmpty()) {
            return Optional.empty();
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String child = path + "." + e.getKey();
            Type t = fields.get(e.getKey());
            if (t == null) {
                if (extra.contains(child)) {
                    continue;
                }
                return Optional.of(child);
            }
            Optional<String> u = unknown(e.getValue(), t, child, extra);
            if (u.isPresent()) {
                return u;
            }
        }
        return Optional.empty();
    }

    /**
     * Every field {@code value} has and {@code model} does not declare, as the strict JSON decoder
     * names them (sigs.k8s.io/json: "spec.foo", "spec.template.spec.containers[0].bar"), in document
     * order; with {@code prune}, each is also removed from {@code value}, as the non-strict decoder
     * drops it (fieldValidation Warn or Ignore). {@code declaredToo} as in {@link #firstUnknownField(JsonNode, Class, Set)}.
     */
    public static java.util.List<String> unknownFields(JsonNode value, Class<?> model, Set<String> declaredToo, boolean prune) {
        java.util.List<String> found = new java.util.ArrayList<>();
        collect(value, model, "", "", declaredToo, prune, found);
        return found;
    }

    private static void collect(JsonNode value, Type type, String path, String schemaPath, Set<String> extra, boolean prune,
            java.util.List<String> found) {
        if (value == null || value.isNull()) {
            return;
        }
        if (type instanceof ParameterizedType p) {
            Type raw = p.getRawType();
            if (raw == java.util.List.class && value.isArray()) {
                for (int i = 0; i < value.size(); i++) {
                    collect(value.get(i), p.getActualTypeArguments()[0], path + "[" + i + "]", schemaPath, extra, prune, found);
                }
            } else if (raw == Map.class && value.isObject()) {
                value.fields().forEachRemaining(e -> collect(e.getValue(), p.getActualTypeArguments()[1],
                        join(path, e.getKey()), schemaPath + "." + e.getKey(), extra, prune, found));
            }
            return;
        }
        if (!(type instanceof Class<?> c) || !c.getName().startsWith(MODELS) || !value.isObject()) {
            return;
        }
        Map<String, Type> fields = fieldsOf(c);
        if (fields.isEmpty()) {
            return;
        }
        java.util.List<String> unknown = new java.util.ArrayList<>();
        value.fields().forEachRemaining(e -> {
            String child = schemaPath + "." + e.getKey();
            Type t = fields.get(e.getKey());
            if (t == null) {
                if (!extra.contains(child)) {
                    found.add(join(path, e.getKey()));
                    unknown.add(e.getKey());
                }
            } else {
                collect(e.getValue(), t, join(path, e.getKey()), child, extra, prune, found);
            }
        });
        if (prune) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) value).remove(unknown);
        }
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private static Map<String, Type> fieldsOf(Class<?> c) {
        return FIELDS.computeIfAbsent(c, k -> {
            Map<String, Type> m = new HashMap<>();
            for (Class<?> x = k; x != null && x != Object.class; x = x.getSuperclass()) {
                for (Field f : x.getDeclaredFields()) {
                    SerializedName sn = f.getAnnotation(SerializedName.class);
                    if (sn != null && !Modifier.isStatic(f.getModifiers())) {
                        m.put(sn.value(), f.getGenericType());
                    }
                }
            }
            return m;
        });
    }
}
