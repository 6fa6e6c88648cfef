package dev.stsresize.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;

/**
 * {@code spec.replicas} as kube-apiserver reads it: an int32 (decoding into the Go struct fails
 * otherwise, with encoding/json's text) that is not negative ({@code ValidateNonnegativeField} in
 * {@code ValidateStatefulSetSpec}, pkg/apis/apps/validation). Checked here because every later
 * {@code asInt()} would silently wrap a larger number (99999999999999999999 became 1661992959).
 */
final class Replicas {
    private static final BigDecimal INT32_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);
    private static final BigDecimal INT32_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);

    private Replicas() {}

    /** Refuses what the API server refuses; a whole number written as a float (3.0) becomes 3, as kubectl sends it. */
    static void check(ObjectNode sts, String what) {
        JsonNode replicas = sts.path("spec").path("replicas");
        if (replicas.isMissingNode() || replicas.isNull()) {
            return; // defaulted to 1 by the API server
        }
        String fix = "Write spec.replicas as a whole number from 0 to " + Integer.MAX_VALUE + " (or leave it out)";
        if (!replicas.isNumber()) {
            throw ManifestReader.refused(what, undecodable(goType(replicas)), fix);
        }
        if (replicas.isFloatingPointNumber() && !Double.isFinite(replicas.doubleValue())) {
            // a number past double's range (1e400) is read as infinite, which has no exact value to range-check
            throw ManifestReader.refused(what, undecodable("number " + replicas.asText()), fix);
        }
        BigDecimal value = replicas.decimalValue();
        boolean whole = value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
        if (!whole || value.compareTo(INT32_MIN) < 0 || value.compareTo(INT32_MAX) > 0) {
            throw ManifestReader.refused(what, undecodable("number " + replicas.asText()), fix);
        }
        int n = value.intValueExact();
        if (n < 0) {
            throw ManifestReader.refused(what, ApiNames.invalid("spec.replicas", Integer.toString(n),
                    List.of("must be greater than or equal to 0")).replace("\"" + n + "\"", Integer.toString(n)), fix);
        }
        if (!replicas.isIntegralNumber() || !replicas.canConvertToInt()) {
            ((ObjectNode) sts.get("spec")).put("replicas", n);
        }
    }

    /** What the API server answers when the body cannot be decoded into a StatefulSet. */
    private static String undecodable(String what) {
        return "StatefulSet in version \"v1\" cannot be handled as a StatefulSet: json: cannot unmarshal " + what
                + " into Go struct field StatefulSetSpec.spec.replicas of type int32";
    }

    private static String goType(JsonNode node) {
        if (node.isTextual()) {
            return "string";
        }
        if (node.isBoolean()) {
            return "bool";
        }
        return node.isArray() ? "array" : "object";
    }
}
