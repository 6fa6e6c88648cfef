package dev.stsresize.cli;

import dev.stsresize.UserError;
import dev.stsresize.manifest.ApiNames;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.Gate;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.LeaseLock;
import dev.stsresize.converge.Operator;
import dev.stsresize.converge.Record;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.render.DocumentWriter;
import dev.stsresize.render.ResultDocument;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kubectl stsresize resume}: finishes the runs this machine's journal records for this cluster
 * (or, named as NAMESPACE/NAME, the run recorded in that StatefulSet's Lease): an absent StatefulSet
 * is re-applied from the recorded object, claims already grown are skipped.
 */
@Command(
        name = "resume",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {"Finish an interrupted apply from its Lease or the local journal."})
public final class ResumeCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin ConnectionOptions connection;

    @Parameters(paramLabel = "NAMESPACE/NAME", arity = "0..*",
            description = "StatefulSets whose Lease records a run (default: every run in the local journal).")
    List<String> targets = new ArrayList<>();

    @Option(names = "--take-over", description = "Take over the Lease of a run that stopped renewing it.")
    boolean takeOver;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10m", converter = ConnectionOptions.DurationConverter.class,
            description = "How long to wait for resizes and adoption. Default: ${DEFAULT-VALUE}.")
    Duration timeout;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table", description = "table or json.")
    String output;

    @Option(names = "--debug", hidden = true, description = "Stack traces on errors.")
    boolean debug;

    private final Map<String, String> env;
    private final Checkpoint checkpoint;

    public ResumeCommand(Map<String, String> env, Checkpoint checkpoint) {
        this.env = env;
        this.checkpoint = checkpoint;
    }

    /**
     * Whether Leases may be used in {@code namespace}; where RBAC forbids them the run goes on with
     * the local journal alone, as apply does, and says so.
     */
    static boolean leasesPermitted(Cluster cluster, String namespace, Journal journal, PrintWriter err) {
        boolean permitted = LeaseLock.permitted(cluster, namespace);
        if (!permitted) {
            err.println("warning: Leases are forbidden in namespace " + namespace + ": the run is finished with its lock and record"
                    + " in the local journal " + journal.directory() + " only, so another operator will not see it");
        }
        return permitted;
    }

    /** A NAMESPACE/NAME kube-apiserver would refuse changes the request's path ("..") or reaches nothing: refused first. */
    static void checkTarget(String argument, String namespace, String name) {
        String where = "the StatefulSet \"" + argument + "\" given to resume";
        String problem = ApiNames.namespaceProblem(namespace, where);
        if (!problem.isEmpty()) {
            throw new UserError(problem);
        }
        List<String> errors = ApiNames.subdomainErrors(name);
        if (!errors.isEmpty()) {
            throw new UserError(where + ": the name is not one kube-apiserver accepts ("
                    + ApiNames.invalid("metadata.name", name, errors) + "). Nothing was sent. Pass NAMESPACE/NAME of a"
                    + " StatefulSet, e.g. shop/db (kubectl get statefulsets -A lists them).");
        }
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ClusterConnection conn = connection.connect(err);
        Cluster cluster = conn.cluster();
        Journal journal = new Journal(Journal.defaultDirectory(env));
        // resume finishes what an operator already allowed: no new gate
        Converger converger = new Converger(cluster, Clock.systemUTC(), journal, Operator.identify(env), conn.server(), Gate.YES,
                new ProgressPrinter(err), checkpoint);
        List<Record> records = new ArrayList<>();
        if (targets.isEmpty()) {
            records.addAll(converger.pendingLocal());
        } else {
            for (String t : targets) {
                String[] p = t.split("/", 2);
                String ns = p.length == 2 ? p[0] : conn.defaultNamespace();
                String name = p.length == 2 ? p[1] : p[0];
                checkTarget(t, ns, name);
                Optional<Record> r = converger.pending(ns, name, true);
                if (r.isEmpty()) {
                    throw new UserError("no unfinished run is recorded for StatefulSet " + ns + "/" + name
                            + " (neither in " + journal.directory() + " nor in Lease " + ns + "/stsresize-" + name + "); nothing to resume");
                }
                records.add(r.get());
            }
        }
        if (records.isEmpty()) {
            err.println("no unfinished run in " + journal.directory() + " for " + conn.server() + ": nothing to resume");
        }
        ConvergeOptions opts = ConvergeOptions.defaults().withTakeOver(takeOver).withTimeout(timeout);
        List<StatefulSetResult> results = new ArrayList<>();
        Map<String, Boolean> leases = new HashMap<>();
        for (Record r : records) {
            try {
                results.add(converger.resume(r, opts, leases.computeIfAbsent(r.namespace(),
                        ns -> leasesPermitted(cluster, ns, journal, err))));
            } catch (RuntimeException e) {
                results.add(Interrupted.result(r.namespace(), r.name(), e));
            }
        }
        results.replaceAll(converger::reread);
        if (output.equals("json")) {
            out.print(DocumentWriter.json(ResultDocument.of(results)));
        } else {
            for (StatefulSetResult r : results) {
                out.println(r.namespace() + "/" + r.name() + ": " + r.outcome().label()
                        + (r.reason().isEmpty() ? "" : " (" + r.reason() + ")") + " - " + r.detail());
                r.warnings().forEach(w -> out.println("  warning: " + w));
            }
        }
        out.flush();
        return ApplyCommand.exitCode(results);
    }
}
