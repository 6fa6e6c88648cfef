package dev.stsresize.cli;

import dev.stsresize.UserError;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.Operator;
import dev.stsresize.plan.Decision;
import dev.stsresize.render.Palette;
import dev.stsresize.tui.DecisionSource;
import dev.stsresize.tui.Glyphs;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.source.ClusterDecisions;
import dev.stsresize.tui.source.ClusterSteps;
import dev.stsresize.tui.source.ClusterUsage;
import dev.stsresize.tui.UsageSource;
import dev.stsresize.tui.source.SnapshotDecisions;
import dev.stsresize.tui.terminal.TerminalFrame;
import dev.stsresize.tui.terminal.TerminalOpener;
import dev.stsresize.tui.terminal.Theme;
import dev.stsresize.tui.terminal.UiLoop;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kubectl stsresize ui}: the interactive terminal UI over the same inputs as {@code plan}: the
 * cluster of the kubeconfig (the wizard converges it through the Converger), or with {@code --live} a
 * captured snapshot (offline: every step fails, saying how to converge). The connection is made and the
 * StatefulSets listed and decided before the screen opens, so an exec credential plugin's prompts and a
 * bad manifest reach the terminal as they would anywhere else; the server's proofs are filled in on the
 * list as they come. Without a terminal on stdout it prints the plan table instead.
 */
@Command(
        name = "ui",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Browse the StatefulSets of MANIFEST in a terminal UI, and converge one in the resize wizard.",
            "A list and diffs against the cluster of your kubeconfig (or, offline, a snapshot given to --live)."
                    + " It is also what 'kubectl stsresize -f MANIFEST' without a command opens. Keys: ? for help, q to quit."
                    + " Without a terminal on stdout it prints the plan table instead. With -f - the keys are read from"
                    + " the terminal.",
        },
        footer = {"", "Examples:", "  kubectl stsresize ui -f statefulset.yaml \\", "      --context prod -n shop",
            "  kubectl stsresize ui -f examples/manifest.yaml \\", "      --live examples/live-snapshot.yaml   # offline"})
public final class UiCommand extends BaseCommand {
    @Mixin ManifestOptions manifestFiles;

    @Mixin LiveOptions live;

    @Mixin ConnectionOptions connection;

    /** --headroom, --days, --prometheus, --usage-timeout: as plan's; the UI reads usage again every 20 s while it is open. */
    @Mixin UsageOptions usageOptions;

    @Mixin CopyOptions copyOptions;

    private final Environment environment;
    private final InputStream stdin;
    private final Map<String, String> env;
    private final BooleanSupplier stdoutIsTerminal;

    public UiCommand(Environment environment) {
        this.environment = environment;
        this.stdin = environment.stdin();
        this.env = environment.variables();
        this.stdoutIsTerminal = () -> environment.console() || environment.stdoutIsTerminal().getAsBoolean();
    }

