package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * storage.k8s.io/v1 CSIDriver, as pkg/apis/storage/validation/validation.go checks it after the defaults
 * (pkg/apis/storage/v1/defaults.go SetDefaults_CSIDriver, {@link Defaults}): {@code validateCSIDriverSpec}'s
 * required booleans (attachRequired — at the path "spec.attachedRequired", as the Go source spells it —,
 * podInfoOnMount, storageCapacity, seLinuxMount: SELinuxMountReadWriteOncePod is on by default in v1.32),
 * the supported fsGroupPolicy and volumeLifecycleModes, nodeAllocatableUpdatePeriodSeconds of at least 10;
 * and {@code ValidateCSIDriverUpdate}'s immutable attachRequired and volumeLifecycleModes. The name is
 * NameIsDNSSubdomain ({@link ObjectMetaValidation}'s default); token requests are not checked.
 */
final class CsiDriverValidation {
    private static final List<String> FS_GROUP_POLICIES = List.of("File", "None", "ReadWriteOnceWithFSType");
    private static final Set<String> LIFECYCLE_MODES = Set.of("Persistent", "Ephemeral");

    private CsiDriverValidation() {}

    /** {@code old} is null on create. */
    static List<ApiError.Cause> validate(ObjectNode old, ObjectNode next) {
        List<ApiError.Cause> causes = new ArrayList<>();
        JsonNode spec = next.path("spec");
        for (String[] required : new String[][] {{"attachRequired", "spec.attachedRequired"}, {"podInfoOnMount", "spec.podInfoOnMount"},
                {"storageCapacity", "spec.storageCapacity"}, {"seLinuxMount", "spec.seLinuxMount"}}) {
            if (!spec.path(required[0]).isBoolean()) {
                causes.add(new ApiError.Cause("FieldValueRequired", "Required value", required[1]));
            }
        }
        JsonNode policy = spec.path("fsGroupPolicy");
        if (policy.isTextual() && !FS_GROUP_POLICIES.contains(policy.asText())) {
            causes.add(new ApiError.Cause("FieldValueNotSupported", "Unsupported value: \"" + policy.asText() + "\": supported values: \""
                    + String.join("\", \"", FS_GROUP_POLICIES) + "\"", "spec.fsGroupPolicy"));
        }
        for (JsonNode mode : spec.path("volumeLifecycleModes")) {
            if (!LIFECYCLE_MODES.contains(mode.asText())) {
                causes.add(new ApiError.Cause("FieldValueNotSupported", "Unsupported value: \"" + mode.asText()
                        + "\": supported values: \"Persistent\", \"Ephemeral\"", "spec.volumeLifecycleModes"));
            }
        }
        JsonNode period = spec.path("nodeAllocatableUpdatePeriodSeconds");
        if (period.isNumber() && period.asLong() < 10) {
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: " + period.asLong()
                    + ": must be greater than or equal to 10 seconds", "spec.nodeAllocatableUpdatePeriodSeconds"));
        }
        if (old != null) {
            immutable(old.path("spec").path("attachRequired"), spec.path("attachRequired"), "spec.attachedRequired", causes);
            immutable(old.path("spec").path("volumeLifecycleModes"), spec.path("volumeLifecycleModes"), "spec.volumeLifecycleModes", causes);
        }
        return causes;
    }

    /** apimachinery's ValidateImmutableField: "field is immutable", with the new value as Go prints it. */
    private static void immutable(JsonNode before, JsonNode after, String field, List<ApiError.Cause> causes) {
        if (!before.equals(after)) {
            String shown = after.isArray() ? "[]storage.VolumeLifecycleMode{" + joined(after) + "}" : after.asText();
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: " + shown + ": field is immutable", field));
        }
    }

    private static String joined(JsonNode modes) {
        List<String> out = new ArrayList<>();
        modes.forEach(m -> out.add("\"" + m.asText() + "\""));
        return String.join(", ", out);
    }
}
