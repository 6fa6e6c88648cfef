package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go):
 * every claim is created with the finalizer {@code kubernetes.io/pvc-protection} and every PersistentVolume with
 * {@code kubernetes.io/pv-protection}, so that deleting one in use only marks it; the pvc-protection and
 * pv-protection controllers remove the finalizer once nothing uses it.
 */
final class StorageProtectionAdmission implements AdmissionPlugin.Mutating {
    static final String CLAIM_FINALIZER = "kubernetes.io/pvc-protection";
    static final String VOLUME_FINALIZER = "kubernetes.io/pv-protection";

    @Override
    public String name() {
        return "StorageObjectInUseProtection";
    }

    @Override
    public boolean handles(Attributes a) {
        return a.operation() == Operation.CREATE
                && (a.isMainResource("persistentvolumeclaims") || a.isMainResource("persistentvolumes"));
    }

    @Override
    public void admit(Attributes a) {
        String finalizer = a.type().resource().equals("persistentvolumeclaims") ? CLAIM_FINALIZER : VOLUME_FINALIZER;
        ArrayNode finalizers = a.object().withObject("/metadata").withArray("finalizers");
        for (JsonNode f : finalizers) {
            if (f.asText().equals(finalizer)) {
                return;
            }
        }
        finalizers.add(finalizer);
    }
}
