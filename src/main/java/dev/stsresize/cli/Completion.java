package dev.stsresize.cli;

import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.cluster.ConnectionSettings;
import dev.stsresize.cluster.KubeClients;
import dev.stsresize.cluster.KubeCluster;
import dev.stsresize.cluster.KubeconfigOverrides;
import dev.stsresize.cluster.Kubeconfig;
import dev.stsresize.cluster.KubeconfigLoader;
import dev.stsresize.cluster.NamespaceScope;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code kubectl stsresize __complete WORD... PARTIAL}: completion candidates in cobra's format, so
 * kubectl (≥ 1.26, through {@code kubectl_complete-stsresize}) and the scripts of {@code completion}
 * read them as they read any cobra program's: one candidate per line ({@code name<TAB>description}),
 * then {@code :<directive>}. Read from the command tree itself, so a new flag completes without
 * edits here; {@code --context}, {@code --cluster} and {@code --user} from the kubeconfig;
 * {@code -n} and {@code resume}'s StatefulSets from the cluster (one request, a second at most). Never fails: a
 * broken kubeconfig or an unreachable cluster just offers nothing.
 */
public final class Completion {
    public static final String COMMAND = "__complete";
    // cobra's ShellCompDirective bits
    static final int DEFAULT = 0;
    static final int NO_FILE_COMP = 4;
    /** The positional that names StatefulSets ({@code resume}'s), completed from the cluster. */
    static final String STATEFUL_SET = "NAMESPACE/NAME";
    /**
     * How long a completion waits for the cluster's answer (the request's timeout, the TLS handshake
     * included: a cold JVM's first handshake with a client certificate is slow on a loaded machine).
     */
    static final Duration CLUSTER_BUDGET = Duration.ofSeconds(2);
    /** How long it waits in all, an exec plugin included: beyond that, a completion is worse than none. */
    static final Duration CLUSTER_BACKSTOP = Duration.ofSeconds(4);

    /** Values of string-typed flags that the command tree cannot tell (enums complete by themselves). */
    private static final Map<String, List<String>> VALUES = Map.of("--color", List.of("auto", "always", "never"));

    private final CommandLine root;
    private final ClientEnvironment env;

    public Completion(CommandLine root, ClientEnvironment env) {
        this.root = root;
        this.env = env;
    }

    /** @param words the words after the plugin's name; the last is the one being completed ("" for a new word) */
    public int run(List<String> words, PrintWriter out) {
        List<String> candidates = new ArrayList<>();
        int directive = complete(words.isEmpty() ? List.of("") : words, candidates);
        candidates.forEach(out::println);
        out.println(":" + directive);
        out.flush();
        return 0;
    }

    int complete(List<String> words, List<String> out) {
        CommandSpec spec = root.getCommandSpec();
        Optional<Path> kubeconfig = Optional.empty();
        Map<String, String> given = new HashMap<>(); // an option's longest name -> its value on the line (the last wins)
        OptionSpec pending = null;
        boolean kubeconfigNext = false;
        for (String word : words.subList(0, words.size() - 1)) {
            if (kubeconfigNext) {
                kubeconfig = Optional.of(Path.of(word));
            }
            // --kubeconfig counts wherever it stands, as kubectl's own completion reads it
            kubeconfigNext = word.equals("--kubeconfig");
            if (word.startsWith("--kubeconfig=")) {
                kubeconfig = Optional.of(Path.of(word.substring("--kubeconfig=".length())));
            }
            if (pending != null) {
                given.put(pending.longestName(), word);
                pending = null;
            } else if (word.equals("--insecure-skip-tls-verify") || word.equals("--insecure-skip-tls-verify=true")) {
                given.put("--insecure-skip-tls-verify", "true");
            } else if (word.startsWith("-")) {
                OptionSpec o = spec.findOption(word.contains("=") ? word.substring(0, word.indexOf('=')) : word);
                if (o != null && takesValue(o)) {
                    if (word.contains("=")) {
                        given.put(o.longestName(), word.substring(word.indexOf('=') + 1));
                    } else {
                        pending = o;
                    }
                }
            } else if (spec.subcommands().containsKey(word)) {
                spec = spec.subcommands().get(word).getCommandSpec();
            }
        }
        Line line = new Line(kubeconfig, given);
        String partial = words.get(words.size() - 1);
        if (pending != null) {
            return values(pending, "", partial, line, out);
        }
        if (partial.startsWith("-") && partial.contains("=")) {
            OptionSpec o = spec.findOption(partial.substring(0, partial.indexOf('=')));
            return o == null || !takesValue(o) ? NO_FILE_COMP
                    : values(o, partial.substring(0, partial.indexOf('=') + 1), partial.substring(partial.indexOf('=') + 1), line, out);
        }
        if (partial.startsWith("-")) {
            for (OptionSpec o : spec.options()) {
                for (String name : o.names()) {
                    if (!o.hidden() && name.startsWith(partial)) {
                        out.add(name + "\t" + firstLine(o.description()));
                    }
                }
            }
            return NO_FILE_COMP;
        }
        for (var positional : spec.positionalParameters()) {
            Iterable<String> values = positional.paramLabel().equals(STATEFUL_SET)
                    ? statefulSets(line) : positional.completionCandidates();
            if (values != null) {
                values.forEach(v -> {
                    if (v.startsWith(partial)) {
                        out.add(v);
                    }
                });
            }
        }
        spec.subcommands().forEach((name, sub) -> {
            if (!sub.getCommandSpec().usageMessage().hidden() && name.startsWith(partial)) {
                out.add(name + "\t" + firstLine(sub.getCommandSpec().usageMessage().description()));
            }
        });
        return NO_FILE_COMP;
    }

