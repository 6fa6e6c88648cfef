package dev.stsresize.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The one contract of every subcommand: {@link #validate()} checks the flags alone — no file read, no
 * connection made, no request sent — and only then {@link #run()} does the work. A bad value is one
 * {@code error:} paragraph and exit 1 ({@link #invalid}), before anything else happens; {@code --debug} is
 * accepted everywhere. {@code CommandContractTest} holds every command to it.
 */
abstract class BaseCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin DebugOption debug;

    @Override
    public final Integer call() throws Exception {
        validate();
        return run();
    }

    /** The flags and arguments alone, each checked as its consumer would check it later: throws {@link #invalid} or a UserError. */
    protected abstract void validate();

    /** The command itself, its flags known to be good. Returns the exit status. */
    protected abstract int run() throws Exception;

    /** A flag's value this command cannot use: printed as {@code error: MESSAGE} and the command's help hint, exit 1. */
    protected final ParameterException invalid(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    protected final PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected final PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
