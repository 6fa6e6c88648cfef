package dev.stsresize.cli;

import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.cluster.ConnectionSettings;
import dev.stsresize.cluster.KubeClients;
import dev.stsresize.cluster.KubeconfigOverrides;
import java.io.PrintWriter;
import dev.stsresize.cluster.KubectlDuration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.stsresize.manifest.ApiNames;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * kubectl's connection flags, shared by every command that talks to a cluster ({@code @Mixin}).
 * Same names, same meaning, same duration syntax as kubectl, so a kubectl user's habits carry over.
 */
public final class ConnectionOptions {
    @Option(names = {"-n", "--namespace"}, paramLabel = "NS",
            description = "The namespace of StatefulSets that declare none (default: the context's namespace).")
    String namespace;

    @Option(names = {"-A", "--all-namespaces"}, description = "Consider every namespace, not only the manifest's.")
    boolean allNamespaces;

    @Option(names = "--request-timeout", paramLabel = "DURATION", defaultValue = "0",
            converter = DurationConverter.class,
            description = "How long to wait for one API request (like 30s, 1m, 2h); 0 waits forever. Default: ${DEFAULT-VALUE}.")
    Duration requestTimeout;

    @Option(names = {"-v", "--v"}, paramLabel = "LEVEL", defaultValue = "0",
            description = "Log level, like kubectl's, to stderr: 6 shows each request (method, URL, status, time), 8 also the bodies.")
    int verbosity;

    /** The kubeconfig's flags, from {@link KubeconfigFlag}'s table; their values are kept in these specs. */
    private final Map<KubeconfigFlag, OptionSpec> flags = new EnumMap<>(KubeconfigFlag.class);

    /** picocli hands the mixin its own spec while building it (after the fields): the table's flags join it there. */
    @Spec
    void declareKubeconfigFlags(CommandSpec mixin) {
        for (KubeconfigFlag f : KubeconfigFlag.values()) {
            OptionSpec o = f.option();
            flags.put(f, o);
            mixin.addOption(o);
        }
    }

    /** A kubeconfig flag's word as given (a TEXT flag), empty when it was not. */
    Optional<String> given(KubeconfigFlag f) {
        return Optional.ofNullable(value(f));
    }

    private <T> T value(KubeconfigFlag f) {
        OptionSpec o = flags.get(f);
        return o == null ? null : o.getValue();
    }

    /**
     * The validate step of every command that connects: what can be known wrong before the kubeconfig is read.
     * The namespace is checked as kube-apiserver checks a namespace's name: a bad one would change the request's path.
     */
    void validate(CommandSpec spec) {
        if (namespace != null && allNamespaces) {
            throw new ParameterException(spec.commandLine(), "-n and -A cannot be used together: -n " + namespace
                    + " names one namespace, -A all of them. Pass one.");
        }
        if (namespace != null) {
            String problem = ApiNames.namespaceProblem(namespace, "-n");
            if (!problem.isEmpty()) {
                throw new dev.stsresize.UserError(problem); // one paragraph with its fix: no help hint needed
            }
        }
    }

    /** The flags as a plain value for {@code cluster/}. */
    public ConnectionSettings settings() {
        List<String> asGroups = value(KubeconfigFlag.AS_GROUP);
        Boolean insecure = value(KubeconfigFlag.INSECURE_SKIP_TLS_VERIFY);
        return new ConnectionSettings(given(KubeconfigFlag.KUBECONFIG).map(Path::of), given(KubeconfigFlag.CONTEXT),
                given(KubeconfigFlag.CLUSTER), given(KubeconfigFlag.USER), Optional.ofNullable(namespace),
                allNamespaces, requestTimeout == null ? Duration.ZERO : requestTimeout, verbosity,
                new KubeconfigOverrides(given(KubeconfigFlag.SERVER), given(KubeconfigFlag.CERTIFICATE_AUTHORITY),
                        Boolean.TRUE.equals(insecure),
                        given(KubeconfigFlag.TLS_SERVER_NAME), given(KubeconfigFlag.TOKEN), given(KubeconfigFlag.CLIENT_CERTIFICATE),
                        given(KubeconfigFlag.CLIENT_KEY), given(KubeconfigFlag.AS), asGroups == null ? List.of() : asGroups,
                        given(KubeconfigFlag.AS_UID)));
    }

    /**
     * Connects as kubectl would with these flags, in the given environment.
     *
     * @param err the command's stderr, where {@code -v} writes
     */
    public ClusterConnection connect(Environment environment, PrintWriter err) {
        return KubeClients.connect(settings(), environment.client(), Version.get(), err);
    }

    /**
     * The namespace a connection would have, for a command that reads a manifest and sends nothing (set-size):
     * the connection is made as for every command (so a flag given is refused alike) but never used. Where the
     * ambient kubeconfig (KUBECONFIG, ~/.kube/config) is missing or unreadable and no flag names one, it only
     * costs the context's namespace: {@code -n}, else "default" with a note.
     */
    public String namespaceWithoutConnecting(Environment environment, PrintWriter err) {
        try {
            return connect(environment, err).defaultNamespace();
        } catch (dev.stsresize.UserError e) {
            if (flags.values().stream().anyMatch(o -> !o.originalStringValues().isEmpty())) {
                throw e; // a flag the operator gave is checked as every command checks it
            }
            if (namespace != null) {
                return namespace;
            }
            err.println("note: the kubeconfig gives no namespace (" + e.getMessage() + "); a StatefulSet named without one is taken to"
                    + " be in default");
            return "default";
        }
    }

    /** kubectl's duration syntax for {@code --request-timeout}: "0", "30s", "1m", a bare number of seconds. */
    public static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return KubectlDuration.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
