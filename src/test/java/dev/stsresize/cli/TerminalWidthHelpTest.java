package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The launcher measures the terminal for help ({@code stty size}, a fork of the shell) and says it in
 * {@value Cli#TERMINAL_COLUMNS}: picocli then fits the auto-width helps to it instead of starting stty
 * itself; the fixed-width helps stay at 80, as picocli leaves them.
 */
class TerminalWidthHelpTest {
    private static String help(Map<String, String> env, boolean console, String... args) {
        StringWriter out = new StringWriter();
        Cli cli = new Cli(new PrintWriter(out), new PrintWriter(new StringWriter()), Environment.of(new ByteArrayInputStream(new byte[0]), env, console));
        assertThat(cli.run(args)).isZero();
        // without colour: no ANSI escape counts in a line's width (these tests have no real terminal)
        return out.toString().replaceAll("\u001B\\[[0-9;]*m", "");
    }

    private static int widest(String text) {
        return Arrays.stream(text.split("\n")).mapToInt(String::length).max().orElse(0);
    }

    @Test
    void anAutoWidthHelpTakesTheMeasuredWidth() {
        String wide = help(Map.of(Cli.TERMINAL_COLUMNS, "160"), true, "plan", "--help");
        String plain = help(Map.of(), false, "plan", "--help");
        assertThat(widest(plain)).isLessThanOrEqualTo(80);
        assertThat(widest(wide)).isGreaterThan(80).isLessThanOrEqualTo(160);
    }

    @Test
    void aNarrowTerminalGetsPicocliMinimumOf55() {
        String narrow = help(Map.of(Cli.TERMINAL_COLUMNS, "30"), true, "plan", "--help");
        assertThat(widest(narrow)).isGreaterThan(30).isLessThanOrEqualTo(55);
    }

    @Test
    void aFixedWidthHelpStaysAt80() {
        assertThat(help(Map.of(Cli.TERMINAL_COLUMNS, "160"), true, "simulate", "--help"))
                .isEqualTo(help(Map.of(), false, "simulate", "--help"));
    }

    @Test
    void offAConsoleOrWithGarbageTheWidthIsPicocliOwn() {
        String plain = help(Map.of(), false, "plan", "--help");
        assertThat(help(Map.of(Cli.TERMINAL_COLUMNS, "160"), false, "plan", "--help")).isEqualTo(plain);
        assertThat(help(Map.of(Cli.TERMINAL_COLUMNS, "160x"), true, "plan", "--help")).isEqualTo(plain);
    }
}
