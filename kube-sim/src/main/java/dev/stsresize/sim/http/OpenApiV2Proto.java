package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

/**
 * The Swagger 2.0 document as gnostic's {@code openapi_v2.Document} in protobuf, the form kubectl asks for
 * ({@code Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf}) when it validates a
 * {@code kind: List} on the client. kube-openapi's handler makes it with {@code ToProtoBinary}: gnostic's
 * {@code ParseDocument} of the JSON, then {@code proto.Marshal}. Field numbers from gnostic-models'
 * openapiv2/OpenAPIv2.proto. What kubectl reads of it (kube-openapi's {@code proto.NewOpenAPIData}) is
 * {@code definitions}; this encodes {@code swagger}, {@code info} and every definition, not the paths.
 */
final class OpenApiV2Proto {
    private OpenApiV2Proto() {}

    static byte[] document(JsonNode doc) {
        return bytes(out -> {
            string(out, 1, doc.path("swagger").asText("2.0"));
            if (doc.has("info")) {
                message(out, 2, o -> {
                    string(o, 1, doc.path("info").path("title").asText(""));
                    string(o, 2, doc.path("info").path("version").asText(""));
                });
            }
            if (doc.has("definitions")) {
                // Definitions { repeated NamedSchema additional_properties = 1; }
                message(out, 9, o -> namedSchemas(o, doc.get("definitions")));
            }
        });
    }

    /** Schema, every field gnostic's parser keeps from a Kubernetes definition. */
    static byte[] schema(JsonNode s) {
        return bytes(out -> {
            string(out, 1, s.path("$ref").asText(""));
            string(out, 2, s.path("format").asText(""));
            string(out, 3, s.path("title").asText(""));
            string(out, 4, s.path("description").asText(""));
            if (s.has("default")) {
                message(out, 5, o -> any(o, s.get("default")));
            }
            number(out, 6, s.get("multipleOf"));
            number(out, 7, s.get("maximum"));
            bool(out, 8, s.path("exclusiveMaximum").asBoolean(false));
            number(out, 9, s.get("minimum"));
            bool(out, 10, s.path("exclusiveMinimum").asBoolean(false));
            integer(out, 11, s.get("maxLength"));
            integer(out, 12, s.get("minLength"));
            string(out, 13, s.path("pattern").asText(""));
            integer(out, 14, s.get("maxItems"));
            integer(out, 15, s.get("minItems"));
            bool(out, 16, s.path("uniqueItems").asBoolean(false));
            integer(out, 17, s.get("maxProperties"));
            integer(out, 18, s.get("minProperties"));
            for (JsonNode r : s.path("required")) {
                string(out, 19, r.asText());
            }
            for (JsonNode e : s.path("enum")) {
                message(out, 20, o -> any(o, e));
            }
            JsonNode additional = s.get("additionalProperties");
            if (additional != null) {
                // AdditionalPropertiesItem { oneof { Schema schema = 1; bool boolean = 2; } }
                message(out, 21, o -> {
                    if (additional.isBoolean()) {
                        o.writeBool(2, additional.booleanValue());
                    } else {
                        o.writeByteArray(1, schema(additional));
                    }
                });
            }
            JsonNode type = s.get("type");
            if (type != null) {
                // TypeItem { repeated string value = 1; }
                message(out, 22, o -> {
                    for (JsonNode t : type.isArray() ? type : java.util.List.of(type)) {
                        o.writeString(1, t.asText());
                    }
                });
            }
            JsonNode items = s.get("items");
            if (items != null) {
                // ItemsItem { repeated Schema schema = 1; }
                message(out, 23, o -> {
                    for (JsonNode i : items.isArray() ? items : java.util.List.of(items)) {
                        o.writeByteArray(1, schema(i));
                    }
                });
            }
            for (JsonNode a : s.path("allOf")) {
                out.writeByteArray(24, schema(a));
            }
            if (s.has("properties")) {
                // Properties { repeated NamedSchema additional_properties = 1; }
                message(out, 25, o -> namedSchemas(o, s.get("properties")));
            }
            string(out, 26, s.path("discriminator").asText(""));
            bool(out, 27, s.path("readOnly").asBoolean(false));
            if (s.has("example")) {
                message(out, 30, o -> any(o, s.get("example")));
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().startsWith("x-")) {
                    // NamedAny { string name = 1; Any value = 2; }
                    message(out, 31, o -> {
                        o.writeString(1, e.getKey());
                        message(o, 2, a -> any(a, e.getValue()));
                    });
                }
            }
        });
    }

    private static void namedSchemas(CodedOutputStream out, JsonNode named) throws IOException {
        for (Iterator<Map.Entry<String, JsonNode>> it = named.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            // NamedSchema { string name = 1; Schema value = 2; }
            message(out, 1, o -> {
                o.writeString(1, e.getKey());
                o.writeByteArray(2, schema(e.getValue()));
            });
        }
    }

    /** Any { google.protobuf.Any value = 1; string yaml = 2; }: gnostic keeps a value as its YAML, and JSON is YAML. */
    private static void any(CodedOutputStream out, JsonNode value) throws IOException {
        out.writeString(2, new String(BodyCodec.bytes(value), java.nio.charset.StandardCharsets.UTF_8));
    }

    // proto3: a field at its default value is not written
    private static void string(CodedOutputStream out, int field, String v) throws IOException {
        if (!v.isEmpty()) {
            out.writeString(field, v);
        }
    }

    private static void bool(CodedOutputStream out, int field, boolean v) throws IOException {
        if (v) {
            out.writeBool(field, true);
        }
    }

    private static void number(CodedOutputStream out, int field, JsonNode v) throws IOException {
        if (v != null && v.isNumber() && v.doubleValue() != 0) {
            out.writeDouble(field, v.doubleValue());
        }
    }

    private static void integer(CodedOutputStream out, int field, JsonNode v) throws IOException {
        if (v != null && v.canConvertToLong() && v.longValue() != 0) {
            out.writeInt64(field, v.longValue());
        }
    }

    private interface Writer {
        void write(CodedOutputStream out) throws IOException;
    }

    private static void message(CodedOutputStream out, int field, Writer body) throws IOException {
        out.writeByteArray(field, bytes(body));
    }

    private static byte[] bytes(Writer body) {
        try {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(b);
            body.write(out);
            out.flush();
            return b.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
