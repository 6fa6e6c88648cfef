package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.stsresize.sim.ApiError;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Protobuf request bodies, decoded to the JSON the rest of the server reads. kubectl's typed
 * clients send them ({@code kubectl create namespace|serviceaccount|role|job|token}, {@code auth
 * can-i}, {@code drain}); answers stay JSON, which client-go decodes by the response's content type.
 * The wire format is apimachinery's (magic "k8s\0", then a runtime.Unknown whose raw bytes are the
 * object); the message schemas are client-java-proto's descriptors ({@link ProtobufSchemas}), and the apimachinery
 * types with a JSON form of their own (Quantity, Time, MicroTime, IntOrString, RawExtension,
 * FieldsV1) are mapped to it.
 */
final class ProtobufBodies {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    /** Group version → the protobuf package of its types (the {@code package} line of its generated.proto). */
    static final Map<String, String> PACKAGES = Map.ofEntries(
            Map.entry("v1", "k8s.io.api.core.v1"),
            Map.entry("apps/v1", "k8s.io.api.apps.v1"),
            Map.entry("batch/v1", "k8s.io.api.batch.v1"),
            Map.entry("rbac.authorization.k8s.io/v1", "k8s.io.api.rbac.v1"),
            Map.entry("storage.k8s.io/v1", "k8s.io.api.storage.v1"),
            Map.entry("coordination.k8s.io/v1", "k8s.io.api.coordination.v1"),
            Map.entry("events.k8s.io/v1", "k8s.io.api.events.v1"),
            Map.entry("networking.k8s.io/v1", "k8s.io.api.networking.v1"),
            Map.entry("authorization.k8s.io/v1", "k8s.io.api.authorization.v1"),
            Map.entry("authentication.k8s.io/v1", "k8s.io.api.authentication.v1"),
            Map.entry("policy/v1", "k8s.io.api.policy.v1"),
            Map.entry("autoscaling/v1", "k8s.io.api.autoscaling.v1"));
    private static final String UNKNOWN = "k8s.io.apimachinery.pkg.runtime.Unknown";

    /** Read on the first protobuf body: most runs of the simulator never see one. */
    private static final class Schemas {
        static final ProtobufSchemas LOADED = ProtobufSchemas.load();
    }

    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(java.time.ZoneOffset.UTC);

    private ProtobufBodies() {}

    static boolean isProtobuf(String contentType) {
        return contentType != null && contentType.startsWith("application/vnd.kubernetes.protobuf");
    }

    static ObjectNode decode(byte[] body) {
        if (body.length < 4 || body[0] != MAGIC[0] || body[1] != MAGIC[1] || body[2] != MAGIC[2] || body[3] != MAGIC[3]) {
            throw unsupported("it does not start with the Kubernetes protobuf magic");
        }
        try {
            Descriptor unknownType = Schemas.LOADED.message(UNKNOWN).orElseThrow();
            DynamicMessage unknown = DynamicMessage.parseFrom(unknownType, ByteString.copyFrom(body, 4, body.length - 4));
            Message typeMeta = (Message) field(unknown, "typeMeta");
            String apiVersion = (String) field(typeMeta, "apiVersion");
            String kind = (String) field(typeMeta, "kind");
            String pkg = PACKAGES.get(apiVersion);
            Descriptor type = pkg == null ? null : Schemas.LOADED.message(pkg + "." + kind).orElse(null);
            if (type == null) {
                throw unsupported("the simulated cluster has no protobuf schema for " + kind + " in " + apiVersion);
            }
            ObjectNode out = JSON.objectNode();
            out.put("apiVersion", apiVersion);
            out.put("kind", kind);
            out.setAll(object(DynamicMessage.parseFrom(type, (ByteString) field(unknown, "raw"))));
            return out;
        } catch (InvalidProtocolBufferException e) {
            throw unsupported("it is not valid protobuf (" + e.getMessage() + ")");
        }
    }

