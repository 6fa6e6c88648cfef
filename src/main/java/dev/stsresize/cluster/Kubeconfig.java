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
        ObjectNode context;
        if (contextName.isEmpty()) {
            if (settings.cluster().isEmpty()) {
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
        if (cluster == null) {
            throw new UserError((settings.cluster().isPresent() ? "cluster \"" + clusterName + "\" given with --cluster"
                    : "context \"" + contextName + "\" names cluster \"" + clusterName + "\", which")
                    + " is not defined in the kubeconfig " + describeFiles()
                    + "; add it (kubectl config set-cluster) or pick another with --cluster or --context.");
        }
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
                user == null ? ObjectNodes.empty() : user, namespace.isEmpty() ? "default" : namespace,
                describeFiles());
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
