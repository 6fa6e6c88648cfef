package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;

/**
 * The PersistentVolumeClaimResize admission plugin
 * (plugin/pkg/admission/storage/persistentvolume/resize/admission.go): a larger request needs a bound
 * claim whose class, unchanged, exists and sets allowVolumeExpansion: true. A validating plugin of the
 * {@link AdmissionChain}: it runs after the strategy's validation, on updates of the claim itself (the real
 * plugin returns early for a subresource or another operation).
 */
public final class ResizeAdmission implements AdmissionPlugin.Validating {
    private final Store store;
    private final ResourceType storageClasses;

    public ResizeAdmission(Store store, Catalog catalog) {
        this.store = store;
        this.storageClasses = catalog.byResource("storage.k8s.io", "storageclasses").orElseThrow();
    }

    @Override
    public String name() {
        return "PersistentVolumeClaimResize";
    }

    @Override
    public boolean handles(Attributes a) {
        return a.operation() == Operation.UPDATE && a.isMainResource("persistentvolumeclaims");
    }

    @Override
    public void validate(Attributes a) {
        validateUpdate(a.oldObject(), a.object());
    }

    private void validateUpdate(ObjectNode old, ObjectNode updated) {
        String oldSize = old.path("spec").path("resources").path("requests").path("storage").asText("0");
        String newSize = updated.path("spec").path("resources").path("requests").path("storage").asText("0");
        if (Quantities.compare(newSize, oldSize) <= 0) {
            return;
        }
        String name = updated.path("metadata").path("name").asText();
        if (!"Bound".equals(old.path("status").path("phase").asText())) {
            throw ApiError.forbidden("", "persistentvolumeclaims", name, "Only bound persistent volume claims can be expanded");
        }
        if (!allowResize(old, updated)) {
            throw ApiError.forbidden("", "persistentvolumeclaims", name,
                    "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize");
        }
    }

    private boolean allowResize(ObjectNode old, ObjectNode updated) {
        String cls = claimClass(updated);
        if (cls.isEmpty() || !cls.equals(claimClass(old))) {
            return false;
        }
        ObjectNode sc = store.get(storageClasses, "", cls);
        return sc != null && sc.path("allowVolumeExpansion").asBoolean(false);
    }

    /** GetPersistentVolumeClaimClass: the beta annotation wins over spec.storageClassName. */
    static String claimClass(ObjectNode pvc) {
        String annotated = pvc.path("metadata").path("annotations").path("volume.beta.kubernetes.io/storage-class").asText("");
        return annotated.isEmpty() ? pvc.path("spec").path("storageClassName").asText("") : annotated;
    }
}
