package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** apply's widths from as few terminal probes as answer them: each probe opens the system terminal. */
class TerminalWidthTest {
    /** A terminal where stderr (and stdout) is {@code stderrWidth} wide, stdout {@code stdoutWidth}; each probe noted. */
    private static TerminalWidth.Probe terminal(int stderrWidth, int stdoutWidth, List<String> probes) {
        return stderr -> {
            probes.add(stderr ? "stderr" : "stdout");
            return stderr ? stderrWidth : stdoutWidth;
        };
    }

    @Test
    void on_a_terminal_one_probe_gives_the_table_and_the_progress_line_their_width() {
        List<String> probes = new ArrayList<>();
        TerminalWidth.ForApply w = TerminalWidth.forApply(Map.of(), false, true, terminal(120, 120, probes));
        assertThat(w).isEqualTo(new TerminalWidth.ForApply(120, 120));
        assertThat(probes).as("one probe").containsExactly("stderr");

        probes.clear();
        assertThat(TerminalWidth.forApply(Map.of(), true, true, terminal(90, 0, probes))).as("-o json: the table on stderr")
                .isEqualTo(new TerminalWidth.ForApply(90, 90));
        assertThat(probes).containsExactly("stderr");
    }

    @Test
    void stderr_redirected_from_a_terminal_stdout_costs_a_probe_of_stdout() {
        List<String> probes = new ArrayList<>();
        assertThat(TerminalWidth.forApply(Map.of(), false, true, terminal(TerminalWidth.NONE, 100, probes)))
                .isEqualTo(new TerminalWidth.ForApply(100, TerminalWidth.NONE));
        assertThat(probes).containsExactly("stderr", "stdout");
    }

    @Test
    void columns_sets_the_table_only_and_no_terminal_means_no_probe() {
        List<String> probes = new ArrayList<>();
        assertThat(TerminalWidth.forApply(Map.of("COLUMNS", "80"), false, true, terminal(120, 120, probes)))
                .isEqualTo(new TerminalWidth.ForApply(80, 120));
        assertThat(probes).containsExactly("stderr");

        probes.clear();
        assertThat(TerminalWidth.forApply(Map.of(), false, false, terminal(120, 120, probes)))
                .isEqualTo(new TerminalWidth.ForApply(TerminalWidth.NONE, TerminalWidth.NONE));
        assertThat(probes).isEmpty();
    }
}
