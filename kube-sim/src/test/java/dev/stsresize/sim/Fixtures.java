package dev.stsresize.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The objects of the reference observations: classes, claims in each state, the StatefulSet "db". */
final class Fixtures {
    private Fixtures() {}

    static ObjectNode yaml(String s) {
        return dev.stsresize.testkit.TestObjects.yaml(s);
    }

    static String json(ObjectNode o) {
        return o.toString();
    }

    static final String DB = dev.stsresize.testkit.TestObjects.db("default", "expandable", "1Gi", "postgres:16");

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
