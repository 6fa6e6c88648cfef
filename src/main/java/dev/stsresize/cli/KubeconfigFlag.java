package dev.stsresize.cli;

import java.util.List;
import picocli.CommandLine.Model.OptionSpec;

/**
 * kubectl's flags that choose the kubeconfig's file, context, cluster and user, and those that override
 * its cluster and user: one row each, declared as client-go declares them (tools/clientcmd/overrides.go,
 * a {@code FlagInfo} per flag bound in one loop), with kubectl's names, labels and help words. They are
 * the same kind of flag, a value handed on to {@code cluster/} unchanged, so one table serves them all.
 */
enum KubeconfigFlag {
    KUBECONFIG("FILE", "Path to the kubeconfig file to use (instead of KUBECONFIG and ~/.kube/config).", "--kubeconfig"),
    CONTEXT("NAME", "The name of the kubeconfig context to use.", "--context"),
    CLUSTER("NAME", "The name of the kubeconfig cluster to use.", "--cluster"),
    USER("NAME", "The name of the kubeconfig user to use.", "--user"),
    SERVER("URL", "The address and port of the Kubernetes API server (instead of the kubeconfig cluster's).", "-s", "--server"),
    TOKEN("TOKEN", "Bearer token for authentication to the API server.", "--token"),
    CERTIFICATE_AUTHORITY("FILE", "Path to a cert file for the certificate authority.", "--certificate-authority"),
    CLIENT_CERTIFICATE("FILE", "Path to a client certificate file for TLS.", "--client-certificate"),
    CLIENT_KEY("FILE", "Path to a client key file for TLS.", "--client-key"),
    INSECURE_SKIP_TLS_VERIFY(Kind.SWITCH, "BOOL",
            "If true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure.",
            "--insecure-skip-tls-verify"),
    TLS_SERVER_NAME("NAME", "Server name to use for server certificate validation (default: the server's hostname).", "--tls-server-name"),
    AS("USER", "Username to impersonate for the operation.", "--as"),
    AS_GROUP(Kind.REPEATED, "GROUP", "Group to impersonate for the operation. Repeatable.", "--as-group"),
    AS_UID("UID", "UID to impersonate for the operation.", "--as-uid");

    /** What a flag's value is: one word, kubectl's optional-value boolean, or a word given again for each value. */
    enum Kind { TEXT, SWITCH, REPEATED }

    private final Kind kind;
    private final String label;
    private final String description;
    private final String[] names;

    KubeconfigFlag(String label, String description, String... names) {
        this(Kind.TEXT, label, description, names);
    }

    KubeconfigFlag(Kind kind, String label, String description, String... names) {
        this.kind = kind;
        this.label = label;
        this.description = description;
        this.names = names;
    }

    /** Its name as kubectl's own help writes it. */
    String longName() {
        return names[names.length - 1];
    }

    /** The flag as picocli's model: what {@code @Option} on a field would declare, its value kept in the spec. */
    OptionSpec option() {
        OptionSpec.Builder b = OptionSpec.builder(names).paramLabel(label).description(description);
        return switch (kind) {
            case TEXT -> b.type(String.class).build();
            case SWITCH -> b.type(boolean.class).arity("0..1").fallbackValue("true").initialValue(false).build();
            case REPEATED -> b.type(List.class).auxiliaryTypes(String.class).initialValue(null).build();
        };
    }
}
