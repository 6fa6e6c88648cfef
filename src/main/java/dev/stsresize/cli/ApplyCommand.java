package dev.stsresize.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Assessment;
import dev.stsresize.converge.Assessor;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.CopyPlan;
import dev.stsresize.converge.GateAnswers;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.Operator;
import dev.stsresize.converge.PendingRun;
import dev.stsresize.converge.RunRecords;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.converge.Write;
import dev.stsresize.manifest.Manifest;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kubectl stsresize apply}: prints the plan with every write to come, then converges each
 * StatefulSet that is not refused or blocked, one after the other. With {@code -o json}, stdout holds
 * exactly one Result document, written at the end; everything else goes to stderr.
 */
@Command(
        name = "apply",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Grow the volumes of every StatefulSet of MANIFEST whose claim templates grew.",
            "Each claim is grown, the StatefulSet orphan-deleted (pods and claims stay) and re-applied, and its pods"
                    + " are verified to be adopted.",
            "",
            "Exit status: 0 converged or nothing to do; 2 a StatefulSet was refused; 1 one was blocked or failed;"
                    + " 130 stopped (Ctrl-C, SIGHUP, SIGTERM: `kubectl stsresize resume` finishes it).",
        },
        footer = {"", "Examples:", "  kubectl stsresize apply -f db.yaml --dry-run=server",
            "  kubectl stsresize apply -f db.yaml"})
public final class ApplyCommand extends ConvergingCommand {
    @Mixin ConnectionOptions connection;

    @Mixin ManifestOptions manifestFiles;

    @Option(names = {"-y", "--yes"}, description = "Do not ask: every write of the printed plan is allowed.")
    boolean yes;

    @Option(names = "--dry-run", paramLabel = "none|server", defaultValue = "none",
            description = "server: run every check and server dry run, write nothing. Default: ${DEFAULT-VALUE}.")
    String dryRun;

    @Option(names = "--wait-for-resize", paramLabel = "true|false", defaultValue = "true", arity = "0..1", fallbackValue = "true",
            description = "Wait for each claim's capacity before the orphan delete (false: go on once the requests are accepted)."
                    + " Default: ${DEFAULT-VALUE}.")
    boolean waitForResize;

    @Option(names = "--restart-pods-for-resize",
            description = "Evict (Eviction API, one at a time) the pods whose volume waits for a file system resize, after the re-apply.")
    boolean restartPods;

    @Option(names = "--field-manager", paramLabel = "NAME",
            description = "The field manager of the re-apply (default: the one that owned spec.template).")
    String fieldManager;

    @Mixin OutputFormat.ResultOption output;

    @Mixin ColorOption color;

    @Mixin RunOptions runOptions;

    @Mixin CopyOptions copyOptions;

    public ApplyCommand(Environment environment, Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint, StopRequest stop) {
        super(environment, prompter, checkpoint, stop);
    }

    /** The flags alone, before anything is read or asked. */
    @Override
    protected void validate() {
        manifestFiles.require(spec);
        manifestFiles.validate();
        connection.validate(spec);
        runOptions.validate(spec);
        copyOptions.validate(spec);
        if (!List.of("none", "server").contains(dryRun)) {
            throw invalid("--dry-run takes none or server, not \"" + dryRun
                    + "\" (client-side dry runs prove nothing about a resize).");
        }
        if (fieldManager != null) {
            String problem = FieldManagers.problem(fieldManager);
            if (!problem.isEmpty()) {
                throw invalid(problem);
            }
        }
    }

    /**
     * Unfinished runs first, then the plan with every write to come, then each StatefulSet converged, then the results;
     * Ctrl-C, SIGHUP or SIGTERM anywhere stops the whole command at the next safe point ({@link StopSignals}).
     */
    @Override
    protected int run() {
        PrintWriter err = spec.commandLine().getErr();
        try (StopSignals signals = StopSignals.install(stop, err)) {
            return converge(spec.commandLine().getOut(), err, signals);
        }
    }

