package dev.stsresize;

import dev.stsresize.cli.Cli;
import dev.stsresize.cli.Environment;
import dev.stsresize.cli.QuickAnswers;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Wiring only: the real stdout, stderr and environment, then exit with the command's code. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        // --help and version first, without picocli (cli.QuickAnswers; docs/performance.md)
        int code = QuickAnswers.answer(args, out, System.getenv(), terminal());
        if (code != QuickAnswers.NOT_ANSWERED) {
            System.exit(code);
        }
        // picocli's default factory looks for Groovy's Closure class when first made: a failed class lookup in
        // the start-up, where nothing else runs yet (docs/performance.md). After QuickAnswers, which
        // leaves the help to picocli wherever a picocli.* property is set.
        System.setProperty("picocli.disable.closures", "true");
        System.exit(new Cli(out, err, Environment.system()).run(args));
    }

    /** As picocli's {@code Help.Ansi.calcTTY} decides: a console that is a terminal (JDK 22+ has a console off one too). */
    private static boolean terminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true;
        }
    }
}
