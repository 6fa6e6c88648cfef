package dev.stsresize.cli;

import dev.stsresize.UserError;
import dev.stsresize.plan.Decision;
import dev.stsresize.render.Palette;
import dev.stsresize.render.TableRenderer;
import dev.stsresize.tui.Frame;
import dev.stsresize.tui.Glyphs;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.SnapshotDecisions;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.TerminalOpener;
import dev.stsresize.tui.Theme;
import dev.stsresize.tui.UiLoop;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kubectl stsresize ui}: the interactive terminal UI over the same inputs as {@code plan}. The
 * decisions are loaded before the screen opens, so a bad manifest is a one-line error like anywhere
 * else; without a terminal on stdout it prints the plan table instead.
 */
@Command(
        name = "ui",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Browse what converging each StatefulSet of MANIFEST takes — list, diff, resize wizard — in the terminal.",
            "Also what 'kubectl stsresize -f MANIFEST …' without a command opens. Keys: ? for help, q to quit.",
            "Without a terminal on stdout it prints the plan table instead.",
        },
        footer = {"", "Example:", "  kubectl stsresize ui -f examples/manifest.yaml --live examples/live-snapshot.yaml"})
public final class UiCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = {"-f", "--filename"}, required = true, paramLabel = "MANIFEST",
            description = "A manifest file, a directory of them, or - for stdin (keys are then read from the terminal). Repeatable.")
    List<String> files = new ArrayList<>();

    @Option(names = {"-R", "--recursive"}, description = "Read the directories given to -f recursively.")
    boolean recursive;

    @Option(names = "--live", required = true, paramLabel = "SNAPSHOT",
            description = "The captured cluster state: kubectl get sts,controllerrevisions,pvc,pv,sc,pods -A -o yaml. Repeatable.")
    List<String> live = new ArrayList<>();

    @Option(names = {"-n", "--namespace"}, paramLabel = "NS",
            description = "The namespace of StatefulSets that name none (default: default); the only one considered.")
    String namespace;

    @Option(names = {"-A", "--all-namespaces"}, description = "Consider the snapshot's objects in every namespace.")
    boolean allNamespaces;

    @Option(names = "--debug", hidden = true, description = "Stack traces on errors.")
    boolean debug;

    private final InputStream stdin;
    private final Map<String, String> env;
    private final BooleanSupplier stdoutIsTerminal;

    public UiCommand(InputStream stdin, boolean terminal, Map<String, String> env) {
        this(stdin, env, () -> terminal || TerminalOpener.isTerminal(1));
    }

    UiCommand(InputStream stdin, Map<String, String> env, BooleanSupplier stdoutIsTerminal) {
        this.stdin = stdin;
        this.env = env;
        this.stdoutIsTerminal = stdoutIsTerminal;
    }

    @Override
    public Integer call() {
        validate();
        SnapshotDecisions source = new SnapshotDecisions(stdin, files, recursive, live, namespace, allNamespaces);
        Loaded first = source.load();
        List<Decision> decisions = first.decisions();
        if (!stdoutIsTerminal.getAsBoolean()) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(new TableRenderer(Palette.choose("auto", false, env.get("NO_COLOR"))).render(decisions));
            out.flush();
            PrintWriter err = spec.commandLine().getErr();
            err.println("No terminal, so no interactive UI: this is the plan. To converge, run:");
            err.println("  kubectl stsresize apply -f " + String.join(" -f ", files));
            err.flush();
            return PlanCommand.exitCode(decisions, false);
        }
        Glyphs glyphs = Glyphs.forLocale(env);
        try {
            UiLoop.open(TerminalOpener.open(glyphs), new Frame(Theme.forEnvironment(env), glyphs), source, StepRunner.OFFLINE, first);
        } catch (IOException e) {
            throw new UserError("cannot open the terminal for the interactive UI: " + e.getMessage()
                    + "; 'kubectl stsresize plan' prints the same decisions without one.", e);
        }
        return ExitCodes.OK;
    }

    /**
     * {@code kubectl stsresize -f M --live S} (options, no command) means {@code ui}: the root command has
     * no options of its own but help and version, so anything else that starts with a dash is the UI's.
     */
    static String[] withImplicitUi(String[] args) {
        if (args.length == 0 || !args[0].startsWith("-") || List.of("-h", "--help", "-V", "--version").contains(args[0])) {
            return args;
        }
        String[] out = new String[args.length + 1];
        out[0] = "ui";
        System.arraycopy(args, 0, out, 1, args.length);
        return out;
    }

    private void validate() {
        if (namespace != null && allNamespaces) {
            throw new ParameterException(spec.commandLine(), "-n and -A cannot be used together: -n " + namespace
                    + " names one namespace, -A all of them. Pass one.");
        }
        if (files.contains("-") && live.contains("-")) {
            throw new UserError("-f - and --live - both ask for standard input, which can be read only once. Pass one of them as a file.");
        }
    }
}
