package dev.stsresize.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The root's help as picocli prints it on a terminal, coloured and fitted to the width, for every width:
 * the build renders it once per width from 55 (picocli's least) to {@value #WIDEST} and keeps each distinct
 * text with the first width it holds for; {@link QuickAnswers} prints the one of the terminal's width.
 *
 * <p>File format ({@value #RESOURCE}): the first line lists the first width of each text, in order; then the
 * texts, each ended by a NUL. A width past the last text's first one gets the last text: the build fails
 * unless the text at {@value #WIDEST} is the text at any width beyond (no line of it wraps any more).
 */
final class TerminalRootHelp {
    static final String RESOURCE = "/dev/stsresize/cli/root-help-terminal.txt";
    static final int NARROWEST = 55;
    static final int WIDEST = 400;

    /** Set by the launcher on a terminal, when help is asked, to its width as {@code stty size} said. */
    static final String COLUMNS = "STSRESIZE_TERMINAL_COLUMNS";

    private TerminalRootHelp() {}

    /** The width the launcher measured, if it did and said a number. */
    static java.util.OptionalInt columns(Map<String, String> env) {
        String columns = env.get(COLUMNS);
        return columns != null && columns.matches("[1-9][0-9]{0,4}") ? java.util.OptionalInt.of(Integer.parseInt(columns))
                : java.util.OptionalInt.empty();
    }

    /** The text for a terminal {@code columns} wide, or empty when the build did not write the file. */
    static Optional<String> at(int columns) {
        try (InputStream in = TerminalRootHelp.class.getResourceAsStream(RESOURCE)) {
            return in == null ? Optional.empty() : Optional.of(pick(new String(in.readAllBytes(), StandardCharsets.UTF_8), columns));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static String pick(String file, int columns) {
        int newline = file.indexOf('\n');
        String[] starts = file.substring(0, newline).split(" ");
        String[] texts = file.substring(newline + 1).split("\0", -1);
        int chosen = 0;
        for (int i = 0; i < starts.length; i++) {
            if (Integer.parseInt(starts[i]) <= Math.max(columns, NARROWEST)) {
                chosen = i;
            }
        }
        return texts[chosen];
    }

    /** The build's side, a class of its own so that reading the file loads no picocli class. */
    static final class Build {
        private Build() {}

        /** As picocli prints {@code --help} on a terminal of that width: the tree {@code Cli} builds for it, in colour. */
        static String render(int width) {
            StringWriter out = new StringWriter();
            Cli cli = new Cli(new PrintWriter(out), new PrintWriter(new StringWriter()),
                    Environment.of(new ByteArrayInputStream(new byte[0]), Map.of(), false));
            picocli.CommandLine cl = cli.commandLine("");
            cl.getCommandSpec().usageMessage().autoWidth(false).width(width);
            PrintWriter pw = new PrintWriter(out);
            cl.usage(pw, picocli.CommandLine.Help.Ansi.ON);
            pw.flush();
            return out.toString();
        }

        /** The build's step: writes the file to {@code args[0]}. */
        public static void main(String[] args) throws IOException {
            List<String> starts = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            for (int w = NARROWEST; w <= WIDEST; w++) {
                String text = render(w);
                if (texts.isEmpty() || !texts.get(texts.size() - 1).equals(text)) {
                    starts.add(Integer.toString(w));
                    texts.add(text);
                }
            }
            if (!render(WIDEST * 4).equals(texts.get(texts.size() - 1))) {
                throw new IllegalStateException("the root's help still wraps at " + WIDEST + " columns: raise TerminalRootHelp.WIDEST");
            }
            StringBuilder file = new StringBuilder(String.join(" ", starts)).append('\n');
            texts.forEach(t -> file.append(t).append('\0'));
            Files.writeString(Path.of(args[0]), file, StandardCharsets.UTF_8);
        }
    }
}
