package dev.stsresize.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The answers of docs/reference/real-apiserver-v1.32.md, verbatim, for exact comparisons. */
final class Reference {
    private Reference() {}

    static final String STS_FORBIDDEN_MESSAGE = "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

    static final String STS_FORBIDDEN = """
            {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
             "message":"StatefulSet.apps \\"db\\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
             "reason":"Invalid",
             "details":{"name":"db","group":"apps","kind":"StatefulSet","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden","field":"spec"}]},
             "code":422}""";

    static final String APPLY_CONFLICT = """
            {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Apply failed with 1 conflict: conflict with \\"kubectl\\": .spec.volumeClaimTemplates","reason":"Conflict","details":{"causes":[{"reason":"FieldManagerConflict","message":"conflict with \\"kubectl\\"","field":".spec.volumeClaimTemplates"}]},"code":409}""";

    static final String NOT_EXPANDABLE = """
            {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"persistentvolumeclaims \\"fixed-a\\" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize","reason":"Forbidden","details":{"name":"fixed-a","kind":"persistentvolumeclaims"},"code":403}""";

    static final String PENDING_FIRST_LINE = "PersistentVolumeClaim \"pending-claim\" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";

    static final String BELOW_CAPACITY = "PersistentVolumeClaim \"data-db-0\" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity";

    static String uidMismatch(String given, String actual) {
        return "Operation cannot be fulfilled on StatefulSet.apps \"db\": the UID in the precondition (" + given
                + ") does not match the UID in record (" + actual + "). The object might have been deleted and then recreated";
    }

    static final String UNKNOWN_FIELD_MESSAGE = "failed to create typed patch object (default/db; apps/v1, Kind=StatefulSet): .spec.foo: field not declared in schema";

    static JsonNode json(String s) {
        try {
            return SimClient.JSON.readTree(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
