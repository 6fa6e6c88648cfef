package dev.stsresize.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * {@code --help} and {@code version} without picocli: building the root command (annotation proxies,
 * reflection, picocli's built-in type converters) was most of their start-up
 * (docs/performance.md). Nothing here names a picocli class, so answering loads none of it.
 *
 * <p>The root's help is the text picocli itself printed at build time ({@code kubectl-stsresize --help}
 * with plain output at the default width of 80, into {@link #ROOT_HELP}; the build's antrun step). Off a
 * terminal it is used only where picocli would print exactly that: no {@code picocli.*} system property, no
 * {@code CLICOLOR_FORCE}, not Windows, not a terminal (where picocli colours the help and fits it to the
 * width). Everywhere else, and when the resource is missing (a build without the step), the command goes to
 * picocli. {@code QuickAnswersTest} checks every answer against picocli's, byte for byte.
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
                out.println(Version.line());
                out.flush();
                return ExitCodes.OK;
            }
            case "--help", "-h" -> {
                String help = picocliMayDiffer(env, terminal) ? null : rootHelp();
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

    private static String rootHelp() {
        try (InputStream in = QuickAnswers.class.getResourceAsStream(ROOT_HELP)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