    private static ObjectNode object(Message m) {
        ObjectNode o = JSON.objectNode();
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            FieldDescriptor f = e.getKey();
            if (f.isMapField()) {
                ObjectNode map = o.putObject(f.getName());
                for (Object entry : (List<?>) e.getValue()) {
                    Message me = (Message) entry;
                    FieldDescriptor k = me.getDescriptorForType().findFieldByName("key");
                    FieldDescriptor v = me.getDescriptorForType().findFieldByName("value");
                    map.set(String.valueOf(me.getField(k)), value(v, me.getField(v)));
                }
            } else if (f.isRepeated()) {
                ArrayNode a = o.putArray(f.getName());
                for (Object item : (List<?>) e.getValue()) {
                    a.add(value(f, item));
                }
            } else if (!isGoZero(e.getValue())) {
                o.set(f.getName(), value(f, e.getValue()));
            }
        }
        return o;
    }

    /**
     * Go's protobuf writes every non-pointer scalar, zero or not; its JSON omits empty strings and
     * false flags, and defaulting treats them as unset, so they are dropped here. (Zero numbers stay:
     * a pointer such as replicas may be 0 on purpose.)
     */
    private static boolean isGoZero(Object v) {
        return (v instanceof String s && s.isEmpty()) || Boolean.FALSE.equals(v);
    }

    private static JsonNode value(FieldDescriptor f, Object v) {
        return switch (f.getJavaType()) {
            case MESSAGE -> special((Message) v);
            case STRING -> JSON.textNode((String) v);
            case BOOLEAN -> JSON.booleanNode((Boolean) v);
            case INT -> JSON.numberNode((Integer) v);
            case LONG -> JSON.numberNode((Long) v);
            case FLOAT -> JSON.numberNode((Float) v);
            case DOUBLE -> JSON.numberNode((Double) v);
            case BYTE_STRING -> JSON.textNode(Base64.getEncoder().encodeToString(((ByteString) v).toByteArray()));
            case ENUM -> JSON.textNode(v.toString());
        };
    }

    /** apimachinery types whose JSON is not their message shape. */
    private static JsonNode special(Message m) {
        String name = m.getDescriptorForType().getFullName();
        if ((name.endsWith(".meta.v1.Time") || name.endsWith(".meta.v1.MicroTime")) && m.getAllFields().isEmpty()) {
            return JSON.nullNode(); // Go marshals a zero time as an empty message; its JSON is null
        }
        if (name.endsWith(".meta.v1.ObjectMeta")) {
            ObjectNode meta = object(m);
            if (meta.path("generation").asLong(-1) == 0) {
                meta.remove("generation"); // non-pointer int64: 0 means unset
            }
            return meta;
        }
        return switch (name) {
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> JSON.textNode(String.valueOf(field(m, "string")));
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Time" -> JSON.textNode(
                    Instant.ofEpochSecond((Long) field(m, "seconds")).truncatedTo(ChronoUnit.SECONDS).toString());
            case "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime" -> JSON.textNode(MICRO.format(
                    Instant.ofEpochSecond((Long) field(m, "seconds"), (Integer) field(m, "nanos"))));
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> ((Long) field(m, "type")) == 0L
                    ? JSON.numberNode((Integer) field(m, "intVal")) : JSON.textNode((String) field(m, "strVal"));
            case "k8s.io.apimachinery.pkg.runtime.RawExtension", "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" ->
                    rawJson((ByteString) field(m, "raw"));
            default -> object(m);
        };
    }

    private static Object field(Message m, String name) {
        FieldDescriptor f = m.getDescriptorForType().findFieldByName(name);
        Object v = m.getField(f);
        return v instanceof Integer i && f.getType() == FieldDescriptor.Type.INT64 ? (Object) i.longValue() : v;
    }

    private static JsonNode rawJson(ByteString raw) {
        try {
            return raw.isEmpty() ? JSON.nullNode() : BodyCodec.MAPPER.readTree(raw.toByteArray());
        } catch (IOException e) {
            return JSON.textNode(raw.toStringUtf8());
        }
    }

    private static ApiError unsupported(String why) {
        return ApiError.of(415, "UnsupportedMediaType", "the body of the request could not be decoded: " + why
                + "; send it as application/json", null);
    }
}
