package dev.stsresize.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code --help} and {@code version} without picocli: building the root command (annotation proxies,
 * reflection, picocli's built-in type converters) was most of their start-up (issue 16; README,
 * Performance). Nothing here names a picocli class, so answering loads none of it.
 *
 * <p>The root's help is the text picocli itself printed at build time ({@code kubectl-stsresize --help}
 * with plain output at the default width of 80, into {@link #ROOT_HELP}; the build's antrun step). Off a
 * terminal it is used only where picocli would print exactly that: no {@code picocli.*} system property, no
 * {@code CLICOLOR_FORCE}, not Windows. On a terminal picocli colours the help and fits it to the width, which
 * it learns from {@code stty}: there the build's text of that width ({@link TerminalRootHelp}) is printed, when
 * the launcher said the width and no colour variable is set. Everywhere else, and when a resource is
 * missing (a build without the step), the command goes to picocli as before. {@code QuickAnswersTest}
 * checks every answer against picocli's, byte for byte, at many widths.
 */
public final class QuickAnswers {
    /** The root's usage help as picocli prints it off a terminal, written by the build. */
    static final String ROOT_HELP = "/dev/stsresize/cli/root-help.txt";

    /** Not answered here: run picocli. */
    public static final int NOT_ANSWERED = -1;

    private QuickAnswers() {}

    /**
     * The exit code after printing the answer to {@code args}, or {@link #NOT_ANSWERED}.
     *
     * @param terminal whether picocli would find a terminal: a console that is one ({@code Main} asks as
     *     picocli's {@code Ansi.calcTTY} does)
     */
    public static int answer(String[] args, PrintWriter out, Map<String, String> env, boolean terminal) {
        if (args.length != 1) {
            return NOT_ANSWERED;
        }
        switch (args[0]) {
            case "version", "--version", "-V" -> {
                // VersionCommand and Version (the root's version provider) print this line whatever the terminal
                out.println("kubectl-stsresize " + Version.get());
                out.flush();
                return ExitCodes.OK;
            }
            case "--help", "-h" -> {
                String help = terminal ? onTerminal(env) : picocliMayDiffer(env, terminal) ? null : rootHelp();
                if (help == null) {
                    return NOT_ANSWERED;
                }
                out.print(help);
                out.flush();
                return ExitCodes.OK;
            }
            default -> {
                return NOT_ANSWERED;
            }
        }
    }

    /**
     * Whether picocli might print the help otherwise than plain at 80 columns: its ANSI and width
     * decisions ({@code CommandLine.Help.Ansi}, {@code UsageMessageSpec}) read these.
     */
    static boolean picocliMayDiffer(Map<String, String> env, boolean terminal) {
        for (Object key : System.getProperties().keySet()) {
            if (key.toString().startsWith("picocli.")) {
                return true;
            }
        }
        String force = env.get("CLICOLOR_FORCE");
        if (force != null && !force.equals("0")) {
            return true;
        }
        return System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("win") || terminal;
    }

    /**
     * The help picocli would print on this terminal: in colour (on a terminal, not Windows, with none of the
     * variables its {@code Help.Ansi.ansiPossible} reads), at the width the launcher measured
     * ({@link TerminalRootHelp}); null where any of that is not known for sure.
     */
    static String onTerminal(Map<String, String> env) {
        if (picocliMayDiffer(env, false)) {
            return null;
        }
        for (String colourVariable : List.of("NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "ConEmuANSI", "ANSICON")) {
            if (env.containsKey(colourVariable)) {
                return null;
            }
        }
        OptionalInt columns = TerminalRootHelp.columns(env);
        return columns.isEmpty() ? null : TerminalRootHelp.at(columns.getAsInt()).orElse(null);
    }

    private static String rootHelp() {
        try (InputStream in = QuickAnswers.class.getResourceAsStream(ROOT_HELP)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
