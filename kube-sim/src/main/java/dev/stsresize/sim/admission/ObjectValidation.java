package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.store.ResourceType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Two checks of kube-apiserver that bound what an object may carry, on create and update:
 * <ul>
 * <li>every kind: apimachinery {@code pkg/api/validation/objectmeta.go} {@code ValidateAnnotations} →
 * {@code ValidateAnnotationsSize}: the sum of len(key)+len(value) in bytes at most
 * {@code TotalAnnotationSizeLimitB} = 256 KiB, else {@code metadata.annotations: Too long: must have at
 * most 262144 bytes} (captured from a real server, docs/reference/real-apiserver-v1.32.md);</li>
 * <li>Secrets: {@code pkg/apis/core/validation/validation.go} {@code ValidateSecret} (data keys are
 * ConfigMap keys, {@code IsConfigMapKey}; the decoded data at most {@code core.MaxSecretSize} = 1 MiB,
 * {@code field.TooLong(dataPath, "", MaxSecretSize)}) and {@code ValidateSecretUpdate} (the type is
 * immutable: {@code ValidateImmutableField}).</li>
 * </ul>
 */
public final class ObjectValidation {
    /** apimachinery's TotalAnnotationSizeLimitB. */
    public static final int TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;
    /** pkg/apis/core/types.go MaxSecretSize. */
    public static final int MAX_SECRET_SIZE = 1024 * 1024;
    /** apimachinery/pkg/util/validation IsConfigMapKey: configMapKeyFmt, at most DNS1123SubdomainMaxLength. */
    private static final Pattern CONFIG_MAP_KEY = Pattern.compile("[-._a-zA-Z0-9]+");

    private ObjectValidation() {}

    /**
     * On create and on update, before the object is stored: the annotations' size, then what the kind's
     * strategy found ({@code strategyCauses}: {@link #secret}, {@link #csiDriver}), in one 422.
     */
    public static void validate(ResourceType t, ObjectNode next, List<ApiError.Cause> strategyCauses) {
        List<ApiError.Cause> causes = new ArrayList<>(annotations(next));
        causes.addAll(strategyCauses);
        if (!causes.isEmpty()) {
            throw ApiError.invalid(t.group(), t.kind(), next.path("metadata").path("name").asText(), causes);
        }
    }

    /** storage.k8s.io/v1 CSIDriver's checks ({@link CsiDriverValidation}); {@code old} is null on create. */
    public static List<ApiError.Cause> csiDriver(ObjectNode old, ObjectNode next) {
        return CsiDriverValidation.validate(old, next);
    }

    private static List<ApiError.Cause> annotations(ObjectNode o) {
        long total = 0;
        Iterator<Map.Entry<String, JsonNode>> it = o.path("metadata").path("annotations").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            total += e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().asText("").getBytes(StandardCharsets.UTF_8).length;
        }
        return total > TOTAL_ANNOTATION_SIZE_LIMIT_B ? List.of(tooLong("metadata.annotations", TOTAL_ANNOTATION_SIZE_LIMIT_B)) : List.of();
    }

    /** ValidateSecret and ValidateSecretUpdate; {@code old} is null on create. */
    public static List<ApiError.Cause> secret(ObjectNode old, ObjectNode next) {
        List<ApiError.Cause> causes = new ArrayList<>();
        long total = 0;
        Iterator<Map.Entry<String, JsonNode>> it = next.path("data").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            if (key.length() > 253 || !CONFIG_MAP_KEY.matcher(key).matches() || key.equals(".") || key.equals("..") || key.startsWith("..")) {
                causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: \"" + key + "\": a valid config key must consist of"
                        + " alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for"
                        + " validation is '[-._a-zA-Z0-9]+')", "data[" + key + "]"));
            }
            try {
                total += Base64.getDecoder().decode(e.getValue().asText("")).length;
            } catch (IllegalArgumentException notBase64) {
                // the real server refuses such a body while decoding it (encoding/base64.CorruptInputError, 400), before validation
                throw ApiError.of(400, "BadRequest", "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at"
                        + " input byte " + firstNonBase64(e.getValue().asText("")), null);
            }
        }
        if (total > MAX_SECRET_SIZE) {
            causes.add(tooLong("data", MAX_SECRET_SIZE));
        }
        if (old != null) {
            String before = old.path("type").asText("");
            String after = next.path("type").asText("");
            if (!before.equals(after)) {
                causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: \"" + after + "\": field is immutable", "type"));
            }
        }
        return causes;
    }

    /** Where Go's decoder stops: the first character outside the standard alphabet (else the end). */
    private static int firstNonBase64(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128 || c == '+' || c == '/' || c == '=')) {
                return i;
            }
        }
        return s.length();
    }

    /** field.TooLong as apimachinery v1.32 words it. */
    private static ApiError.Cause tooLong(String field, int max) {
        return new ApiError.Cause("FieldValueTooLong", "Too long: must have at most " + max + " bytes", field);
    }
}
