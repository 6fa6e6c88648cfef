package dev.stsresize.cli;

import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.cluster.ConnectionSettings;
import dev.stsresize.cluster.KubeClients;
import dev.stsresize.cluster.KubeconfigOverrides;
import java.io.PrintWriter;
import dev.stsresize.cluster.KubectlDuration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import dev.stsresize.manifest.ApiNames;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * kubectl's connection flags, shared by every command that talks to a cluster ({@code @Mixin}).
 * Same names, same meaning, same duration syntax as kubectl, so a kubectl user's habits carry over.
 */
public final class ConnectionOptions {
    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "Path to the kubeconfig file to use (instead of KUBECONFIG and ~/.kube/config).")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "The name of the kubeconfig context to use.")
    String context;

    @Option(names = "--cluster", paramLabel = "NAME", description = "The name of the kubeconfig cluster to use.")
    String cluster;

    @Option(names = "--user", paramLabel = "NAME", description = "The name of the kubeconfig user to use.")
    String user;

    @Option(names = {"-s", "--server"}, paramLabel = "URL",
            description = "The address and port of the Kubernetes API server (instead of the kubeconfig cluster's).")
    String server;

    @Option(names = "--token", paramLabel = "TOKEN", description = "Bearer token for authentication to the API server.")
    String token;

    @Option(names = "--certificate-authority", paramLabel = "FILE", description = "Path to a cert file for the certificate authority.")
    String certificateAuthority;

    @Option(names = "--client-certificate", paramLabel = "FILE", description = "Path to a client certificate file for TLS.")
    String clientCertificate;

    @Option(names = "--client-key", paramLabel = "FILE", description = "Path to a client key file for TLS.")
    String clientKey;

    @Option(names = "--insecure-skip-tls-verify", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            description = "If true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure.")
    boolean insecureSkipTlsVerify;

    @Option(names = "--tls-server-name", paramLabel = "NAME",
            description = "Server name to use for server certificate validation (default: the server's hostname).")
    String tlsServerName;

    @Option(names = "--as", paramLabel = "USER", description = "Username to impersonate for the operation.")
    String as;

    @Option(names = "--as-group", paramLabel = "GROUP", description = "Group to impersonate for the operation. Repeatable.")
    List<String> asGroups = new ArrayList<>();

    @Option(names = "--as-uid", paramLabel = "UID", description = "UID to impersonate for the operation.")
    String asUid;

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
        return new ConnectionSettings(Optional.ofNullable(kubeconfig), Optional.ofNullable(context),
                Optional.ofNullable(cluster), Optional.ofNullable(user), Optional.ofNullable(namespace),
                allNamespaces, requestTimeout == null ? Duration.ZERO : requestTimeout, verbosity,
                new KubeconfigOverrides(Optional.ofNullable(server), Optional.ofNullable(certificateAuthority),
                        insecureSkipTlsVerify, Optional.ofNullable(tlsServerName), Optional.ofNullable(token),
                        Optional.ofNullable(clientCertificate), Optional.ofNullable(clientKey), Optional.ofNullable(as),
                        asGroups, Optional.ofNullable(asUid)));
    }

    /**
     * Connects as kubectl would with these flags, in the given environment.
     *
     * @param err the command's stderr, where {@code -v} writes
     */
    public ClusterConnection connect(Environment environment, PrintWriter err) {
        return KubeClients.connect(settings(), environment.client(), Version.get(), err);
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
