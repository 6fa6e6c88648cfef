package dev.stsresize.sim.http;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The message schemas of the Kubernetes types kubectl sends as protobuf, read from a resource of this
 * module: a FileDescriptorSet of client-java-proto's descriptors (the generated.proto files of
 * k8s.io/api and k8s.io/apimachinery), each file after the files it imports. Schemas are data, so they
 * ship as data: client-java-proto's generated classes, looked up by name, are out of sight of the release
 * jar's minimizer, which keeps only the classes code references, and kept whole they weigh 13 MB for
 * 85 kB of descriptors. {@code ProtobufSchemasTest} keeps the resource equal to client-java-proto's.
 */
final class ProtobufSchemas {
    /** The resource, beside this class. */
    static final String RESOURCE = "protobuf-schemas.binpb";

    private final Map<String, Descriptor> messages;

    private ProtobufSchemas(Map<String, Descriptor> messages) {
        this.messages = messages;
    }

    /** The message type of a full protobuf name, e.g. {@code k8s.io.api.core.v1.ServiceAccount}. */
    Optional<Descriptor> message(String fullName) {
        return Optional.ofNullable(messages.get(fullName));
    }

    static ProtobufSchemas load() {
        try (InputStream in = ProtobufSchemas.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the protobuf schemas " + RESOURCE + " are missing beside " + ProtobufSchemas.class.getName());
            }
            return of(FileDescriptorSet.parseFrom(in).getFileList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ProtobufSchemas of(List<FileDescriptorProto> files) {
        Map<String, FileDescriptor> built = new HashMap<>();
        Map<String, Descriptor> messages = new HashMap<>();
        for (FileDescriptorProto file : files) {
            FileDescriptor[] dependencies = file.getDependencyList().stream().map(name -> {
                FileDescriptor d = built.get(name);
                if (d == null) {
                    throw new IllegalStateException("protobuf schema " + file.getName() + " imports " + name + ", which does not come before it");
                }
                return d;
            }).toArray(FileDescriptor[]::new);
            try {
                FileDescriptor f = FileDescriptor.buildFrom(file, dependencies);
                built.put(f.getName(), f);
                for (Descriptor m : f.getMessageTypes()) {
                    messages.put(m.getFullName(), m);
                }
            } catch (DescriptorValidationException e) {
                throw new IllegalStateException("protobuf schema " + file.getName() + " is invalid: " + e.getMessage(), e);
            }
        }
        return new ProtobufSchemas(Map.copyOf(messages));
    }
}