    private int converge(PrintWriter out, PrintWriter err, StopSignals signals) {
        boolean json = output.format.document();
        // asked before the prompter opens the system terminal (jline hands out one at a time); with -o json
        // the table goes to stderr, which may well be the terminal while stdout is a pipe
        TerminalWidth.ForApply widths = TerminalWidth.forApply(environment.variables(), json, json || environment.console());
        int width = widths.table();
        int progressWidth = widths.progress();
        GateAnswers gate = gate(err);
        ClusterConnection conn = connection.connect(environment, err);
        Manifest manifest = manifestFiles.read(environment.stdin(), conn.defaultNamespace(), connection.namespace != null);
        err.println(conn.target()); // before any request: a manifest's error stays the one paragraph
        ConvergeOptions opts = runOptions.convergeOptions().withDryRun(dry()).withWaitForResize(waitForResize)
                .withRestartPodsForResize(restartPods).withFieldManager(fieldManager).withCopy(copyOptions.optIn());
        ProgressPrinter progress = new ProgressPrinter(err, progressWidth);
        signals.endingLinesWith(progress::endLine);
        Journal journal = environment.journal();
        Converger converger = new Converger(conn.cluster(), Clock.systemUTC(), journal,
                Operator.identify(environment.variables()), conn.server(), gate, progress, checkpoint, stop);

        List<StatefulSetResult> results = dry() ? new ArrayList<>()
                : finishUnfinished(manifest, conn, journal, converger, opts, err);
        Assessment assessment = new Assessor(conn.cluster(), progress).copying(opts.copy()).assess(manifest.objects(), connection.allNamespaces,
                Assessor.Depth.APPLY, restartPods, Optional.ofNullable(fieldManager));
        printPlan(assessment, opts, width, json ? err : out);
        convergeEach(assessment, results, converger, opts, err);
        // told now, at the end: each claim re-read, so that no warning stands that the kubelet has since made untrue
        results.replaceAll(converger::reread);
        return finish(results, converger, output.format, out, err);
    }

    private boolean dry() {
        return dryRun.equals("server");
    }

    /** Yes to every write with --yes or a dry run; else the operator asked at each gate, on a terminal there must be. */
    private GateAnswers gate(PrintWriter err) {
        if (yes || dry()) {
            return GateAnswers.YES;
        }
        Optional<StoppablePrompter> p = prompter();
        if (p.isEmpty()) {
            throw new UserError("apply writes to the cluster and there is no terminal to ask on: pass --yes to allow every"
                    + " write of the printed plan, or --dry-run=server to only check. Nothing was written.");
        }
        return new PromptGate(p.get(), err);
    }

    /**
     * A run left unfinished is finished first, re-applying the manifest's object: its record only says where it
     * stopped. Its result stands for its StatefulSet: the plan would only say nothing-to-do.
     */
    private List<StatefulSetResult> finishUnfinished(Manifest manifest, ClusterConnection conn, Journal journal, Converger converger,
            ConvergeOptions opts, PrintWriter err) {
        Cluster cluster = conn.cluster();
        RunRecords records = new RunRecords(cluster, journal, conn.server());
        List<StatefulSetResult> results = new ArrayList<>();
        for (ObjectNode d : manifest.objects()) {
            String ns = d.path("metadata").path("namespace").asText(conn.defaultNamespace());
            String name = d.path("metadata").path("name").asText();
            Optional<PendingRun> pending = records.find(ns, name, true);
            if (pending.isEmpty()) {
                continue;
            }
            PendingRun run = pending.get();
            if (run.trusted()) {
                err.println("StatefulSet " + ns + "/" + name + " has an unfinished run (phase " + run.record().phase()
                        + ", recorded by " + run.recordedBy() + " in " + run.source() + "): finishing it first with the"
                        + " manifest's object");
            }
            StatefulSetResult r;
            try {
                r = resumed(run, converger.resume(run, d, opts, leasesPermitted(cluster, ns, journal, err)));
            } catch (RuntimeException e) {
                r = Interrupted.result(ns, name, e);
            }
            results.add(r);
        }
        return results;
    }

