package dev.stsresize.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The protobuf schemas ship as this module's data, equal to client-java-proto's, and need nothing else to decode a body. */
class ProtobufSchemasTest {
    /** client-java-proto's outer classes of the group versions {@link ProtobufBodies#PACKAGES} names; the files they import come along. */
    private static final List<String> OUTER_CLASSES = List.of("Runtime", "V1", "V1Apps", "V1Batch", "V1Rbac", "V1Storage",
            "V1Coordination", "V1Events", "V1Networking", "V1Authorization", "V1Authentication", "V1Policy", "V1Autoscaling");

    /** What kubectl v1.32.4 sent for {@code kubectl create serviceaccount x -n team} (its -v=8 dump of the request body). */
    static final byte[] KUBECTL_CREATE_SERVICEACCOUNT = HexFormat.of().parseHex("6b3873000a140a027631120e53657276"
            + "6963654163636f756e7412170a150a01" + "7812001a047465616d22002a00320038" + "0042001a002200");

    @Test
    void the_shipped_schemas_are_client_java_protos_descriptors() throws Exception {
        byte[] expected = fromClientJavaProto().toByteArray();
        byte[] shipped;
        try (InputStream in = ProtobufSchemas.class.getResourceAsStream(ProtobufSchemas.RESOURCE)) {
            assertThat(in).as(ProtobufSchemas.RESOURCE + " beside ProtobufSchemas").isNotNull();
            shipped = in.readAllBytes();
        }
        if (!java.util.Arrays.equals(shipped, expected)) {
            Path fresh = Path.of("target", ProtobufSchemas.RESOURCE);
            Files.write(fresh, expected);
            assertThat(digest(shipped)).as("client-java-proto's descriptors changed (a new client-java?): copy " + fresh.toAbsolutePath()
                    + " to kube-sim/src/main/resources/dev/stsresize/sim/http/").isEqualTo(digest(expected));
        }
    }

    @Test
    void every_group_version_decoded_has_its_schemas() {
        ProtobufSchemas schemas = ProtobufSchemas.load();
        assertThat(schemas.message("k8s.io.apimachinery.pkg.runtime.Unknown")).isPresent();
        Map<String, String> kinds = Map.ofEntries(Map.entry("v1", "ServiceAccount"), Map.entry("apps/v1", "StatefulSet"),
                Map.entry("batch/v1", "Job"), Map.entry("rbac.authorization.k8s.io/v1", "RoleBinding"),
                Map.entry("storage.k8s.io/v1", "StorageClass"), Map.entry("coordination.k8s.io/v1", "Lease"),
                Map.entry("events.k8s.io/v1", "Event"), Map.entry("networking.k8s.io/v1", "NetworkPolicy"),
                Map.entry("authorization.k8s.io/v1", "SelfSubjectAccessReview"), Map.entry("authentication.k8s.io/v1", "TokenRequest"),
                Map.entry("policy/v1", "Eviction"), Map.entry("autoscaling/v1", "Scale"));
        assertThat(kinds.keySet()).isEqualTo(ProtobufBodies.PACKAGES.keySet());
        kinds.forEach((apiVersion, kind) -> assertThat(schemas.message(ProtobufBodies.PACKAGES.get(apiVersion) + "." + kind))
                .as(kind + " in " + apiVersion).isPresent());
    }

    /**
     * The release jar carries what code references; client-java-proto's generated classes are not referenced, so the
     * decoding must not need them: here it runs in a class loader of this module's classes, protobuf-java and Jackson only.
     */
    @Test
    void a_body_kubectl_sent_decodes_without_client_java_proto() throws Exception {
        try (URLClassLoader bare = new URLClassLoader(new URL[] {jarOf(ProtobufBodies.class), jarOf(FileDescriptor.class),
                jarOf(ObjectMapper.class), jarOf(JsonFactory.class), jarOf(JsonInclude.class)}, ClassLoader.getPlatformClassLoader())) {
            assertThat(bare.getResource("io/kubernetes/client/proto/V1.class")).as("client-java-proto is out of this loader").isNull();
            Method decode = bare.loadClass(ProtobufBodies.class.getName()).getDeclaredMethod("decode", byte[].class);
            decode.setAccessible(true);
            assertThat(decode.invoke(null, (Object) KUBECTL_CREATE_SERVICEACCOUNT).toString())
                    .isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"x\",\"namespace\":\"team\","
                            + "\"creationTimestamp\":null}}"); // a zero metav1.Time, which Go's JSON writes as null
        }
    }

    private static String digest(byte[] bytes) throws java.security.NoSuchAlgorithmException {
        return bytes.length + " bytes, sha256 " + HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static URL jarOf(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }

    /** The files of {@link #OUTER_CLASSES} and their imports, each after what it imports (as {@link ProtobufSchemas#of} builds them). */
    private static FileDescriptorSet fromClientJavaProto() throws ReflectiveOperationException {
        Map<String, FileDescriptor> ordered = new LinkedHashMap<>();
        for (String outer : OUTER_CLASSES) {
            // by name, as client-java stays out of this module's code at compile time
            addAfterImports((FileDescriptor) Class.forName("io.kubernetes.client.proto." + outer).getMethod("getDescriptor").invoke(null),
                    ordered);
        }
        FileDescriptorSet.Builder set = FileDescriptorSet.newBuilder();
        ordered.values().forEach(f -> set.addFile(f.toProto()));
        return set.build();
    }

    private static void addAfterImports(FileDescriptor f, Map<String, FileDescriptor> ordered) {
        if (!ordered.containsKey(f.getName())) {
            f.getDependencies().forEach(d -> addAfterImports(d, ordered));
            ordered.put(f.getName(), f);
        }
    }
}
