package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The small words of help and completion: each command's and each flag's summary (the first line of its
 * description, all that the root's list and shell completion show) is a whole sentence; an example is never
 * wrapped inside a command, at any width picocli may use; the root's usage shows the implicit UI.
 */
class HelpWordsTest {
    /** The narrowest width picocli lays help out at: a line no longer than this is never wrapped. */
    static final int NARROWEST = 55;

    /** Ends as a sentence ends, with its parentheses closed; a flag's may begin with its value ("auto (only on a terminal), …"). */
    static boolean wholeSentence(String line) {
        String s = line.replaceAll("\\$\\{[^}]*}", "").strip();
        long open = s.chars().filter(c -> c == '(').count();
        long close = s.chars().filter(c -> c == ')').count();
        return !s.isEmpty() && (s.endsWith(".") || s.endsWith(".)") || s.endsWith("?")) && open == close;
    }

    static boolean capitalised(String line) {
        return !line.isEmpty() && Character.isUpperCase(line.charAt(0));
    }

    @Test
    void everySummaryIsAWholeSentence() {
        List<String> broken = new ArrayList<>();
        CommandLine root = CommandContractTest.tree();
        root.getSubcommands().forEach((name, sub) -> {
            String[] description = sub.getCommandSpec().usageMessage().description();
            if (description.length == 0 || !wholeSentence(description[0]) || !capitalised(description[0])) {
                broken.add(name + ": " + (description.length == 0 ? "(none)" : description[0]));
            }
            for (OptionSpec o : sub.getCommandSpec().options()) {
                if (!o.hidden() && (o.description().length == 0 || !wholeSentence(o.description()[0]))) {
                    broken.add(name + " " + o.longestName() + ": " + (o.description().length == 0 ? "(none)" : o.description()[0]));
                }
            }
        });
        assertThat(broken).as("summaries cut mid-sentence in the root's list and in shell completion").isEmpty();
    }

    @Test
    void completionOffersTheSameWholeSentences() {
        StringWriter out = new StringWriter();
        new Cli(new PrintWriter(out), new PrintWriter(new StringWriter()), new ByteArrayInputStream(new byte[0]), Map.of(), false)
                .run("__complete", "");
        List<String> summaries = out.toString().lines().filter(l -> l.contains("\t")).map(l -> l.substring(l.indexOf('\t') + 1)).toList();
        assertThat(summaries).isNotEmpty().allSatisfy(s -> assertThat(wholeSentence(s)).as(s).isTrue());
    }

    @Test
    void noExampleIsWrappedInsideACommand() {
        List<String> tooLong = new ArrayList<>();
        CommandContractTest.tree().getSubcommands().forEach((name, sub) -> {
            for (String line : sub.getCommandSpec().usageMessage().footer()) {
                if (line.length() > NARROWEST) {
                    tooLong.add(name + ": " + line);
                }
            }
        });
        assertThat(tooLong).as("example lines picocli would wrap at %d columns (continue them with \\)", NARROWEST).isEmpty();
    }

    @Test
    void theRootUsageShowsTheImplicitUi() {
        StringWriter out = new StringWriter();
        int code = new Cli(new PrintWriter(out), new PrintWriter(new StringWriter()), new ByteArrayInputStream(new byte[0]), Map.of(), false)
                .run("--help");
        assertThat(code).isZero();
        assertThat(out.toString()).contains("kubectl stsresize -f MANIFEST").doesNotContain("Usage: Usage:");
    }
}
