package dev.stsresize.cli;

import dev.stsresize.UserError;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Assessment;
import dev.stsresize.converge.Assessor;
import dev.stsresize.converge.Progress;
import dev.stsresize.manifest.Manifest;
import dev.stsresize.manifest.ManifestReader;
import dev.stsresize.manifest.ReadLimits;
import dev.stsresize.manifest.SnapshotReader;
import dev.stsresize.plan.Decider;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.LiveState;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.usage.UsageReader;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kubectl stsresize plan}: the decision for every declared StatefulSet against a captured
 * cluster state, with no cluster at all. Writes nothing anywhere but stdout (the plan) and stderr.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Show what converging each StatefulSet of MANIFEST would take.",
            "Against the cluster, with the server's dry run of each re-apply; or, with --live, against a captured"
                    + " state, the output of: kubectl get sts,controllerrevisions,pvc,pv,sc,csidrivers,pods -A -o yaml",
            "",
            "Exit status: 0 nothing refused or blocked; 2 a StatefulSet is refused; 1 one is blocked or an error;"
                    + " with --exit-code, 3 when there is work to do (0 then means nothing to converge).",
        },
        footer = {"", "Examples:", "  kubectl stsresize plan -f statefulset.yaml",
            "  kubectl stsresize plan -f examples/manifest.yaml \\", "      --live examples/live-snapshot.yaml"})
public final class PlanCommand extends BaseCommand {
    @Mixin ManifestOptions manifestFiles;

    @Mixin LiveOptions live;

    @Mixin ConnectionOptions connection;

    @Mixin OutputFormat.DocumentOption output;

    @Mixin ColorOption color;

    @Option(names = "--exit-code", description = "Exit 3 when there is work to do, like git diff --exit-code.")
    boolean exitCode;

    @Option(names = "--no-usage", description = "Do not read how full the claims are (no nodes/proxy, no Prometheus).")
    boolean noUsage;

    @Mixin UsageOptions usage;

    @Mixin CopyOptions copyOptions;

    private final Environment environment;
    private final InputStream stdin;
    private final boolean terminal;
    private final Map<String, String> env;

    /** The reading of {@code -f} begun with the command line, if any ({@link EarlyManifest}). */
    private final Optional<EarlyManifest> early;

    PlanCommand(Environment environment, Optional<EarlyManifest> early) {
        this.environment = environment;
        this.early = early;
        this.stdin = environment.stdin();
        this.terminal = environment.console();
        this.env = environment.variables();
    }

