package dev.stsresize.cli;

import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.Convergence;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.LeaseLock;
import dev.stsresize.converge.PendingRun;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.converge.StopRequest;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What {@code apply} and {@code resume}, the commands that converge, are given beyond their flags, and what
 * both do when they finish a run that was left unfinished.
 */
abstract class ConvergingCommand extends BaseCommand {
    /** The process's surroundings: variables, stdin, console. */
    final Environment environment;
    /** How the operator is asked; empty when there is no terminal to ask on. */
    final Supplier<Optional<Prompter>> prompter;
    /** Called after every write of a converge (crash tests); {@link Checkpoint#NONE} otherwise. */
    final Checkpoint checkpoint;
    /**
     * Set on Ctrl-C, SIGHUP, SIGTERM ({@link StopSignals}) or Ctrl-C at a prompt: each run stops at its next safe point with its
     * record kept and its Lease freed, its result saying the phase it reached; those not started are not started.
     */
    final StopRequest stop;

    ConvergingCommand(Environment environment, Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint, StopRequest stop) {
        this.environment = environment;
        this.prompter = prompter;
        this.checkpoint = checkpoint;
        this.stop = stop;
    }

    /** The operator's terminal, taking part in the stop; empty when there is none. */
    Optional<StoppablePrompter> prompter() {
        return prompter.get().map(p -> new StoppablePrompter(p, stop));
    }

    /**
     * The results printed, then, when the command was stopped, where each StatefulSet touched stands and the
     * {@code resume} that finishes it (on stderr: stdout may hold the Result document), and exit 130.
     */
    int finish(List<StatefulSetResult> results, Converger converger, OutputFormat.Result output, PrintWriter out, PrintWriter err) {
        int code = ResultPrinter.print(results, output, out);
        if (!stop.requested()) {
            return code;
        }
        List<Convergence.Turn.Stopped> resumable = converger.stopped().stream().filter(s -> !s.resumeCommand().isEmpty()).toList();
        if (resumable.isEmpty()) {
            err.println("Stopped (" + stop.reason() + "): no run was left midway, nothing to resume.");
        } else {
            err.println("Stopped (" + stop.reason() + "): the request in flight finished and no other write started. Each run stopped"
                    + " midway keeps its record (Lease, Secret, journal); to finish:");
            for (Convergence.Turn.Stopped s : resumable) {
                err.println("  " + s.namespace() + "/" + s.name() + " (phase " + s.phase() + "): " + s.resumeCommand());
            }
        }
        err.flush();
        return ExitCodes.INTERRUPTED;
    }

    /**
     * Whether Leases may be used in {@code namespace}; where RBAC forbids them the run goes on with
     * the local journal alone, and says so.
     */
    static boolean leasesPermitted(Cluster cluster, String namespace, Journal journal, PrintWriter err) {
        boolean permitted = LeaseLock.permitted(cluster, namespace);
        if (!permitted) {
            err.println("warning: Leases or Secrets are forbidden in namespace " + namespace + ": the run is finished with its lock and record"
                    + " in the local journal " + journal.directory() + " only, so another operator will not see it");
        }
        return permitted;
    }

    /** The result of a resumed run, saying so. */
    static StatefulSetResult resumed(PendingRun run, StatefulSetResult r) {
        if (!run.trusted() || r.reason().equals("untrusted-record")) {
            return r;
        }
        return new StatefulSetResult(r.namespace(), r.name(), r.outcome(), r.reason(), "resumed the run recorded by " + run.recordedBy()
                + " (stopped at phase " + run.record().phase() + "): " + r.detail(), r.claims(), r.pods(), r.warnings());
    }
}
