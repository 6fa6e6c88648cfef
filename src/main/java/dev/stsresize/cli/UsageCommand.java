package dev.stsresize.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.converge.Together;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.usage.UsageReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kubectl stsresize usage}: every StatefulSet of the namespaces in scope, not only a manifest's, with how
 * full its claims are, fullest first, the suggested sizes and the {@code set-size} line that applies each.
 * Reads only; what cannot be read is a note on stderr, never an error.
 */
@Command(
        name = "usage",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "List the StatefulSets of a namespace with how full their claims are, fullest first.",
            "The namespace is -n's, else the context's; -A lists all. Usage comes from the kubelets' summaries"
                    + " through the API server (nodes/proxy get), the growth and time to full from --prometheus; each row"
                    + " has a suggested size per template and the set-size command line that writes it into a manifest.",
        },
        footer = {"", "Examples:", "  kubectl stsresize usage -A",
            "  kubectl stsresize usage -n payments --days 30 \\",
            "      -f k8s/ledger.yaml --prometheus \\",
            "      http://prometheus-k8s.monitoring.svc:9090"})
public final class UsageCommand extends BaseCommand {
    @Mixin ConnectionOptions connection;

    @Mixin UsageOptions usage;

    /** The manifest whose StatefulSets the report covers; read as plan reads it, so a file that is not one is refused. */
    @Mixin ManifestOptions manifestFiles;

    @Mixin OutputFormat.DocumentOption output;

    @Mixin ColorOption color;

    private final Environment environment;
    private final boolean terminal;
    private final Map<String, String> env;

    public UsageCommand(Environment environment) {
        this.environment = environment;
        this.terminal = environment.console();
        this.env = environment.variables();
    }

    @Override
    protected void validate() {
        connection.validate(spec);
        usage.validate(spec);
        manifestFiles.validate();
    }

    @Override
    protected int run() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ClusterConnection conn = connection.connect(environment, err);
        err.println(conn.target());
        Cluster cluster = conn.cluster();
        String namespace = connection.namespace != null ? connection.namespace : conn.defaultNamespace();
        Set<String> declared = manifestFiles.given()
                ? declaredKeys(manifestFiles.read(environment.stdin(), namespace, connection.namespace != null)) : null;
        List<NamespaceScope> scopes = scopes(declared, namespace);
        List<ObjectNode> statefulSets = listed(cluster, scopes).stream()
                .filter(s -> declared == null || declared.contains(key(s))).toList();
        UsageReport report = usage.reader(cluster, conn).read(statefulSets, scopes, usage.policy(spec));
        List<StatefulSetUsage> known = report.fullestFirst();
        Set<String> knownKeys = new TreeSet<>();
        known.forEach(u -> knownKeys.add(u.key()));
        List<String> unknown = new ArrayList<>();
        for (ObjectNode s : statefulSets) {
            if (!knownKeys.contains(key(s))) {
                unknown.add(key(s));
            }
        }
        unknown.sort(null);
        String file = manifestFiles.files.size() == 1 && !manifestFiles.recursive && java.nio.file.Files.isRegularFile(
                java.nio.file.Path.of(manifestFiles.files.get(0))) ? manifestFiles.files.get(0) : "MANIFEST";
        if (output.format == OutputFormat.Document.table && statefulSets.isEmpty()) {
            err.println("No StatefulSets in " + String.join(", ", scopes.stream().map(String::valueOf).toList()) + ".");
        } else {
            ResultPrinter.usage(known, unknown, report.unmeasured(), report.notes(), file, output.format, color.palette(terminal, env.get("NO_COLOR")), out);
        }
        if (output.format == OutputFormat.Document.table) {
            ResultPrinter.notes(report.notes(), err);
        }
        return ExitCodes.OK;
    }

    /**
     * Where to LIST: all namespaces with {@code -A}; with a manifest, each namespace it names (as plan reads them), so
     * a namespace admin's report of a manifest outside the context's namespace needs no cluster-wide LIST; else the
     * one namespace.
     */
    private List<NamespaceScope> scopes(Set<String> declared, String namespace) {
        if (connection.allNamespaces) {
            return List.of(NamespaceScope.all());
        }
        if (declared == null) {
            return List.of(NamespaceScope.of(namespace));
        }
        Set<String> namespaces = new TreeSet<>();
        declared.forEach(k -> namespaces.add(k.substring(0, k.indexOf('/'))));
        return namespaces.stream().map(NamespaceScope::of).toList();
    }

    /** The StatefulSets of each scope, the LISTs sent together: a manifest over several namespaces costs one round trip. */
    private static List<ObjectNode> listed(Cluster cluster, List<NamespaceScope> scopes) {
        List<Callable<List<ObjectNode>>> lists = scopes.stream()
                .<Callable<List<ObjectNode>>>map(s -> () -> cluster.listStatefulSets(s).items()).toList();
        return Together.all(lists).stream().flatMap(List::stream).toList();
    }

    private static String key(ObjectNode s) {
        return s.path("metadata").path("namespace").asText() + "/" + s.path("metadata").path("name").asText();
    }

    private static Set<String> declaredKeys(dev.stsresize.manifest.Manifest m) {
        Set<String> keys = new java.util.HashSet<>();
        m.objects().forEach(o -> keys.add(key(o)));
        return keys;
    }
}