    @Override
    protected int run() {
        String namespace = connection.namespace;
        boolean allNamespaces = connection.allNamespaces;
        int verbosity = connection.verbosity;
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!live.offline()) {
            return fromCluster(out, err);
        }
        boolean explicit = namespace != null;
        String ns = explicit ? namespace : "default";
        Manifest manifest = manifestFiles.read(stdin, ns, explicit, early);
        if (verbosity >= 2) {
            err.println("read " + manifest.statefulSets().size() + " StatefulSet(s) from the manifest; skipped "
                    + manifest.skippedCount() + " other document(s)" + (manifest.skipped().isEmpty() ? "" : ": " + describe(manifest.skipped())));
        }
        Set<String> scope = allNamespaces ? null : manifest.namespaces();
        LiveState state = new SnapshotReader(stdin, ReadLimits.SNAPSHOT).read(live.snapshots, scope);
        if (verbosity >= 2) {
            err.println("snapshot: " + state.statefulSets().size() + " StatefulSet(s), " + state.claims().size() + " claim(s), "
                    + state.storageClasses().size() + " StorageClass(es)" + (scope == null ? " in every namespace" : " in " + String.join(", ", scope)));
        }
        List<Decision> decisions = Decider.decide(manifest.objects(), state, copyOptions.optIn());
        render(out, decisions, Optional.empty());
        return ResultPrinter.exitCode(decisions, exitCode);
    }

    /** The plan from the live cluster: 3 LISTs (StatefulSets, claims, StorageClasses) and one dry run per StatefulSet to recreate. */
    private int fromCluster(PrintWriter out, PrintWriter err) {
        // the manifest is read while the kubeconfig is and the connection made; checked once its namespace is known
        Optional<ManifestReader.Ahead> ahead = manifestFiles.readAhead(stdin, early);
        ClusterConnection conn = connection.connect(environment, err);
        boolean explicit = connection.namespace != null;
        Assessor assessor = new Assessor(conn.cluster(), connection.verbosity >= 2 ? new ProgressPrinter(err) : Progress.NONE)
                .copying(copyOptions.optIn());
        if (connection.allNamespaces) {
            err.println(conn.target()); // -A reads before the manifest: said before the first request
            // with -A the LISTs do not depend on the manifest: the server answers them while it is read
            assessor.prefetchAllNamespaces();
        }
        Optional<UsageReader> reader = noUsage ? Optional.empty() : Optional.of(usage.reader(conn.cluster(), conn));
        // so are the usage's pod and quota LISTs and Prometheus' queries
        Optional<UsageReader.Started> usageStarted = PlanUsage.early(reader, connection.allNamespaces);
        Manifest manifest = ahead.isPresent() ? ahead.get().manifest(conn.defaultNamespace(), explicit)
                : manifestFiles.read(stdin, conn.defaultNamespace(), explicit);
        if (!connection.allNamespaces) {
            err.println(conn.target()); // after the manifest, so that its error stays the one paragraph; before any request
        }
        if (connection.verbosity >= 2) {
            err.println("read " + manifest.statefulSets().size() + " StatefulSet(s) from the manifest; skipped "
                    + manifest.skippedCount() + " other document(s)" + (manifest.skipped().isEmpty() ? "" : ": " + describe(manifest.skipped())));
        }
        // the usage is read while the plan's LISTs and dry runs run: it needs only the manifest's names
        Optional<PlanUsage> planUsage = reader.map(r -> PlanUsage.start(r, usageStarted, manifest.objects(), connection.allNamespaces,
                usage.policy(spec)));
        Assessment assessment = assessor.assess(manifest.objects(), connection.allNamespaces, Assessor.Depth.PLAN, false, Optional.empty());
        ResultPrinter.notes(assessment.notes(), err);
        List<Decision> decisions = assessment.items().stream().map(Assessed::decision).toList();
        Optional<Map<String, StatefulSetUsage>> usageByKey = planUsage.map(u -> u.finish(assessment.items()));
        planUsage.ifPresent(u -> ResultPrinter.notes(u.notes(), err));
        render(out, decisions, usageByKey);
        boolean failed = false;
        for (Assessed a : assessment.items()) {
            if (a.failure() != null) {
                err.println("error: " + a.failure());
                failed = true;
            }
        }
        int code = ResultPrinter.exitCode(decisions, exitCode);
        return failed && code != ExitCodes.REFUSED ? ExitCodes.FAILED : code;
    }

    private void render(PrintWriter out, List<Decision> decisions, Optional<Map<String, StatefulSetUsage>> usageByKey) {
        ResultPrinter.plan(decisions, usageByKey, output.format, color.palette(environment.console(), environment.variables().get("NO_COLOR")),
                TerminalWidth.of(environment.variables(), false, environment.console()), copyOptions.optIn(), out);
    }

    @Override
    protected void validate() {
        manifestFiles.require(spec);
        manifestFiles.validate();
        connection.validate(spec);
        usage.validate(spec);
        copyOptions.validate(spec);
        live.validate(manifestFiles);
    }

    private static String describe(Map<String, Integer> skipped) {
        List<String> parts = new ArrayList<>();
        skipped.forEach((kind, n) -> parts.add(kind + " x" + n));
        return String.join(", ", parts);
    }
}