    /** The plan table, its notes and every write to come: on stdout, or on stderr when stdout holds the Result document. */
    private void printPlan(Assessment assessment, ConvergeOptions opts, int width, PrintWriter planOut) {
        boolean json = output.format.document();
        List<Decision> decisions = assessment.items().stream().map(Assessed::decision).toList();
        ResultPrinter.plan(decisions, Optional.empty(), OutputFormat.Document.table,
                color.palette(environment.console() && !json, environment.variables().get("NO_COLOR")), width, opts.copy(), planOut);
        ResultPrinter.notes(assessment.notes(), planOut);
        planOut.print(writesToCome(assessment, opts));
        planOut.flush();
    }

    /** Each StatefulSet whose unfinished run was not finished above, one after the other; a failure stops only its own. */
    private static void convergeEach(Assessment assessment, List<StatefulSetResult> results, Converger converger, ConvergeOptions opts,
            PrintWriter err) {
        for (Assessed a : assessment.items()) {
            if (results.stream().anyMatch(r -> r.namespace().equals(a.namespace()) && r.name().equals(a.name()))) {
                continue; // its unfinished run was finished (or stopped) above; that is its result
            }
            try {
                results.add(converger.converge(a, opts, !assessment.namespacesWithoutLeases().contains(a.namespace())));
            } catch (RuntimeException e) {
                results.add(Interrupted.result(a.namespace(), a.name(), e));
            }
        }
    }

    /** Every write to come, in order, with its kubectl equivalent. */
    static String writesToCome(Assessment assessment, ConvergeOptions opts) {
        StringBuilder b = new StringBuilder();
        for (Assessed a : assessment.items()) {
            Decision d = a.decision();
            if (!d.verdict().hasWork() || a.failure() != null) {
                continue;
            }
            String ns = d.namespace();
            b.append(opts.dryRun() ? "\nWould write, for " : "\nWrites to come, for ").append(ns).append('/').append(d.name()).append(":\n");
            if (assessment.namespacesWithoutLeases().contains(ns)) {
                b.append("  - no Lease nor Secret: the lock and record are kept in the local journal only\n");
            } else {
                b.append("  - Lease ").append(ns).append("/stsresize-").append(d.name()).append(" (lock) and Secret ").append(ns)
                        .append("/stsresize-").append(d.name()).append(" (the run's record, deleted when it ends)\n");
            }
            for (ClaimState c : d.claimsToGrow()) {
                b.append("  - grow claim ").append(c.name()).append(' ').append(c.request()).append(" -> ").append(c.target())
                        .append(c.scaledAway() ? " (scaled-away ordinal)" : "").append("\n      ")
                        .append(Write.ClaimPatch.of(ns, c).kubectl()).append('\n');
            }
            if (!d.claimsToCopy().isEmpty()) {
                copyWrites(d, opts.copy(), b);
            } else if (d.recreate()) {
                String uid = a.live().path("metadata").path("uid").asText();
                Write.Apply reapply = new Write.Apply(ns, d.name(), a.fieldManager());
                b.append("  - orphan-delete StatefulSet ").append(d.name()).append(" (UID ").append(uid)
                        .append("; pods and claims stay)\n      ").append(new Write.OrphanDelete(ns, d.name(), uid).kubectl()).append('\n');
                b.append("  - re-apply StatefulSet ").append(d.name()).append(" (field manager ").append(a.fieldManager())
                        .append(", replicas ").append(a.reapply().path("spec").path("replicas").asText()).append(")\n      ")
                        .append(reapply.kubectl()).append("\n      ").append(Write.REAPPLY_FILE).append(": ")
                        .append(reapply.file()).append('\n');
                if (opts.restartPodsForResize()) {
                    b.append("  - evict, one at a time, each pod whose volume waits for a file system resize\n");
                }
            }
            b.append("  - Events on the StatefulSet and each claim written, where you may create Events\n");
        }
        return b.toString();
    }

    /** A copy plan's writes, said before the first, so the operator knows each pod goes down and no volume is deleted. */
    private static void copyWrites(Decision d, CopyOptIn copy, StringBuilder b) {
        CopyPlan.of(d, copy).forEach(l -> b.append(l.claim() ? "      " : "  - ").append(l.text()).append('\n'));
    }
}
