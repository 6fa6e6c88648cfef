package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The context chosen from a merged kubeconfig, with the flags' overrides applied.
 *
 * @param contextName "" when only {@code --cluster} chose
 * @param cluster the cluster map (server, certificate-authority(-data), insecure-skip-tls-verify, tls-server-name)
 * @param user the user map, empty when the context names none (anonymous)
 * @param namespace {@code -n}, else the context's namespace, else "default"
 * @param files the kubeconfig files it came from, for messages
 */
public record KubeconfigSelection(String contextName, String clusterName, ObjectNode cluster, String userName,
        ObjectNode user, String namespace, String files) {

    /** {@code context "kind-dev" of /home/me/.kube/config}, for messages. */
    public String origin() {
        if (contextName.isEmpty() && clusterName.isEmpty()) {
            return "the server " + cluster.path("server").asText() + " given with --server";
        }
        return contextName.isEmpty() ? "cluster \"" + clusterName + "\" of " + files
                : "context \"" + contextName + "\" of " + files;
    }
}
