package dev.stsresize.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stsresize.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds and merges kubeconfig files by kubectl's loading rules: {@code --kubeconfig} alone when
 * given (it must exist); else every existing file of KUBECONFIG (missing ones are skipped, as
 * kubectl skips them); else {@code $HOME/.kube/config} ({@link HomeDirectory}, as kubectl). Empty when none applies, so the caller can try
 * the pod's service account.
 */
public final class KubeconfigLoader {
    private static final YAMLMapper YAML = new YAMLMapper();
    /** Fields holding file paths, resolved against the kubeconfig that names them (clientcmd's ResolvePaths). */
    private static final List<String> CLUSTER_PATHS = List.of("certificate-authority");
    private static final List<String> USER_PATHS = List.of("client-certificate", "client-key", "tokenFile");

    private KubeconfigLoader() {}

    public static Optional<Kubeconfig> load(ConnectionSettings settings, ClientEnvironment env) {
        List<Path> files = locate(settings, env);
        return files.isEmpty() ? Optional.empty() : Optional.of(merge(files));
    }

    /** The files to read, in precedence order; empty when there is no kubeconfig at all. */
    static List<Path> locate(ConnectionSettings settings, ClientEnvironment env) {
        if (settings.kubeconfig().isPresent()) {
            Path explicit = settings.kubeconfig().get();
            if (!Files.isRegularFile(explicit)) {
                throw new UserError("the kubeconfig file " + explicit + " given with --kubeconfig does not exist;"
                        + " pass the path of an existing kubeconfig, or drop --kubeconfig to use KUBECONFIG or ~/.kube/config.");
            }
            return List.of(explicit);
        }
        Optional<String> variable = env.variable("KUBECONFIG");
        if (variable.isPresent()) {
            LinkedHashSet<Path> listed = new LinkedHashSet<>();
            for (String part : variable.get().split(java.io.File.pathSeparator)) {
                if (!part.isBlank()) {
                    listed.add(Path.of(part));
                }
            }
            List<Path> existing = listed.stream().filter(Files::isRegularFile).toList();
            if (existing.isEmpty() && !listed.isEmpty()) {
                throw new UserError("none of the kubeconfig files in KUBECONFIG exists (" + variable.get()
                        + "); point KUBECONFIG at your cluster's kubeconfig, or pass --kubeconfig FILE.");
            }
            return existing;
        }
        // absolute for messages: with $HOME unset, kubectl's .kube/config is the working directory's
        Path home = HomeDirectory.recommendedKubeconfig(env.home().toString()).toAbsolutePath();
        return Files.isRegularFile(home) ? List.of(home) : List.of();
    }

    /** Merges files first-wins, as kubectl does. */
    public static Kubeconfig merge(List<Path> files) {
        Map<String, ObjectNode> clusters = new LinkedHashMap<>();
        Map<String, ObjectNode> users = new LinkedHashMap<>();
        Map<String, ObjectNode> contexts = new LinkedHashMap<>();
        String currentContext = "";
        for (Path file : files) {
            ObjectNode doc = read(file);
            Path dir = file.toAbsolutePath().getParent();
            addNamed(doc, "clusters", "cluster", clusters, entry -> resolve(entry, CLUSTER_PATHS, dir));
            addNamed(doc, "users", "user", users, entry -> {
                resolve(entry, USER_PATHS, dir);
                resolveExecCommand(entry, dir);
            });
            addNamed(doc, "contexts", "context", contexts, entry -> {});
            if (currentContext.isEmpty()) {
                currentContext = doc.path("current-context").asText("");
            }
        }
        return new Kubeconfig(clusters, users, contexts, currentContext, List.copyOf(files));
    }

    private static ObjectNode read(Path file) {
        try {
            String text = Files.readString(file);
            if (text.isBlank()) {
                return ObjectNodes.empty(); // kubectl accepts an empty kubeconfig
            }
            JsonNode node = YAML.readTree(text);
            if (node == null || node.isMissingNode() || node.isNull()) {
                return ObjectNodes.empty();
            }
            if (!(node instanceof ObjectNode o)) {
                throw new UserError("the kubeconfig file " + file + " is not a kubeconfig (its top level is not a map);"
                        + " fix or regenerate it, or pass another with --kubeconfig.");
            }
            return o;
        } catch (JsonProcessingException e) {
            throw new UserError("the kubeconfig file " + file + " is not valid YAML ("
                    + e.getOriginalMessage().lines().findFirst().orElse("") + lineOf(e)
                    + "); fix it, or pass another with --kubeconfig."); // no cause: its snippet may show a token or key
        } catch (IOException e) {
            throw new UserError("cannot read the kubeconfig file " + file + " (" + e.getMessage()
                    + "); check its permissions, or pass another with --kubeconfig.", e);
        }
    }

    private static String lineOf(JsonProcessingException e) {
        return e.getLocation() == null ? "" : ", line " + e.getLocation().getLineNr();
    }

    private static void addNamed(ObjectNode doc, String listField, String itemField, Map<String, ObjectNode> into,
            java.util.function.Consumer<ObjectNode> fixPaths) {
        for (JsonNode entry : doc.path(listField)) {
            String name = entry.path("name").asText("");
            if (name.isEmpty() || into.containsKey(name)) {
                continue; // first file defining a name wins
            }
            ObjectNode body = entry.path(itemField) instanceof ObjectNode o ? o.deepCopy() : ObjectNodes.empty();
            fixPaths.accept(body);
            into.put(name, body);
        }
    }

    private static void resolve(ObjectNode entry, List<String> fields, Path dir) {
        for (String field : fields) {
            String value = entry.path(field).asText("");
            if (!value.isEmpty()) {
                entry.put(field, resolvePath(value, dir));
            }
        }
    }

    /** An exec command with a path separator is relative to the kubeconfig; a bare name is looked up on PATH. */
    private static void resolveExecCommand(ObjectNode user, Path dir) {
        if (user.path("exec") instanceof ObjectNode exec) {
            String command = exec.path("command").asText("");
            if (command.contains("/")) {
                exec.put("command", resolvePath(command, dir));
            }
        }
    }

    private static String resolvePath(String value, Path dir) {
        Path p = Path.of(value);
        return (p.isAbsolute() ? p : dir.resolve(p)).normalize().toString();
    }

}
