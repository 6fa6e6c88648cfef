package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One or more kubeconfig files merged as kubectl merges them: for clusters, users and contexts the
 * first file that defines a name wins; current-context comes from the first file that sets it.
 * Relative file references are already resolved against the file that held them.
 *
 * @param clusters name → the {@code cluster} map of the entry
 * @param users name → the {@code user} map
 * @param contexts name → the {@code context} map
 * @param currentContext the merged current-context, "" when no file sets one
 * @param files the files read, in order (for messages)
 */
public record Kubeconfig(Map<String, ObjectNode> clusters, Map<String, ObjectNode> users,
        Map<String, ObjectNode> contexts, String currentContext, List<Path> files) {

    /** The cluster, user and namespace the settings pick, or a user error naming what is missing. */
    public KubeconfigSelection select(ConnectionSettings settings) {
        String contextName = settings.context().orElse(currentContext);
        KubeconfigOverrides flags = settings.overrides();
        ObjectNode context;
        if (contextName.isEmpty()) {
            if (settings.cluster().isEmpty() && flags.server().isEmpty()) {
                throw new UserError("the kubeconfig " + describeFiles() + " sets no current-context; pass --context"
                        + contextChoice() + ", or set one with kubectl config use-context NAME.");
            }
            context = ObjectNodes.empty();
        } else {
            context = contexts.get(contextName);
            if (context == null) {
                throw new UserError("context \"" + contextName + "\" is not defined in the kubeconfig " + describeFiles()
                        + "; " + (settings.context().isPresent() ? "fix --context" : "fix its current-context")
                        + contextChoice() + " (kubectl config get-contexts lists them).");
            }
        }
        String clusterName = settings.cluster().orElse(context.path("cluster").asText(""));
        ObjectNode cluster = clusters.get(clusterName);
        if (cluster == null && settings.cluster().isEmpty() && flags.server().isPresent()) {
            cluster = ObjectNodes.empty(); // client-go: a context's cluster is not required when --server names one
        }
        if (cluster == null) {
            throw new UserError((settings.cluster().isPresent() ? "cluster \"" + clusterName + "\" given with --cluster"
                    : "context \"" + contextName + "\" names cluster \"" + clusterName + "\", which")
                    + " is not defined in the kubeconfig " + describeFiles()
                    + "; add it (kubectl config set-cluster) or pick another with --cluster or --context.");
        }
        cluster = withClusterFlags(cluster, flags);
        if (cluster.path("server").asText("").isEmpty()) {
            throw new UserError("cluster \"" + clusterName + "\" in the kubeconfig " + describeFiles()
                    + " has no server URL; set one with kubectl config set-cluster " + clusterName + " --server=URL.");
        }
        String userName = settings.user().orElse(context.path("user").asText(""));
        ObjectNode user = users.get(userName);
        if (user == null && settings.user().isPresent()) {
            throw new UserError("user \"" + userName + "\" given with --user is not defined in the kubeconfig "
                    + describeFiles() + "; pick one of " + String.join(", ", users.keySet().stream().sorted().toList())
                    + ", or drop --user.");
        }
        String namespace = settings.namespace().orElse(context.path("namespace").asText(""));
        return new KubeconfigSelection(contextName, clusterName, cluster, userName,
                withUserFlags(user == null ? ObjectNodes.empty() : user, flags), namespace.isEmpty() ? "default" : namespace,
                describeFiles());
    }

    /**
     * client-go's getCluster: each flag given replaces that field; {@code --insecure-skip-tls-verify}
     * or {@code --certificate-authority} replaces all three CA settings (so the kubeconfig's CA does
     * not clash with the flag); {@code --server} or {@code --tls-server-name} replaces tls-server-name.
     */
    static ObjectNode withClusterFlags(ObjectNode kubeconfigCluster, KubeconfigOverrides flags) {
        ObjectNode cluster = kubeconfigCluster.deepCopy();
        flags.server().ifPresent(s -> cluster.put("server", s));
        if (flags.insecureSkipTlsVerify() || flags.certificateAuthority().isPresent()) {
            cluster.remove(List.of("certificate-authority", "certificate-authority-data", "insecure-skip-tls-verify"));
            flags.certificateAuthority().ifPresent(ca -> cluster.put("certificate-authority", ca));
            if (flags.insecureSkipTlsVerify()) {
                cluster.put("insecure-skip-tls-verify", true);
            }
        }
        if (flags.server().isPresent() || flags.tlsServerName().isPresent()) {
            cluster.remove("tls-server-name");
            flags.tlsServerName().ifPresent(n -> cluster.put("tls-server-name", n));
        }
        return cluster;
    }

    /** client-go's getAuthInfo: each flag given replaces that field of the user (mergo.WithOverride). */
    static ObjectNode withUserFlags(ObjectNode kubeconfigUser, KubeconfigOverrides flags) {
        ObjectNode user = kubeconfigUser.deepCopy();
        flags.token().ifPresent(t -> user.put("token", t));
        flags.clientCertificate().ifPresent(f -> user.put("client-certificate", f));
        flags.clientKey().ifPresent(f -> user.put("client-key", f));
        flags.as().ifPresent(a -> user.put("as", a));
        if (!flags.asGroups().isEmpty()) {
            flags.asGroups().forEach(user.putArray("as-groups")::add);
        }
        flags.asUid().ifPresent(u -> user.put("as-uid", u));
        return user;
    }

    /** The files read, as KUBECONFIG would list them. */
    public String describeFiles() {
        return String.join(":", files.stream().map(Path::toString).toList());
    }

    private String contextChoice() {
        if (contexts.isEmpty()) {
            return "";
        }
        return " (one of: " + String.join(", ", contexts.keySet().stream().sorted().toList()) + ")";
    }
}
