package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A PersistentVolume's spec as pkg/apis/core/validation/validation.go (v1.32) checks it:
 * {@code ValidatePersistentVolumeSpec}'s reclaim policy (one of Delete, Recycle, Retain) on create and update,
 * and {@code ValidatePersistentVolumeUpdate}'s immutable parts: the volume source
 * ({@code spec.persistentvolumesource}, every volume plugin's field), {@code volumeMode} (at the path
 * "volumeMode", as the Go source spells it) and a node affinity once set. Everything else of the spec may
 * change: {@code persistentVolumeReclaimPolicy}, {@code claimRef} (the PV controller and an admin re-point it),
 * capacity, access modes, class, mount options. The Go cmp.Diff of the source is simplified to the changed
 * leaves, as {@link ClaimValidation} does.
 */
public final class VolumeValidation {
    /** core.PersistentVolumeSource's fields (pkg/apis/core/types.go), by their JSON names. */
    private static final Set<String> SOURCES = Set.of("gcePersistentDisk", "awsElasticBlockStore", "hostPath", "glusterfs", "nfs",
            "rbd", "iscsi", "cinder", "cephfs", "fc", "flocker", "flexVolume", "azureFile", "vsphereVolume", "quobyte", "azureDisk",
            "photonPersistentDisk", "portworxVolume", "scaleIO", "local", "storageos", "csi");
    private static final List<String> RECLAIM_POLICIES = List.of("Delete", "Recycle", "Retain");

    private VolumeValidation() {}

    /** ValidatePersistentVolumeSpec's reclaim policy (create and update). */
    public static List<ApiError.Cause> spec(JsonNode spec) {
        List<ApiError.Cause> causes = new ArrayList<>();
        String policy = spec.path("persistentVolumeReclaimPolicy").asText("");
        if (!policy.isEmpty() && !RECLAIM_POLICIES.contains(policy)) {
            causes.add(new ApiError.Cause("FieldValueNotSupported", "Unsupported value: \"" + policy + "\": supported values: \""
                    + String.join("\", \"", RECLAIM_POLICIES) + "\"", "spec.persistentVolumeReclaimPolicy"));
        }
        return causes;
    }

    /** ValidatePersistentVolumeUpdate: the new spec's checks and the immutable parts, in one 422. */
    public static void validateUpdate(ObjectNode old, ObjectNode updated) {
        JsonNode oldSpec = old.path("spec");
        JsonNode newSpec = updated.path("spec");
        List<ApiError.Cause> causes = new ArrayList<>(spec(newSpec));
        ObjectNode oldSource = source(oldSpec);
        ObjectNode newSource = source(newSpec);
        if (!oldSource.equals(newSource)) {
            causes.add(new ApiError.Cause("FieldValueForbidden", "Forbidden: spec.persistentvolumesource is immutable after creation\n"
                    + ClaimValidation.diff("core.PersistentVolumeSource", oldSource, newSource), "spec.persistentvolumesource"));
        }
        JsonNode oldMode = oldSpec.path("volumeMode");
        JsonNode newMode = newSpec.path("volumeMode");
        if (!oldMode.equals(newMode)) {
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: \"" + newMode.asText("") + "\": field is immutable",
                    "volumeMode"));
        }
        JsonNode oldAffinity = oldSpec.path("nodeAffinity");
        if (!oldAffinity.isMissingNode() && !oldAffinity.isNull() && !oldAffinity.equals(newSpec.path("nodeAffinity"))) {
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: \"null\": field is immutable", "nodeAffinity"));
        }
        if (!causes.isEmpty()) {
            throw ApiError.invalid("", "PersistentVolume", updated.path("metadata").path("name").asText(), causes);
        }
    }

    private static ObjectNode source(JsonNode spec) {
        ObjectNode out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        spec.fieldNames().forEachRemaining(f -> {
            if (SOURCES.contains(f)) {
                out.set(f, spec.get(f));
            }
        });
        return out;
    }
}
