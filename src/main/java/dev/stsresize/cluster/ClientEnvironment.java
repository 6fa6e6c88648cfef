package dev.stsresize.cluster;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What outside the flags decides where the client connects: environment variables (KUBECONFIG,
 * KUBERNETES_SERVICE_HOST/PORT), the home directory, the service-account directory of a pod, and
 * whether there is a terminal to lend an interactive credential plugin.
 * Injected so tests never read the real ones.
 */
public record ClientEnvironment(Map<String, String> variables, Path home, Path serviceAccountDir, boolean terminal) {
    public static final Path SERVICE_ACCOUNT_DIR = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    public ClientEnvironment {
        variables = Map.copyOf(variables);
    }

    public Optional<String> variable(String name) {
        return Optional.ofNullable(variables.get(name)).filter(v -> !v.isEmpty());
    }
}
