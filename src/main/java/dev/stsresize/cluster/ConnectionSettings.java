package dev.stsresize.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * kubectl's connection flags as plain values (the CLI fills it; nothing here knows picocli).
 *
 * @param kubeconfig {@code --kubeconfig}: the only file read when given (overrides KUBECONFIG)
 * @param context {@code --context}: instead of the kubeconfig's current-context
 * @param cluster {@code --cluster}: instead of the context's cluster
 * @param user {@code --user}: instead of the context's user
 * @param namespace {@code -n}: instead of the context's namespace
 * @param allNamespaces {@code -A}
 * @param requestTimeout {@code --request-timeout}; zero means no timeout
 * @param verbosity {@code -v}: 6 logs each request (method, URL, status, latency), 7 adds headers, 8 bodies
 * @param overrides {@code --server}, {@code --token}, {@code --as} and the other flags that override the kubeconfig's entries
 */
public record ConnectionSettings(Optional<Path> kubeconfig, Optional<String> context, Optional<String> cluster,
        Optional<String> user, Optional<String> namespace, boolean allNamespaces, Duration requestTimeout,
        int verbosity, KubeconfigOverrides overrides) {

    /** Without overriding flags. */
    public ConnectionSettings(Optional<Path> kubeconfig, Optional<String> context, Optional<String> cluster,
            Optional<String> user, Optional<String> namespace, boolean allNamespaces, Duration requestTimeout,
            int verbosity) {
        this(kubeconfig, context, cluster, user, namespace, allNamespaces, requestTimeout, verbosity,
                KubeconfigOverrides.NONE);
    }

    public ConnectionSettings {
        context = nonEmpty(context);
        cluster = nonEmpty(cluster);
        user = nonEmpty(user);
        namespace = nonEmpty(namespace);
        overrides = overrides == null ? KubeconfigOverrides.NONE : overrides;
        if (requestTimeout == null || requestTimeout.isNegative()) {
            throw new IllegalArgumentException("requestTimeout must be zero or positive");
        }
    }

    /** Everything from the kubeconfig, no overrides. */
    public static ConnectionSettings defaults() {
        return new ConnectionSettings(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), false, Duration.ZERO, 0);
    }

    public ConnectionSettings withKubeconfig(Path path) {
        return new ConnectionSettings(Optional.of(path), context, cluster, user, namespace, allNamespaces,
                requestTimeout, verbosity, overrides);
    }

    public ConnectionSettings withOverrides(KubeconfigOverrides flags) {
        return new ConnectionSettings(kubeconfig, context, cluster, user, namespace, allNamespaces, requestTimeout,
                verbosity, flags);
    }

    public ConnectionSettings withContext(String name) {
        return new ConnectionSettings(kubeconfig, Optional.of(name), cluster, user, namespace, allNamespaces,
                requestTimeout, verbosity, overrides);
    }

    public ConnectionSettings withNamespace(String name) {
        return new ConnectionSettings(kubeconfig, context, cluster, user, Optional.of(name), allNamespaces,
                requestTimeout, verbosity, overrides);
    }

    private static Optional<String> nonEmpty(Optional<String> s) {
        return s == null ? Optional.empty() : s.filter(v -> !v.isEmpty());
    }
}
