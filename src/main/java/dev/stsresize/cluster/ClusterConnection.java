package dev.stsresize.cluster;

import io.kubernetes.client.openapi.ApiClient;

/**
 * A configured client and where it points: what {@link KubeClients} resolved from the kubeconfig
 * (or the pod's service account) and the flags.
 *
 * @param client the client-java client: base path, TLS, credentials, User-Agent, timeouts
 * @param server the API server URL, for messages
 * @param origin where the settings came from, for messages: {@code context "kind-dev" of /home/me/.kube/config}
 * @param defaultNamespace {@code -n}, else the context's namespace, else "default"
 */
public record ClusterConnection(ApiClient client, String server, String origin, String defaultNamespace) {

    /**
     * Which cluster this is, said by every command that connects before its first request: a kubeconfig found
     * elsewhere than where the operator's kubectl looks would otherwise reach another cluster unnoticed.
     */
    public String target() {
        return "cluster: " + server + " (" + origin + ")";
    }

    /** The port over this connection, with transient failures retried: what the commands use. */
    public Cluster cluster() {
        return new RetryingCluster(new KubeCluster(this));
    }
}
