package dev.stsresize.manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The name rules of kube-apiserver, with its texts, so that a name it would refuse is refused here
 * before any request: apimachinery's {@code IsDNS1123Subdomain} (StatefulSet names:
 * {@code ValidateStatefulSetName} = {@code NameIsDNSSubdomain} in pkg/apis/apps/validation) and
 * {@code IsDNS1123Label} (namespaces: {@code ValidateNamespaceName} = {@code NameIsDNSLabel}; pod
 * volume names), both in staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go.
 * A name such as {@code ..} would otherwise change the request's path ({@code namespaces/../statefulsets}
 * is normalised to a cluster-wide collection).
 */
public final class ApiNames {
    static final int SUBDOMAIN_MAX = 253;
    static final int LABEL_MAX = 63;
    private static final String LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String SUBDOMAIN_FMT = LABEL_FMT + "(\\." + LABEL_FMT + ")*";
    private static final Pattern LABEL = Pattern.compile(LABEL_FMT);
    private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_FMT);
    static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
            + " and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for"
            + " validation is '" + LABEL_FMT + "')";
    static final String SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
            + " '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for"
            + " validation is '" + SUBDOMAIN_FMT + "')";

    private ApiNames() {}

    /** IsDNS1123Subdomain's messages; empty when the name is valid. */
    public static List<String> subdomainErrors(String name) {
        List<String> errors = new ArrayList<>();
        if (name.length() > SUBDOMAIN_MAX) {
            errors.add(maxLength(SUBDOMAIN_MAX));
        }
        if (!SUBDOMAIN.matcher(name).matches()) {
            errors.add(SUBDOMAIN_MSG);
        }
        return errors;
    }

    /** IsDNS1123Label's messages; empty when the name is valid. */
    public static List<String> labelErrors(String name) {
        List<String> errors = new ArrayList<>();
        if (name.length() > LABEL_MAX) {
            errors.add(maxLength(LABEL_MAX));
        }
        if (!LABEL.matcher(name).matches()) {
            errors.add(LABEL_MSG);
        }
        return errors;
    }

    /**
     * {@code field: Invalid value: "x": message} as field.ErrorList prints it, or empty when valid;
     * several messages are joined as the API server's aggregate joins them.
     */
    public static String invalid(String field, String value, List<String> messages) {
        return String.join(", ", messages.stream()
                .map(m -> field + ": Invalid value: " + quote(value) + ": " + m).toList());
    }

    /** A namespace given by the user ({@code -n}, {@code NS/NAME}): the problem and the fix, or empty when valid. */
    public static String namespaceProblem(String namespace, String where) {
        List<String> errors = labelErrors(namespace);
        if (errors.isEmpty()) {
            return "";
        }
        return where + ": the namespace " + quote(namespace) + " is not one kube-apiserver accepts ("
                + invalid("metadata.namespace", namespace, errors) + "). Nothing was sent. Pass the name of an existing"
                + " namespace (kubectl get namespaces lists them).";
    }

    private static String maxLength(int max) {
        return "must be no more than " + max + " characters";
    }

    /** Go's %q, enough for messages: the value in double quotes, quotes and backslashes escaped, long ones cut. */
    static String quote(String value) {
        String shown = value.length() > 80 ? value.substring(0, 77) + "..." : value;
        return "\"" + shown.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
