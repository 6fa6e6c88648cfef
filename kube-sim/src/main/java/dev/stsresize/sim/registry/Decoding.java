package dev.stsresize.sim.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.FieldSchema;
import dev.stsresize.sim.patch.GoFormat;
import dev.stsresize.sim.patch.Patches;
import dev.stsresize.sim.store.ResourceType;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the API server's JSON decoder does to a written object before any strategy sees it
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go, update.go, patch.go): a number that
 * does not fit its Go field is a decode error; a field the schema does not declare is an error under
 * fieldValidation=Strict, a {@code Warning} under Warn (the default when the query names none) and
 * silence under Ignore, and in the last two the field is dropped, as decoding into the typed object
 * drops it.
 */
final class Decoding {
    private static final String MODELS = "io.kubernetes.client.openapi.models.";

    private Decoding() {}

    /**
     * Create and update (PUT): decode errors and Strict's unknown fields are 400 BadRequest
     * ({@code transformDecodeError}: "StatefulSet in version "v1" cannot be handled as a StatefulSet: …").
     */
    static void decodeBody(ResourceType t, ObjectNode obj, WriteOptions o, Set<String> declared) {
        FieldSchema.modelOf(t.apiVersion(), t.kind()).ifPresent(model -> {
            typeError(obj, model).ifPresent(e -> {
                throw ApiError.of(400, "BadRequest", cannotHandle(t) + e, null);
            });
            List<String> unknown = FieldSchema.unknownFields(obj, model, declared, o.validation() != WriteOptions.FieldValidation.STRICT);
            if (unknown.isEmpty()) {
                return;
            }
            if (o.strict()) {
                throw ApiError.of(400, "BadRequest", cannotHandle(t) + "strict decoding error: " + unknownList(unknown), null);
            }
            warn(o, unknown);
        });
    }

    /**
     * A JSON, merge or strategic merge patch: the patched object is decoded the same way, but the
     * handler reports failures as 422 on the field "patch" (patch.go, applyPatchToCurrentObject): the
     * value is the patched object's JSON for JSON and merge patches, the patch as Go prints a map for
     * a strategic merge patch.
     */
    static void decodePatched(ResourceType t, ObjectNode patched, Patches.Type type, JsonNode patch, WriteOptions o,
            Set<String> declared) {
        FieldSchema.modelOf(t.apiVersion(), t.kind()).ifPresent(model -> {
            String shown = type == Patches.Type.STRATEGIC ? GoFormat.value(patch) : sortedJson(patched);
            typeError(patched, model).ifPresent(e -> {
                throw patchInvalid(shown, e);
            });
            List<String> unknown = FieldSchema.unknownFields(patched, model, declared, !o.strict());
            if (unknown.isEmpty()) {
                return;
            }
            if (o.strict()) {
                throw patchInvalid(shown, "strict decoding error: " + unknownList(unknown));
            }
            warn(o, unknown);
        });
    }

    private static ApiError patchInvalid(String shown, String detail) {
        return ApiError.invalid("", "", "", List.of(new ApiError.Cause("FieldValueInvalid",
                "Invalid value: " + GoFormat.quote(shown) + ": " + detail, "patch")));
    }

    private static void warn(WriteOptions o, List<String> unknown) {
        if (o.validation() == WriteOptions.FieldValidation.WARN) {
            unknown.forEach(f -> o.warnings().add("unknown field \"" + f + "\""));
        }
    }

    private static String cannotHandle(ResourceType t) {
        return t.kind() + " in version \"" + t.version() + "\" cannot be handled as a " + t.kind() + ": ";
    }

    private static String unknownList(List<String> unknown) {
        List<String> parts = new ArrayList<>();
        unknown.forEach(f -> parts.add("unknown field \"" + f + "\""));
        return String.join(", ", parts);
    }

    /**
     * The first int32/int64 field holding what encoding/json cannot put there, with its text:
     * {@code json: cannot unmarshal number 99999999999999999999 into Go struct field StatefulSetSpec.spec.replicas of type int32}.
     */
    static java.util.Optional<String> typeError(JsonNode value, Class<?> model) {
        return walk(value, model, "");
    }

    private static java.util.Optional<String> walk(JsonNode value, Type type, String path) {
        if (value == null || value.isNull()) {
            return java.util.Optional.empty();
        }
        if (type instanceof ParameterizedType p) {
            if (p.getRawType() == List.class && value.isArray()) {
                for (JsonNode item : value) {
                    var e = walk(item, p.getActualTypeArguments()[0], path);
                    if (e.isPresent()) {
                        return e;
                    }
                }
            }
            return java.util.Optional.empty();
        }
        if (!(type instanceof Class<?> c) || !c.getName().startsWith(MODELS) || !value.isObject()) {
            return java.util.Optional.empty();
        }
        for (Field f : fields(c)) {
            var sn = f.getAnnotation(com.google.gson.annotations.SerializedName.class);
            JsonNode v = value.get(sn.value());
            if (v == null || v.isNull()) {
                continue;
            }
            String child = path.isEmpty() ? sn.value() : path + "." + sn.value();
            Class<?> ft = f.getType();
            if (ft == Integer.class || ft == Long.class) {
                String goType = ft == Integer.class ? "int32" : "int64";
                String where = " into Go struct field " + goStruct(c) + "." + child + " of type " + goType;
                if (!v.isNumber()) {
                    return java.util.Optional.of("json: cannot unmarshal " + jsonType(v) + where);
                }
                boolean fits = v.isIntegralNumber() && (ft == Integer.class ? v.canConvertToInt() : v.canConvertToLong());
                if (!fits) {
                    return java.util.Optional.of("json: cannot unmarshal number " + v.asText() + where);
                }
                continue;
            }
            var e = walk(v, f.getGenericType(), child);
            if (e.isPresent()) {
                return e;
            }
        }
        return java.util.Optional.empty();
    }

    private static List<Field> fields(Class<?> c) {
        List<Field> out = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (f.getAnnotation(com.google.gson.annotations.SerializedName.class) != null
                    && !java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                out.add(f);
            }
        }
        return out;
    }

    /** V1StatefulSetSpec → StatefulSetSpec, the Go type's name. */
    private static String goStruct(Class<?> c) {
        return c.getSimpleName().replaceFirst("^V\\d+(?:alpha\\d+|beta\\d+)?", "");
    }

    private static String jsonType(JsonNode v) {
        if (v.isTextual()) {
            return "string";
        }
        if (v.isBoolean()) {
            return "bool";
        }
        if (v.isArray()) {
            return "array";
        }
        return "object";
    }

    /** encoding/json's output for a decoded map: keys sorted, no spaces. */
    static String sortedJson(JsonNode n) {
        if (n.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            n.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue()));
            List<String> parts = new ArrayList<>();
            sorted.forEach((k, v) -> parts.add(com.fasterxml.jackson.databind.node.TextNode.valueOf(k) + ":" + sortedJson(v)));
            return "{" + String.join(",", parts) + "}";
        }
        if (n.isArray()) {
            List<String> parts = new ArrayList<>();
            n.forEach(v -> parts.add(sortedJson(v)));
            return "[" + String.join(",", parts) + "]";
        }
        return n.toString();
    }
}