    @Override
    protected int run() {
        PrintWriter err = spec.commandLine().getErr();
        DecisionSource source;
        StepRunner steps;
        Loaded first;
        UsageSource usage = null; // offline: no usage
        if (!live.offline()) {
            // the connection (an exec credential plugin's prompt included) and the LISTs happen before the screen opens;
            // the proofs (rules reviews, dry runs) are asked once the list is drawn, which fills them in
            ClusterConnection conn = connection.connect(environment, err);
            Journal journal = environment.journal();
            ClusterDecisions cluster = new ClusterDecisions(conn.cluster(), stdin, manifestFiles.files, manifestFiles.recursive, conn.defaultNamespace(),
                    connection.namespace != null, connection.allNamespaces, context(conn.origin()), conn.server(), journal)
                    .copying(copyOptions.optIn());
            first = cluster.loadFirst();
            source = cluster;
            usage = new ClusterUsage(conn.cluster(), usageOptions.reader(conn.cluster(), conn), cluster::usageScopes,
                    usageOptions.policy(spec));
            steps = new ClusterSteps(conn.cluster(), Clock.systemUTC(), journal, Operator.identify(env), conn.server(),
                    cluster::declared, ConvergeOptions.defaults().withCopy(copyOptions.optIn()), Checkpoint.NONE, new StopRequest());
        } else {
            SnapshotDecisions snapshot = new SnapshotDecisions(stdin, manifestFiles.files, manifestFiles.recursive, live.snapshots, connection.namespace, connection.allNamespaces);
            first = snapshot.load();
            source = snapshot;
            steps = StepRunner.OFFLINE;
        }
        if (!stdoutIsTerminal.getAsBoolean()) {
            // the plan printed instead says only what is proved, as plan's does
            List<Decision> decisions = (first.unproved().isEmpty() ? first : prove(source)).decisions();
            PrintWriter out = spec.commandLine().getOut();
            ResultPrinter.plan(decisions, java.util.Optional.empty(), OutputFormat.Document.table,
                    Palette.choose("auto", false, env.get("NO_COLOR")), 0, out);
            err.println("No terminal, so no interactive UI: this is the plan. To converge, run:");
            err.println("  kubectl stsresize apply -f " + String.join(" -f ", manifestFiles.files) + (!live.offline() ? connectionFlags() : ""));
            err.flush();
            return ResultPrinter.exitCode(decisions, false);
        }
        Glyphs glyphs = Glyphs.forLocale(env);
        try {
            UiLoop.open(TerminalOpener.open(glyphs), new TerminalFrame(Theme.forEnvironment(environment.variables()), glyphs), source, steps, usage, first);
        } catch (IOException e) {
            throw new UserError("cannot open the terminal for the interactive UI: " + e.getMessage()
                    + "; 'kubectl stsresize plan' prints the same decisions without one.", e);
        } finally {
            // a wizard left open at a gate: its gate says no, its Lease is released before the process ends;
            // one past the orphan delete is waited for, so that the StatefulSet is not left absent by the exit
            if (steps instanceof ClusterSteps wizard && !wizard.runs().finishing().isEmpty()) {
                err.println("Finishing the re-apply and verification of " + String.join(", ", wizard.runs().finishing()) + " before exiting"
                        + " (Ctrl-C stops now, and 'kubectl stsresize resume' finishes it later).");
                err.flush();
            }
            if (steps instanceof ClusterSteps wizard && !wizard.runs().copying().isEmpty()) {
                err.println("Stopping the copy of " + String.join(", ", wizard.runs().copying()) + " at its next safe point before exiting: the copy"
                        + " pod in flight may finish; a pod none of whose claims was re-created yet comes back on its own claims"
                        + " (Ctrl-C stops now, and 'kubectl stsresize resume' finishes it later).");
                err.flush();
            }
            steps.close();
            if (steps instanceof ClusterSteps wizard && !wizard.runs().leftAtClose().isEmpty()) {
                err.println("When the UI closed, the wizard of each StatefulSet below was open; where each stands now:");
                wizard.runs().leftAtClose().forEach(line -> err.println("  " + line));
                err.flush();
            }
        }
        return ExitCodes.OK;
    }

    private static Loaded prove(DecisionSource source) {
        try {
            return source.prove();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The header's context: the kubeconfig context's name, from the connection's origin ({@code context "kind-dev" of FILE}). */
    static String context(String origin) {
        if (origin.startsWith("context \"")) {
            int end = origin.indexOf('"', "context \"".length());
            return end < 0 ? origin : origin.substring("context \"".length(), end);
        }
        return origin;
    }

    /** The connection flags given, for the apply command suggested without a terminal. */
    private String connectionFlags() {
        StringBuilder b = new StringBuilder();
        for (KubeconfigFlag f : List.of(KubeconfigFlag.KUBECONFIG, KubeconfigFlag.CONTEXT, KubeconfigFlag.SERVER, KubeconfigFlag.TOKEN,
                KubeconfigFlag.AS)) {
            // never the token itself: this line lands in terminals and logs
            connection.given(f).ifPresent(v -> b.append(' ').append(f.longName()).append(' ').append(f == KubeconfigFlag.TOKEN ? "TOKEN" : v));
        }
        if (connection.namespace != null) {
            b.append(" -n ").append(connection.namespace);
        }
        if (connection.allNamespaces) {
            b.append(" -A");
        }
        return b.toString();
    }

    /**
     * {@code kubectl stsresize -f M --live S} (options, no command) means {@code ui}: the root command has
     * no options of its own but help and version, so anything else that starts with a dash is the UI's.
     */
    static String[] withImplicitUi(String[] args) {
        int debugs = 0;
        while (debugs < args.length && args[debugs].equals("--debug")) {
            debugs++;
        }
        if (debugs > 0 && debugs < args.length && !args[debugs].startsWith("-")) {
            // "--debug plan …" as "plan … --debug": kubectl takes its global flags before the command, and --debug is every command's
            String[] out = new String[args.length];
            System.arraycopy(args, debugs, out, 0, args.length - debugs);
            java.util.Arrays.fill(out, args.length - debugs, args.length, "--debug");
            return out;
        }
        if (args.length == 0 || !args[0].startsWith("-") || List.of("-h", "--help", "-V", "--version").contains(args[0])) {
            return args;
        }
        String[] out = new String[args.length + 1];
        out[0] = "ui";
        System.arraycopy(args, 0, out, 1, args.length);
        return out;
    }

    @Override
    protected void validate() {
        manifestFiles.require(spec);
        manifestFiles.validate();
        connection.validate(spec);
        usageOptions.validate(spec);
        copyOptions.validate(spec);
        live.validate(manifestFiles);
    }
}
