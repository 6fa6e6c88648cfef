package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.store.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The names of a create, checked as kube-apiserver's rest.BeforeCreate
 * (staging/src/k8s.io/apiserver/pkg/registry/rest/create.go) checks them, after the name was
 * generated from generateName: first the kind's strategy, ValidateObjectMeta with the kind's name
 * function (prefix rules for generateName; each strategy picks its {@link NameRule}), then the common ValidateObjectMetaAccessor with
 * ValidatePathSegmentName (staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go,
 * .../api/validation/path/name.go). Texts from staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go.
 * Events follow pkg/apis/core/validation/events.go (ValidateEventCreate): a core v1 Event gets the
 * legacy checks only, an events.k8s.io/v1 one also the strict ones.
 *
 * <p>Labels, annotations and the kinds' spec fields are checked elsewhere ({@link CreateValidation}).
 */
public final class ObjectMetaValidation {
    private ObjectMetaValidation() {}

    static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
    private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);

    /** A ValidateNameFunc: the messages for a name, or for a generateName prefix. */
    public interface NameRule {
        List<String> check(String name, boolean prefix);
    }

    /** apimachinery NameIsDNSSubdomain. */
    public static final NameRule DNS_SUBDOMAIN = (n, prefix) -> isDns1123Subdomain(prefix ? maskTrailingDash(n) : n);
    /** apimachinery NameIsDNSLabel. */
    public static final NameRule DNS_LABEL = (n, prefix) -> isDns1123Label(prefix ? maskTrailingDash(n) : n);
    /** apimachinery NameIsDNS1035Label. */
    public static final NameRule DNS1035_LABEL_RULE = (n, prefix) -> {
        String v = prefix ? maskTrailingDash(n) : n;
        List<String> errs = new ArrayList<>();
        if (v.length() > 63) {
            errs.add(maxLen(63));
        }
        if (!DNS1035_LABEL.matcher(v).matches()) {
            errs.add(regexError("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
                    + "character, and end with an alphanumeric character", DNS1035_LABEL_FMT, "my-name", "abc-123"));
        }
        return errs;
    };
    /** path.ValidatePathSegmentName: the common check of every kind, and RBAC's ValidateRBACName. */
    public static final NameRule PATH_SEGMENT = (n, prefix) -> {
        List<String> errs = new ArrayList<>();
        if (!prefix && (n.equals(".") || n.equals(".."))) {
            return List.of("may not be '" + n + "'");
        }
        for (String bad : new String[] {"/", "%"}) {
            if (n.contains(bad)) {
                errs.add("may not contain '" + bad + "'");
            }
        }
        return errs;
    };

    /**
     * Throws the 422 kube-apiserver answers when the object's names are refused; {@code obj} has its generated
     * name. {@code strategyCauses}: what the kind's strategy Validate found in the names (its ValidateObjectMeta
     * with the kind's name function, see {@link #names}); only when it found nothing does the common check run.
     * {@code group}: the group the error names the kind with.
     */
    public static void validateCreate(ResourceType t, String group, ObjectNode obj, List<ApiError.Cause> strategyCauses) {
        String name = obj.path("metadata").path("name").asText("");
        List<ApiError.Cause> causes = strategyCauses;
        if (causes.isEmpty()) {
            causes = names(obj, t.namespaced(), PATH_SEGMENT);
        }
        if (!causes.isEmpty()) {
            throw ApiError.invalid(group, t.kind(), name, causes);
        }
    }

    /** A strategy's ValidateObjectMeta: the names of {@code obj} by the kind's name function. */
    public static List<ApiError.Cause> names(ObjectNode obj, boolean requiresNamespace, NameRule rule) {
        return objectMeta(obj.path("metadata"), requiresNamespace, rule);
    }

    /** pkg/apis/core/validation/events.go ValidateEventCreate for a core v1 Event: the legacy checks only. */
    public static List<ApiError.Cause> legacyEvent(ObjectNode obj) {
        return Events.legacy(obj, false);
    }

    /** ValidateEventCreate for an events.k8s.io/v1 Event: the legacy and the strict checks. */
    public static List<ApiError.Cause> strictEvent(ObjectNode obj) {
        return Events.strict(obj);
    }

    /** ValidateObjectMetaAccessor's name, generateName and namespace checks. */
    static List<ApiError.Cause> objectMeta(JsonNode meta, boolean requiresNamespace, NameRule rule) {
        List<ApiError.Cause> causes = new ArrayList<>();
        String generateName = meta.path("generateName").asText("");
        if (!generateName.isEmpty()) {
            rule.check(generateName, true).forEach(m -> causes.add(invalid("metadata.generateName", generateName, m)));
        }
        String name = meta.path("name").asText("");
        if (name.isEmpty()) {
            causes.add(new ApiError.Cause("FieldValueRequired", "Required value: name or generateName is required", "metadata.name"));
        } else {
            rule.check(name, false).forEach(m -> causes.add(invalid("metadata.name", name, m)));
        }
        String ns = meta.path("namespace").asText("");
        if (requiresNamespace) {
            if (ns.isEmpty()) {
                causes.add(new ApiError.Cause("FieldValueRequired", "Required value", "metadata.namespace"));
            } else {
                DNS_LABEL.check(ns, false).forEach(m -> causes.add(invalid("metadata.namespace", ns, m)));
            }
        } else if (!ns.isEmpty()) {
            causes.add(new ApiError.Cause("FieldValueForbidden", "Forbidden: not allowed on this type", "metadata.namespace"));
        }
        return causes;
    }

    /** pkg/apis/core/validation/events.go. Field names are the request version's (regarding/involvedObject, note/message …). */
    static final class Events {
        private Events() {}

        static List<ApiError.Cause> strict(ObjectNode e) {
            List<ApiError.Cause> causes = legacy(e, true);
            causes.addAll(objectMeta(e.path("metadata"), true, DNS_SUBDOMAIN));
            JsonNode series = e.path("series");
            if (series.isObject()) {
                if (series.path("count").asLong(0) < 2) {
                    causes.add(invalid("series.count", "", "should be at least 2"));
                }
                if (unset(series.path("lastObservedTime"))) {
                    causes.add(required("series.lastObservedTime"));
                }
            }
            if (unset(e.path("eventTime"))) {
                causes.add(required("eventTime"));
            }
            String type = e.path("type").asText("");
            if (!type.equals("Normal") && !type.equals("Warning")) {
                causes.add(invalid("type", "", "has invalid value: " + type));
            }
            for (String[] unset : new String[][] {{"deprecatedFirstTimestamp", "firstTimestamp"}, {"deprecatedLastTimestamp", "lastTimestamp"},
                    {"deprecatedCount", "count"}}) {
                JsonNode v = e.path(unset[0]);
                if (!v.isMissingNode() && !v.isNull() && !(v.isNumber() && v.asLong() == 0)) {
                    causes.add(invalid(unset[1], "", "needs to be unset"));
                }
            }
            JsonNode source = e.path("deprecatedSource");
            if (!source.path("component").asText("").isEmpty() || !source.path("host").asText("").isEmpty()) {
                causes.add(invalid("source", "", "needs to be unset"));
            }
            return causes;
        }

        /** legacyValidateEvent: every Event, whatever its version. */
        static List<ApiError.Cause> legacy(ObjectNode e, boolean eventsV1) {
            List<ApiError.Cause> causes = new ArrayList<>();
            String ns = e.path("metadata").path("namespace").asText("");
            JsonNode regarding = e.path(eventsV1 ? "regarding" : "involvedObject");
            String regardingNs = regarding.path("namespace").asText("");
            String controller = e.path(eventsV1 ? "reportingController" : "reportingComponent").asText("");
            if (unset(e.path("eventTime"))) {
                if (regardingNs.isEmpty() ? !ns.isEmpty() && !ns.equals("default") : !ns.equals(regardingNs)) {
                    causes.add(invalid("involvedObject.namespace", regardingNs, "does not match event.namespace"));
                }
            } else {
                if (regardingNs.isEmpty() && !ns.equals("default") && !ns.equals("kube-system")) {
                    causes.add(invalid("involvedObject.namespace", regardingNs, "does not match event.namespace"));
                }
                if (controller.isEmpty()) {
                    causes.add(required("reportingController"));
                }
                isQualifiedName(controller).forEach(m -> causes.add(invalid("reportingController", controller, m)));
                String instance = e.path("reportingInstance").asText("");
                if (instance.isEmpty()) {
                    causes.add(required("reportingInstance"));
                }
                if (instance.length() > 128) {
                    causes.add(invalid("reportingInstance", "", "can have at most 128 characters"));
                }
                String action = e.path("action").asText("");
                if (action.isEmpty()) {
                    causes.add(required("action"));
                }
                if (action.length() > 128) {
                    causes.add(invalid("action", "", "can have at most 128 characters"));
                }
                String reason = e.path("reason").asText("");
                if (reason.isEmpty()) {
                    causes.add(required("reason"));
                }
                if (reason.length() > 128) {
                    causes.add(invalid("reason", "", "can have at most 128 characters"));
                }
                if (e.path(eventsV1 ? "note" : "message").asText("").length() > 1024) {
                    causes.add(invalid("message", "", "can have at most 1024 characters"));
                }
            }
            isDns1123Subdomain(ns).forEach(m -> causes.add(invalid("namespace", ns, m)));
            return causes;
        }
    }

    // ---- staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go ----

    static List<String> isDns1123Label(String v) {
        List<String> errs = new ArrayList<>();
        if (v.length() > 63) {
            errs.add(maxLen(63));
        }
        if (!DNS1123_LABEL.matcher(v).matches()) {
            errs.add(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
                    + "and end with an alphanumeric character", DNS1123_LABEL_FMT, "my-name", "123-abc"));
        }
        return errs;
    }

    static List<String> isDns1123Subdomain(String v) {
        List<String> errs = new ArrayList<>();
        if (v.length() > 253) {
            errs.add(maxLen(253));
        }
        if (!DNS1123_SUBDOMAIN.matcher(v).matches()) {
            errs.add(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
                    + "start and end with an alphanumeric character", DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errs;
    }

    /** IsQualifiedName: [DNS-subdomain prefix "/"] name. */
    static List<String> isQualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name = parts[parts.length - 1];
        if (parts.length > 2) {
            return List.of("a qualified name " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
                    + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
        }
        if (parts.length == 2) {
            if (parts[0].isEmpty()) {
                errs.add("prefix part must be non-empty");
            } else {
                isDns1123Subdomain(parts[0]).forEach(m -> errs.add("prefix part " + m));
            }
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (name.length() > 63) {
            errs.add("name part " + maxLen(63));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errs.add("name part " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
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

    private static final String QUALIFIED_NAME_MSG =
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

    /** generic.go maskTrailingDash, exactly: a trailing dash drops the last TWO characters for an "a". */
    static String maskTrailingDash(String name) {
        if (name.length() > 1 && name.endsWith("-")) {
            return name.substring(0, name.length() - 2) + "a";
        }
        return name;
    }

    static String maxLen(int n) {
        return "must be no more than " + n + " characters";
    }

    private static ApiError.Cause invalid(String field, String value, String msg) {
        return new ApiError.Cause("FieldValueInvalid", "Invalid value: " + goQuote(value) + ": " + msg, field);
    }

    private static boolean unset(JsonNode n) {
        return n.isMissingNode() || n.isNull() || n.asText().isEmpty();
    }

    private static ApiError.Cause required(String field) {
        return new ApiError.Cause("FieldValueRequired", "Required value", field);
    }

    private static String goQuote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
