package dev.stsresize.cli;

import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.StopRequest;
import java.util.Optional;
import java.util.function.Supplier;
import dev.stsresize.UserError;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;

/**
 * Builds the command tree and maps every outcome to an exit code: the one place where exceptions
 * become one-line messages (stack traces only with {@code --debug} or {@code STSRESIZE_DEBUG=1}).
 */
public final class Cli {
    private final PrintWriter out;
    private final PrintWriter err;
    private final Environment environment;
    private final Supplier<Optional<Prompter>> prompter;
    private final Checkpoint checkpoint;
    /** What Ctrl-C, SIGHUP and SIGTERM set while apply or resume runs (one command per Cli). */
    private final StopRequest stop;

    /** The process's own environment, read by {@code Main} and passed in. */
    public Cli(PrintWriter out, PrintWriter err, Environment environment) {
        // a lambda, not a method reference: TerminalPrompter and what it names load only when a command asks
        this(out, err, environment, () -> TerminalPrompter.open(err), Checkpoint.NONE, new StopRequest());
    }

    /** For tests: stdin, the environment variables and whether there is a console, injected. */
    public Cli(PrintWriter out, PrintWriter err, InputStream in, Map<String, String> env, boolean terminal) {
        this(out, err, Environment.of(in, env, terminal));
    }

    /** For tests: also how the operator is asked (empty: no terminal) and a hook after every write of a converge. */
    public Cli(PrintWriter out, PrintWriter err, InputStream in, Map<String, String> env, boolean terminal,
            Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint) {
        this(out, err, in, env, terminal, prompter, checkpoint, new StopRequest());
    }

    /** For tests: also the stop request the signals would set, for the test to set instead. */
    public Cli(PrintWriter out, PrintWriter err, InputStream in, Map<String, String> env, boolean terminal,
            Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint, StopRequest stop) {
        this(out, err, Environment.of(in, env, terminal), prompter, checkpoint, stop);
    }

    private Cli(PrintWriter out, PrintWriter err, Environment environment, Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint,
            StopRequest stop) {
        this.out = out;
        this.err = err;
        this.environment = environment;
        this.prompter = prompter;
        this.checkpoint = checkpoint;
        this.stop = stop;
    }

    /** The whole command tree, every subcommand built: completion and tests walk all of it. */
    public CommandLine commandLine() {
        return commandLine(null);
    }

    /**
     * The tree with only {@code invoked} built in full; every other subcommand is a stand-in with its
     * name and description read from its {@code @Command} annotation, enough for the root's usage and
     * "did you mean". Why: building and reflecting every command's options dominated start-up.
     * {@code null} builds them all.
     */
    CommandLine commandLine(String invoked) {
        CommandLine cl = new CommandLine(new RootCommand());
        // subcommands are added here, one line each
        add(cl, invoked, PlanCommand.class, () -> new PlanCommand(environment, early));
        add(cl, invoked, ApplyCommand.class, () -> new ApplyCommand(environment, prompter, checkpoint, stop));
        add(cl, invoked, ResumeCommand.class, () -> new ResumeCommand(environment, prompter, checkpoint, stop));
        add(cl, invoked, RevertCommand.class, () -> new RevertCommand(environment, prompter));
        add(cl, invoked, SimulateCommand.class, SimulateCommand::new);
        add(cl, invoked, DemoCommand.class, () -> new DemoCommand(environment));
        add(cl, invoked, RenderJobCommand.class, () -> new RenderJobCommand(environment));
        add(cl, invoked, SetSizeCommand.class, () -> new SetSizeCommand(environment));
        add(cl, invoked, UsageCommand.class, () -> new UsageCommand(environment));
        add(cl, invoked, VersionCommand.class, VersionCommand::new);
        add(cl, invoked, CompletionCommand.class, CompletionCommand::new);
        add(cl, invoked, UiCommand.class, () -> new UiCommand(environment));
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(this::onException);
        cl.setParameterExceptionHandler(this::onBadParameters);
        return cl;
    }

    private static void add(CommandLine root, String invoked, Class<?> type, Supplier<Object> command) {
        CommandLine.Command c = type.getAnnotation(CommandLine.Command.class);
        if (invoked == null || invoked.equals(c.name())) {
            root.addSubcommand(command.get());
            return;
        }
        CommandLine.Model.CommandSpec standIn = CommandLine.Model.CommandSpec.create().name(c.name());
        standIn.usageMessage().description(c.description()).hidden(c.hidden());
        root.addSubcommand(c.name(), new CommandLine(standIn));
    }

    /** The subcommand the words name (the first one not a flag; the root has only help flags), or null: build all. */
    static String invoked(String[] args) {
        for (String a : args) {
            if (a.equals("--")) {
                return null;
            }
            if (!a.startsWith("-")) {
                return a;
            }
        }
        return "";
    }

    public int run(String... args) {
        debug = hasDebugFlag(args);
        try {
            if (args.length > 0 && args[0].equals(Completion.COMMAND)) {
                // not a picocli subcommand: the words are raw input ("--", "-o") that picocli would parse
                return new Completion(commandLine(), completionEnvironment())
                        .run(java.util.Arrays.asList(args).subList(1, args.length), out);
            }
            String[] words = UiCommand.withImplicitUi(args);
            String invoked = invoked(words);
            // a plan's manifest is read while picocli builds the command
            early = EarlyManifest.start(invoked, words, environment.stdin());
            return commandLine(invoked).execute(words);
        } finally {
            out.flush();
            err.flush();
            // before the JVM exits: an open HTTP/2 connection would hold the exit back (cluster.IdleConnections)
            dev.stsresize.cluster.IdleConnections.close();
        }
    }

