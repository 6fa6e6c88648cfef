package dev.stsresize.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The objects many tests share: YAML read as a raw tree, and the StatefulSet "db" they all converge. */
public final class TestObjects {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private TestObjects() {}

    public static ObjectNode yaml(String s) {
        try {
            return (ObjectNode) YAML.readTree(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * StatefulSet "db" in {@code namespace}: 2 replicas, selector app=db, one container of {@code image},
     * one claim template "data" of {@code size} on class {@code storageClass}. The text ends inside
     * {@code spec}, so a caller may append more spec fields indented by two spaces.
     */
    public static String db(String namespace, String storageClass, String size, String image) {
        return db(namespace, storageClass, size, image, 2);
    }

    /** StatefulSet "db" as {@link #db(String, String, String, String)}, of {@code replicas} replicas. */
    public static String db(String namespace, String storageClass, String size, String image, int replicas) {
        return """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: NS}
                spec:
                  serviceName: db
                  replicas: REPLICAS
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                    spec:
                      containers: [{name: db, image: "IMAGE"}]
                  volumeClaimTemplates:
                  - metadata: {name: data}
                    spec: {storageClassName: CLS, accessModes: [ReadWriteOnce], resources: {requests: {storage: SIZE}}}
                """.replace("NS", namespace).replace("CLS", storageClass).replace("SIZE", size).replace("IMAGE", image)
                .replace("REPLICAS", Integer.toString(replicas));
    }
}
