package dev.stsresize.cli;

import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.HomeDirectory;
import dev.stsresize.converge.Journal;
import dev.stsresize.tui.terminal.TerminalOpener;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * What a run gets from outside its arguments: the environment variables, stdin, whether there is a console
 * (stdin and stdout both a terminal), whether stdout alone is one, and the home directory. Read from the
 * process once, by {@link #system()} in {@code Main}; the commands are given it, so that tests pass their own.
 *
 * @param home as kubectl finds it ({@link HomeDirectory}: {@code $HOME}, not the passwd entry's), for the kubeconfig
 *     and the journal alike; the empty path when {@code $HOME} is unset
 *
 * @param stdoutIsTerminal asked only when needed ({@code ui}, {@code demo}): the probe starts a process
 */
public record Environment(Map<String, String> variables, InputStream stdin, boolean console, BooleanSupplier stdoutIsTerminal,
        Path home) {
    public Environment {
        variables = Map.copyOf(variables);
    }

    /** This process's own. */
    public static Environment system() {
        return new Environment(System.getenv(), System.in, System.console() != null, () -> TerminalOpener.isTerminal(1),
                home(System.getenv()));
    }

    /** Given variables and stdin, the console as said; stdout is a terminal when there is a console; the home of those variables. */
    public static Environment of(InputStream stdin, Map<String, String> variables, boolean console) {
        return new Environment(variables, stdin, console, () -> console, home(variables));
    }

    /** The same with other variables (the demo journals its runs next to its files). */
    public Environment withVariables(Map<String, String> replaced) {
        return new Environment(replaced, stdin, console, stdoutIsTerminal, home(replaced));
    }

    /** The same with a console on stdin and stdout (the demo opens its UI only on one). */
    public Environment onConsole() {
        return new Environment(variables, stdin, true, stdoutIsTerminal, home);
    }

    /** The local journal's folder, under the same home as the kubeconfig ({@link Journal#defaultDirectory}). */
    public Journal journal() {
        return new Journal(Journal.defaultDirectory(variables, home));
    }

    /** What decides where the Kubernetes client connects, from these. */
    public ClientEnvironment client() {
        return new ClientEnvironment(variables, home, ClientEnvironment.SERVICE_ACCOUNT_DIR, console);
    }

    private static Path home(Map<String, String> variables) {
        return Path.of(HomeDirectory.of(variables));
    }
}