    private boolean debug;
    /** The reading of a plan's {@code -f} begun with its words ({@link EarlyManifest}), for the plan picocli builds. */
    private Optional<EarlyManifest> early = Optional.empty();

    /** As the commands connect, but with no terminal: completion must never wait for a credential plugin's prompt. */
    private dev.stsresize.cluster.ClientEnvironment completionEnvironment() {
        return new dev.stsresize.cluster.ClientEnvironment(environment.variables(), environment.home(),
                dev.stsresize.cluster.ClientEnvironment.SERVICE_ACCOUNT_DIR, false);
    }

    private boolean hasDebugFlag(String[] args) {
        for (String a : args) {
            if (a.equals("--debug")) {
                return true;
            }
        }
        return "1".equals(environment.variables().get("STSRESIZE_DEBUG"));
    }

    private int onException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        if (e instanceof UserError u) {
            err.println("error: " + u.getMessage());
            if (debug) {
                err.println(Version.line());
                u.printStackTrace(err);
            }
            return u.exitCode();
        }
        err.println("error: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        err.println("This is a bug in kubectl-stsresize; run again with --debug for the stack trace and report it.");
        if (debug) {
            err.println(Version.line());
            e.printStackTrace(err);
        }
        return ExitCodes.FAILED;
    }

    private int onBadParameters(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        String unknownFlag = firstUnknownFlag(cl, args);
        if (unknownFlag != null && (e instanceof CommandLine.UnmatchedArgumentException
                || e instanceof CommandLine.MissingParameterException)) {
            // an unknown flag is the likelier mistake: "plan --fliename x" is missing --filename only because of the typo
            String typed = unknownFlag.contains("=") ? unknownFlag.substring(0, unknownFlag.indexOf('=')) : unknownFlag;
            err.println("error: unknown flag: " + typed);
            didYouMean(Suggestions.near(typed, flagNames(cl, typed.startsWith("--"))));
        } else if (e instanceof CommandLine.UnmatchedArgumentException u && cl.getParent() == null
                && !u.getUnmatched().isEmpty() && !cl.getSubcommands().isEmpty()) {
            String typed = u.getUnmatched().get(0);
            err.println("error: unknown command \"" + typed + "\" for \"" + cl.getCommandSpec().qualifiedName() + "\"");
            didYouMean(Suggestions.near(typed, commandNames(cl)));
        } else if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            err.println("error: unexpected argument \"" + u.getUnmatched().get(0) + "\" for \""
                    + cl.getCommandSpec().qualifiedName() + "\"");
        } else if (e.getArgSpec() != null && e.getArgSpec().type().isEnum() && e.getValue() != null) {
            oneOf(e.getArgSpec(), e.getValue());
        } else if (e.getArgSpec() instanceof CommandLine.Model.OptionSpec o && o.type() == java.time.Duration.class && e.getValue() != null) {
            err.println("error: " + o.longestName() + " takes a duration as kubectl writes it, like 30s, 10m0s or 1h30m0s, not \""
                    + e.getValue() + "\".");
        } else {
            err.println("error: " + e.getMessage());
        }
        err.println("See '" + cl.getCommandSpec().qualifiedName() + " --help'.");
        return ExitCodes.FAILED;
    }

    /** A word outside an enum's ({@code --color sometimes}, {@code -o yaml} where only table and json print): its words, in one line. */
    private void oneOf(CommandLine.Model.ArgSpec arg, String typed) {
        java.util.List<String> words = new java.util.ArrayList<>();
        for (Object constant : arg.type().getEnumConstants()) {
            words.add(((Enum<?>) constant).name());
        }
        String name = arg instanceof CommandLine.Model.OptionSpec o ? o.longestName() : arg.paramLabel();
        String choices = words.size() == 1 ? words.get(0)
                : String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
        java.util.List<String> near = Suggestions.near(typed, words);
        err.println("error: " + name + " takes " + choices + ", not \"" + typed + "\"."
                + (near.size() == 1 ? " Did you mean " + near.get(0) + "?" : ""));
    }

    private void didYouMean(java.util.List<String> near) {
        if (near.size() == 1) {
            err.println("Did you mean " + near.get(0) + "?");
        } else if (!near.isEmpty()) {
            err.println("Did you mean one of " + String.join(", ", near.subList(0, Math.min(3, near.size()))) + "?");
        }
    }

    /** The first word that looks like a flag and that the command {@code cl} does not have (before "--"). */
    private static String firstUnknownFlag(CommandLine cl, String[] args) {
        for (String a : args) {
            if (a.equals("--")) {
                return null;
            }
            if (a.startsWith("--") && a.length() > 2) {
                String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
                if (cl.getCommandSpec().findOption(name) == null) {
                    return a;
                }
            }
        }
        return null;
    }

    private static java.util.List<String> flagNames(CommandLine cl, boolean longOnes) {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (CommandLine.Model.OptionSpec o : cl.getCommandSpec().options()) {
            if (!o.hidden()) {
                for (String n : o.names()) {
                    if (n.startsWith("--") == longOnes) {
                        names.add(n);
                    }
                }
            }
        }
        return names;
    }

    private static java.util.List<String> commandNames(CommandLine cl) {
        java.util.List<String> names = new java.util.ArrayList<>();
        cl.getSubcommands().forEach((name, sub) -> {
            if (!sub.getCommandSpec().usageMessage().hidden() && !names.contains(sub.getCommandName())) {
                names.add(sub.getCommandName());
            }
        });
        return names;
    }
}
