package dev.stsresize.cli;

import java.io.IOException;
import java.util.Map;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * How many columns the plan table may use: {@code COLUMNS} when set to a positive number (as GNU
 * ls reads it: it wins over the terminal, so {@code COLUMNS=80 kubectl stsresize plan …} is a way
 * to ask for a narrow table, piped or not); else the width of the terminal the table is written to,
 * asked through jline; else (a pipe, a file) no limit.
 */
final class TerminalWidth {
    /** No limit. */
    static final int NONE = 0;

    private TerminalWidth() {}

    /**
     * @param stderr the table goes to stderr (apply -o json), else to stdout
     * @param mayBeTerminal false when the stream is known not to be a terminal: jline is not even asked
     */
    static int of(Map<String, String> env, boolean stderr, boolean mayBeTerminal) {
        int columns = parse(env.get("COLUMNS"));
        if (columns > 0) {
            return columns;
        }
        return mayBeTerminal ? ofTerminal(stderr) : NONE;
    }

    /** The widths {@code apply} needs: its plan table's, and stderr's for the progress line ({@link #NONE}: not a terminal). */
    record ForApply(int table, int progress) {}

    /** Asks the terminal one stream is written to for its width ({@link #NONE}: not a terminal). */
    interface Probe {
        int width(boolean stderr);
    }

    /**
     * Both widths {@code apply} needs, with one terminal probe where one answers both: stderr is probed
     * (the progress line goes there, and with {@code -o json} the table too); when it is a terminal and
     * stdout is one as well ({@code mayBeTerminal}), they are the operator's one window. Only a stderr
     * redirected away from a terminal stdout costs a second probe, of stdout. Each probe opens the system
     * terminal. {@code COLUMNS} sets the table's width only (set on a pipe, it says nothing of a terminal).
     *
     * @param tableOnStderr the table goes to stderr (apply -o json), else to stdout
     */
    static ForApply forApply(Map<String, String> env, boolean tableOnStderr, boolean mayBeTerminal) {
        return forApply(env, tableOnStderr, mayBeTerminal, TerminalWidth::ofTerminal);
    }

    static ForApply forApply(Map<String, String> env, boolean tableOnStderr, boolean mayBeTerminal, Probe probe) {
        int progress = mayBeTerminal ? probe.width(true) : NONE;
        int columns = parse(env.get("COLUMNS"));
        if (columns > 0) {
            return new ForApply(columns, progress);
        }
        if (!mayBeTerminal) {
            return new ForApply(NONE, progress);
        }
        if (tableOnStderr || progress != NONE) {
            return new ForApply(progress, progress);
        }
        return new ForApply(probe.width(false), progress);
    }

    static int parse(String columns) {
        if (columns == null || columns.isBlank()) {
            return NONE;
        }
        try {
            return Math.max(NONE, Integer.parseInt(columns.trim()));
        } catch (NumberFormatException e) {
            return NONE;
        }
    }

    private static int ofTerminal(boolean stderr) {
        // nativeSignals(false): jline would put the default SIGINT handler in place of StopSignals' while it is open
        try (Terminal t = TerminalBuilder.builder().system(true).dumb(true).nativeSignals(false)
                .systemOutput(stderr ? TerminalBuilder.SystemOutput.SysErr : TerminalBuilder.SystemOutput.SysOut)
                .build()) {
            if (Terminal.TYPE_DUMB.equals(t.getType()) || Terminal.TYPE_DUMB_COLOR.equals(t.getType())) {
                return NONE;
            }
            return Math.max(NONE, t.getWidth());
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }
}
