package dev.stsresize;

import dev.stsresize.cli.Cli;
import dev.stsresize.cli.Environment;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Wiring only: the real stdout, stderr and environment, then exit with the command's code. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(new Cli(out, err, Environment.system()).run(args));
    }
}
