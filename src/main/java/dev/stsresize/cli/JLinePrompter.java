package dev.stsresize.cli;

import java.io.IOException;
import java.util.Optional;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/** Prompts through jline3 on the controlling terminal; none when there is no terminal (a "dumb" one). */
final class JLinePrompter implements Prompter {
    private final LineReader reader;

    private JLinePrompter(LineReader reader) {
        this.reader = reader;
    }

    /** A prompter on the system terminal, or empty when stdin/stdout are not a terminal. */
    static Optional<Prompter> onTerminal() {
        try {
            Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).build();
            if (Terminal.TYPE_DUMB.equals(terminal.getType()) || Terminal.TYPE_DUMB_COLOR.equals(terminal.getType())) {
                terminal.close();
                return Optional.empty();
            }
            return Optional.of(new JLinePrompter(LineReaderBuilder.builder().terminal(terminal).build()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public String ask(String question) {
        try {
            return reader.readLine(question);
        } catch (UserInterruptException | EndOfFileException e) {
            return null;
        }
    }
}
