package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.patch.GoFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Label keys and values as apimachinery checks them: metav1validation.ValidateLabels
 * (apimachinery/pkg/apis/meta/v1/validation/validation.go) over IsQualifiedName ({@link ObjectMetaValidation}) and IsValidLabelValue
 * (apimachinery/pkg/util/validation/validation.go), with their texts.
 */
public final class LabelValidation {
    private static final String LABEL_VALUE_FMT = "(" + ObjectMetaValidation.QUALIFIED_NAME_FMT + ")?";
    private static final Pattern LABEL_VALUE = Pattern.compile("^" + LABEL_VALUE_FMT + "$");
    private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

    private LabelValidation() {}

    /** ValidateLabels: every key a qualified name, every value a label value; causes at {@code field}. */
    public static List<ApiError.Cause> labels(JsonNode labels, String field) {
        List<ApiError.Cause> causes = new ArrayList<>();
        if (!labels.isObject()) {
            return causes;
        }
        labels.fields().forEachRemaining(e -> {
            for (String msg : ObjectMetaValidation.isQualifiedName(e.getKey())) {
                causes.add(invalid(field, e.getKey(), msg));
            }
            for (String msg : labelValue(e.getValue().asText())) {
                causes.add(invalid(field, e.getValue().asText(), msg));
            }
        });
        return causes;
    }

    private static ApiError.Cause invalid(String field, String value, String msg) {
        return new ApiError.Cause("FieldValueInvalid", "Invalid value: " + GoFormat.quote(value) + ": " + msg, field);
    }

    /** IsValidLabelValue: empty, or a qualified name's characters, at most 63. */
    static List<String> labelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > 63) {
            errs.add("must be no more than 63 characters");
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add(ObjectMetaValidation.regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errs;
    }
}
