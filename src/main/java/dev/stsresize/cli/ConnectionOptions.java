package dev.stsresize.cli;

import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.cluster.ConnectionSettings;
import dev.stsresize.cluster.KubeClients;
import java.io.PrintWriter;
import dev.stsresize.cluster.KubectlDuration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.ITypeConverter;
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

    /** The flags as a plain value for {@code cluster/}. */
    public ConnectionSettings settings() {
        return new ConnectionSettings(Optional.ofNullable(kubeconfig), Optional.ofNullable(context),
                Optional.ofNullable(cluster), Optional.ofNullable(user), Optional.ofNullable(namespace),
                allNamespaces, requestTimeout == null ? Duration.ZERO : requestTimeout, verbosity);
    }

    /**
     * Connects as kubectl would with these flags, in this process's environment.
     *
     * @param err the command's stderr, where {@code -v} writes
     */
    public ClusterConnection connect(PrintWriter err) {
        return KubeClients.connect(settings(), ClientEnvironment.system(), Version.get(), err);
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
