package dev.stsresize.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import dev.stsresize.manifest.ApiNames;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.GateAnswers;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.Operator;
import dev.stsresize.converge.Outcome;
import dev.stsresize.converge.PendingRun;
import dev.stsresize.converge.RunRecords;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.manifest.Manifest;
import dev.stsresize.plan.Metadata;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kubectl stsresize resume}: finishes the runs this machine's journal records for this cluster
 * (or, named as NAMESPACE/NAME, the run recorded in that StatefulSet's Lease and Secret). With
 * {@code -f MANIFEST} the manifest's object is re-applied, as apply does; without, the recorded object
 * is shown as a diff against the recorded live object, with who recorded it and when, and applied
 * only once the operator says yes ({@code --yes}). A record that cannot be trusted is reported with
 * the commands to inspect and remove it, and left alone.
 */
@Command(
        name = "resume",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {"Finish an interrupted apply from its Lease and Secret or the local journal.",
            "With -f MANIFEST, re-apply the StatefulSets of that manifest (as apply does) instead of the recorded objects."})
public final class ResumeCommand extends ConvergingCommand {
    @Mixin ConnectionOptions connection;

    @Parameters(paramLabel = "NAMESPACE/NAME", arity = "0..*",
            description = "StatefulSets whose Lease records a run (default: every run in the local journal).")
    List<String> targets = new ArrayList<>();

    @Mixin ManifestOptions manifestFiles;

    @Option(names = {"-y", "--yes"}, description = "Do not ask before re-applying a recorded object.")
    boolean yes;

    @Mixin RunOptions runOptions;

    @Mixin OutputFormat.ResultOption output;

    /** Where the re-apply of a recorded object is confirmed; opened at the first question. */
    private Optional<StoppablePrompter> asker = Optional.empty();

    public ResumeCommand(Environment environment, Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint, StopRequest stop) {
        super(environment, prompter, checkpoint, stop);
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

    /** The flags and the named StatefulSets alone: a NAME without namespace is checked again once the context's is known. */
    @Override
    protected void validate() {
        manifestFiles.validate();
        connection.validate(spec);
        runOptions.validate(spec);
        for (String t : targets) {
            String[] p = t.split("/", 2);
            checkTarget(t, p.length == 2 ? p[0] : "default", p.length == 2 ? p[1] : p[0]);
        }
    }

    /** Each recorded run finished in turn; Ctrl-C, SIGHUP or SIGTERM stops the whole command at the next safe point. */
    @Override
    protected int run() {
        PrintWriter err = spec.commandLine().getErr();
        try (StopSignals signals = StopSignals.install(stop, err)) {
            return resume(spec.commandLine().getOut(), err);
        }
    }

    /**
     * complete → validate → run, as kubectl's commands: the connection, the manifest's objects and the
     * recorded runs first (a NAME without namespace checked again in the context's), then each run finished.
     */
    private int resume(PrintWriter out, PrintWriter err) {
        ClusterConnection conn = connection.connect(environment, err);
        Journal journal = environment.journal();
        Map<String, ObjectNode> declared = declared(conn);
        err.println(conn.target()); // before any request, after the manifest (its error stays the one paragraph)
        RunRecords records = new RunRecords(conn.cluster(), journal, conn.server());
        List<PendingRun> runs = pendingRuns(records, declared, conn.defaultNamespace(), journal);
        if (runs.isEmpty()) {
            err.println("no unfinished run in " + journal.directory() + (declared.isEmpty() ? "" : " nor in the Leases of the manifest's"
                    + " StatefulSets") + " for " + conn.server() + ": nothing to resume");
        }
        // the gates were passed by the run that stopped; what this command re-applies is confirmed in finish()
        Converger converger = new Converger(conn.cluster(), Clock.systemUTC(), journal, Operator.identify(environment.variables()),
                conn.server(), GateAnswers.YES, new ProgressPrinter(err), checkpoint, stop);
        List<StatefulSetResult> results = finishAll(runs, declared, converger, conn.cluster(), journal, out, err);
        results.replaceAll(converger::reread);
        return finish(results, converger, output.format, out, err);
    }

    /** The operator's manifest, when given, is what gets re-applied: one declared object per StatefulSet. */
    private Map<String, ObjectNode> declared(ClusterConnection conn) {
        Map<String, ObjectNode> declared = new LinkedHashMap<>();
        if (manifestFiles.given()) {
            Manifest manifest = manifestFiles.read(environment.stdin(), conn.defaultNamespace(), connection.namespace != null);
            for (ObjectNode d : manifest.objects()) {
                declared.put(Metadata.key(d, conn.defaultNamespace()), d);
            }
        }
        return declared;
    }

    /** The runs to finish: those named, else the manifest's StatefulSets' recorded ones, else every run of this machine's journal. */
    private List<PendingRun> pendingRuns(RunRecords records, Map<String, ObjectNode> declared, String defaultNamespace, Journal journal) {
        List<PendingRun> runs = new ArrayList<>();
        if (!declared.isEmpty() && targets.isEmpty()) {
            for (String key : declared.keySet()) {
                String[] p = key.split("/", 2);
                records.find(p[0], p[1], true).ifPresent(runs::add);
            }
        } else if (targets.isEmpty()) {
            runs.addAll(records.allLocal());
        } else {
            for (String t : targets) {
                String[] p = t.split("/", 2);
                String ns = p.length == 2 ? p[0] : defaultNamespace;
                String name = p.length == 2 ? p[1] : p[0];
                checkTarget(t, ns, name);
                Optional<PendingRun> r = records.find(ns, name, true);
                if (r.isEmpty()) {
                    throw new UserError("no unfinished run is recorded for StatefulSet " + ns + "/" + name
                            + " (neither in " + journal.directory() + " nor in Lease " + ns + "/stsresize-" + name + "); nothing to resume");
                }
                runs.add(r.get());
            }
        }
        return runs;
    }

    /** Each run finished in turn, or said why not: outside the manifest given, declined, or stopped by its error. */
    private List<StatefulSetResult> finishAll(List<PendingRun> runs, Map<String, ObjectNode> declared, Converger converger,
            Cluster cluster, Journal journal, PrintWriter out, PrintWriter err) {
        ConvergeOptions opts = runOptions.convergeOptions();
        List<StatefulSetResult> results = new ArrayList<>();
        Map<String, Boolean> leases = new HashMap<>();
        for (PendingRun run : runs) {
            String key = Metadata.key(run.namespace(), run.name());
            ObjectNode object = declared.get(key);
            if (!declared.isEmpty() && object == null) {
                results.add(new StatefulSetResult(run.namespace(), run.name(), Outcome.FAILED, "not-in-manifest", "the manifest given"
                        + " with -f does not declare StatefulSet " + key + ": nothing was written; give its manifest, or resume it without -f",
                        List.of(), List.of(), List.of()));
                continue;
            }
            if (run.trusted() && object == null && !yes && !stop.requested() && !reapplyConfirmed(run, key, out)) {
                results.add(new StatefulSetResult(run.namespace(), run.name(), Outcome.FAILED, "declined",
                        "the operator declined; nothing was written", List.of(), List.of(), List.of()));
                continue;
            }
            try {
                results.add(resumed(run, converger.resume(run, object, opts, leases.computeIfAbsent(run.namespace(),
                        ns -> leasesPermitted(cluster, ns, journal, err)))));
            } catch (RuntimeException e) {
                results.add(Interrupted.result(run.namespace(), run.name(), e));
            }
        }
        return results;
    }

    /**
     * The recorded object is shown and its re-apply confirmed (no manifest given, no --yes). A stop at the
     * question counts as yes here: the Converger then answers the stopped command without writing, the run left recorded.
     */
    private boolean reapplyConfirmed(PendingRun run, String key, PrintWriter out) {
        out.print(run.describe());
        out.flush();
        if (asker.isEmpty()) {
            asker = prompter(); // opened at the first question only: jline hands out the terminal once
        }
        if (asker.isEmpty()) {
            throw new UserError("resume would re-apply the recorded object of StatefulSet " + key + " (shown above) and there is"
                    + " no terminal to ask on: pass --yes to allow it, or -f MANIFEST to re-apply your manifest's object"
                    + " instead. Nothing was written.");
        }
        String answer = asker.get().ask("Re-apply it and finish the run of " + key + "? [y/N] ");
        return asker.get().stopped() || answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
    }
}
