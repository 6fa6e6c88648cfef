package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@link QuickAnswers} prints what picocli prints, byte for byte, with the same exit code: the root's help
 * the build wrote, the version. (Off a terminal, as here: where picocli would colour or re-wrap the help,
 * QuickAnswers leaves it to picocli.)
 */
class QuickAnswersTest {
    private record Run(int code, String out, String err) {}

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--help", "-h", "version", "--version", "-V"})
    void answersAsPicocliDoes(String arg) {
        StringWriter quick = new StringWriter();
        int code = QuickAnswers.answer(new String[] {arg}, new PrintWriter(quick), Map.of(), false);

        Run picocli = picocli(arg);
        assertThat(code).isNotEqualTo(QuickAnswers.NOT_ANSWERED).isEqualTo(picocli.code());
        assertThat(quick.toString()).isEqualTo(picocli.out()).isNotBlank();
        assertThat(picocli.err()).isEmpty();
    }

    @Test
    void theBuildWroteTheRootHelp() {
        // without it --help would still be right (picocli answers), only slow: this keeps the build step honest
        assertThat(QuickAnswers.class.getResource(QuickAnswers.ROOT_HELP)).isNotNull();
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "plan --help", "--help plan", "version --help", "--debug", "plan"})
    void leavesEverythingElseToPicocli(String args) {
        StringWriter out = new StringWriter();
        String[] words = args.isEmpty() ? new String[0] : args.split(" ");
        assertThat(QuickAnswers.answer(words, new PrintWriter(out), Map.of(), false)).isEqualTo(QuickAnswers.NOT_ANSWERED);
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void leavesHelpToPicocliWhereItMightColourOrWrapIt() {
        assertThat(QuickAnswers.picocliMayDiffer(Map.of(), false)).isFalse();
        assertThat(QuickAnswers.picocliMayDiffer(Map.of(), true)).as("on a terminal").isTrue();
        assertThat(QuickAnswers.answer(new String[] {"--help"}, new PrintWriter(new StringWriter()), Map.of(), true))
                .as("on a terminal, where picocli colours it and fits it to the width").isEqualTo(QuickAnswers.NOT_ANSWERED);
        assertThat(QuickAnswers.picocliMayDiffer(Map.of("CLICOLOR_FORCE", "1"), false)).isTrue();
        assertThat(QuickAnswers.picocliMayDiffer(Map.of("CLICOLOR_FORCE", "0"), false)).isFalse();
        System.setProperty("picocli.usage.width", "120");
        try {
            assertThat(QuickAnswers.picocliMayDiffer(Map.of(), false)).isTrue();
            assertThat(QuickAnswers.answer(new String[] {"--help"}, new PrintWriter(new StringWriter()), Map.of(), false))
                    .isEqualTo(QuickAnswers.NOT_ANSWERED);
        } finally {
            System.clearProperty("picocli.usage.width");
        }
    }

    private static Run picocli(String arg) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new Cli(new PrintWriter(out), new PrintWriter(err), new ByteArrayInputStream(new byte[0]), Map.of(), false)
                .run(arg);
        return new Run(code, out.toString(), err.toString());
    }
}
