package dev.stsresize.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The objects of the reference observations: classes, claims in each state, the StatefulSet "db". */
final class Fixtures {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Fixtures() {}

    static ObjectNode yaml(String s) {
        try {
            return (ObjectNode) YAML.readTree(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String json(ObjectNode o) {
        return o.toString();
    }

    static final String DB = """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db, namespace: default}
            spec:
              serviceName: db
              replicas: 2
              selector: {matchLabels: {app: db}}
              template:
                metadata: {labels: {app: db}}
                spec:
                  containers: [{name: db, image: "postgres:16"}]
              volumeClaimTemplates:
              - metadata: {name: data}
                spec: {storageClassName: expandable, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
            """;

    static ObjectNode db() {
        return yaml(DB);
    }

    static ObjectNode dbWithTemplateSize(String size) {
        return yaml(DB.replace("storage: 1Gi", "storage: " + size));
    }

    static ObjectNode storageClass(String name, boolean expandable) {
        return yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: " + name + "}\nprovisioner: sim.csi\n"
                + "allowVolumeExpansion: " + expandable + "\n");
    }

    static ObjectNode boundClaim(String name, String cls, String request, String capacity) {
        return yaml("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: " + name + ", namespace: default}\n"
                + "spec: {storageClassName: " + cls + ", accessModes: [ReadWriteOnce], volumeName: pv-" + name
                + ", resources: {requests: {storage: " + request + "}}}\n"
                + "status: {phase: Bound, accessModes: [ReadWriteOnce], capacity: {storage: " + capacity + "}}\n");
    }

    static ObjectNode pendingClaim(String name, String cls, String request) {
        return yaml("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: " + name + ", namespace: default}\n"
                + "spec: {storageClassName: " + cls + ", accessModes: [ReadWriteOnce], resources: {requests: {storage: " + request + "}}}\n"
                + "status: {phase: Pending}\n");
    }
}