    private int values(OptionSpec o, String prefix, String partial, Line line, List<String> out) {
        Collection<String> known = switch (o.longestName()) {
            case "--context" -> kubeconfig(line.kubeconfig()).map(k -> k.contexts().keySet()).orElse(java.util.Set.of());
            case "--cluster" -> kubeconfig(line.kubeconfig()).map(k -> k.clusters().keySet()).orElse(java.util.Set.of());
            case "--user" -> kubeconfig(line.kubeconfig()).map(k -> k.users().keySet()).orElse(java.util.Set.of());
            case "--namespace" -> namespaces(line);
            case "--copy-class" -> storageClasses(line);
            default -> candidates(o);
        };
        if (known == null) {
            // a path: let the shell complete files; anything else free text
            return isPath(o) ? DEFAULT : NO_FILE_COMP;
        }
        for (String v : known) {
            if (v.startsWith(partial)) {
                out.add(prefix + v);
            }
        }
        return NO_FILE_COMP;
    }

    private static Collection<String> candidates(OptionSpec o) {
        List<String> fixed = VALUES.get(o.longestName());
        if (fixed != null) {
            return fixed;
        }
        Iterable<String> c = o.completionCandidates();
        if (c == null) {
            return null;
        }
        List<String> list = new ArrayList<>();
        c.forEach(list::add);
        return list;
    }

    /** What the words before the one being completed say about the connection. */
    private record Line(Optional<Path> kubeconfig, Map<String, String> given) {
        /** The cluster the command on the line would reach, as it would reach it (the overriding flags included). */
        ConnectionSettings settings() {
            return new ConnectionSettings(kubeconfig, Optional.ofNullable(given.get("--context")),
                    Optional.ofNullable(given.get("--cluster")), Optional.ofNullable(given.get("--user")),
                    Optional.ofNullable(given.get("--namespace")), false, CLUSTER_BUDGET, 0,
                    new KubeconfigOverrides(value("--server"), value("--certificate-authority"),
                            given.containsKey("--insecure-skip-tls-verify"), value("--tls-server-name"), value("--token"),
                            value("--client-certificate"), value("--client-key"), value("--as"),
                            value("--as-group").stream().toList(), value("--as-uid")));
        }

        private Optional<String> value(String option) {
            return Optional.ofNullable(given.get(option));
        }
    }

    /** {@code resume}'s NAMESPACE/NAME: the StatefulSets of {@code -n}'s namespace, else of every namespace. */
    private List<String> statefulSets(Line line) {
        NamespaceScope scope = line.settings().namespace().map(NamespaceScope::of).orElse(NamespaceScope.all());
        return fromCluster(line, cluster -> cluster.listStatefulSets(scope).items().stream()
                .map(s -> s.path("metadata").path("namespace").asText() + "/" + s.path("metadata").path("name").asText())
                .sorted().toList());
    }

    /**
     * {@code -n}: the namespaces that hold StatefulSets (the only ones this plugin acts in), read from
     * the one LIST {@code resume} completes from, so no permission beyond the plugin's own is needed.
     */
    private List<String> namespaces(Line line) {
        return fromCluster(line, cluster -> cluster.listStatefulSets(NamespaceScope.all()).items().stream()
                .map(s -> s.path("metadata").path("namespace").asText()).distinct().sorted().toList());
    }

    /** {@code --copy-class}: the cluster's StorageClasses (one LIST, as the plan reads them); none where they are forbidden. */
    private List<String> storageClasses(Line line) {
        return fromCluster(line, cluster -> cluster.listStorageClasses() instanceof dev.stsresize.cluster.StorageClassList.Visible v
                ? v.items().stream().map(c -> c.path("metadata").path("name").asText()).sorted().toList() : List.of());
    }

    /**
     * Asks the cluster the words point at: one request bounded by {@link #CLUSTER_BUDGET}, and
     * everything (reading the kubeconfig, an exec plugin, the request) by {@link #CLUSTER_BACKSTOP}.
     * Nothing on any error, never a word on stderr.
     */
    private List<String> fromCluster(Line line, Function<Cluster, List<String>> ask) {
        ExecutorService one = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "completion");
            t.setDaemon(true); // an exec plugin or a request still running does not hold the answer back
            return t;
        });
        try {
            Future<List<String>> answer = one.submit(() -> {
                PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
                ClusterConnection connection = KubeClients.connect(line.settings(), env, Version.get(), nowhere);
                return ask.apply(new KubeCluster(connection)); // no retries: one try within the budget
            });
            return answer.get(CLUSTER_BACKSTOP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return List.of();
        } finally {
            one.shutdownNow();
        }
    }

    private Optional<Kubeconfig> kubeconfig(Optional<Path> explicit) {
        try {
            ConnectionSettings settings = explicit.map(ConnectionSettings.defaults()::withKubeconfig).orElse(ConnectionSettings.defaults());
            return KubeconfigLoader.load(settings, env);
        } catch (RuntimeException e) {
            return Optional.empty(); // completion must never print an error mid-line
        }
    }

    private static boolean takesValue(OptionSpec o) {
        return o.arity().max() > 0 && !o.typeInfo().isBoolean();
    }

    private static boolean isPath(OptionSpec o) {
        Class<?> t = o.typeInfo().getAuxiliaryTypes().length > 0 ? o.typeInfo().getAuxiliaryTypes()[0] : o.type();
        String label = o.paramLabel();
        return Path.class.isAssignableFrom(t) || java.io.File.class.isAssignableFrom(t)
                || label.matches("FILE|DIR|MANIFEST|SNAPSHOT|PATH");
    }

    private static String firstLine(String[] description) {
        return description.length == 0 ? "" : description[0].replaceAll("\\$\\{[^}]*}", "").trim();
    }
}
