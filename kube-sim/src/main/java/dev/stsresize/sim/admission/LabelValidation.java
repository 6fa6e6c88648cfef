package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.patch.GoFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Label keys and values as apimachinery checks them: metav1validation.ValidateLabels
 * (apimachinery/pkg/apis/meta/v1/validation/validation.go) over IsQualifiedName and IsValidLabelValue
 * (apimachinery/pkg/util/validation/validation.go), with their texts.
 */
public final class LabelValidation {
    private static final String QNAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final Pattern QNAME = Pattern.compile("^" + QNAME_FMT + "$");
    private static final String QNAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final String LABEL_VALUE_FMT = "(" + QNAME_FMT + ")?";
    private static final Pattern LABEL_VALUE = Pattern.compile("^" + LABEL_VALUE_FMT + "$");
    private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile("^" + DNS1123_SUBDOMAIN_FMT + "$");
    private static final String DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

    private LabelValidation() {}

    /** ValidateLabels: every key a qualified name, every value a label value; causes at {@code field}. */
    public static List<ApiError.Cause> labels(JsonNode labels, String field) {
        List<ApiError.Cause> causes = new ArrayList<>();
        if (!labels.isObject()) {
            return causes;
        }
        labels.fields().forEachRemaining(e -> {
            for (String msg : qualifiedName(e.getKey())) {
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

    /** IsQualifiedName: an optional DNS-subdomain prefix and '/', then a name of at most 63 characters. */
    static List<String> qualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            name = parts[1];
            String prefix = parts[0];
            if (prefix.isEmpty()) {
                errs.add("prefix part must be non-empty");
            } else {
                for (String m : dns1123Subdomain(prefix)) {
                    errs.add("prefix part " + m);
                }
            }
        } else {
            errs.add("a qualified name " + regexError(QNAME_MSG, QNAME_FMT, "MyName", "my.name", "123-abc")
                    + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errs;
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (name.length() > 63) {
            errs.add("name part must be no more than 63 characters");
        }
        if (!QNAME.matcher(name).matches()) {
            errs.add("name part " + regexError(QNAME_MSG, QNAME_FMT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }

    /** IsValidLabelValue: empty, or a qualified name's characters, at most 63. */
    static List<String> labelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > 63) {
            errs.add("must be no more than 63 characters");
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errs;
    }

    /** IsDNS1123Subdomain. */
    static List<String> dns1123Subdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > 253) {
            errs.add("must be no more than 253 characters");
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errs.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errs;
    }

    /** validation.RegexError, examples and all: "… (e.g. 'MyName',  or 'my.name', regex used for validation is '…')". */
    static String regexError(String msg, String fmt, String... examples) {
        StringBuilder b = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                b.append(" or ");
            }
            b.append('\'').append(examples[i]).append("', ");
        }
        return b.append("regex used for validation is '").append(fmt).append("')").toString();
    }
}
