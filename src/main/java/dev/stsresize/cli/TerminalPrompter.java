package dev.stsresize.cli;

import dev.stsresize.tui.terminal.TerminalOpener;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Prompts on the operator's terminal: read from stdin when it is one, else from {@code /dev/tty} (so
 * {@code apply … 2>&1 | tee run.log} still asks); the question written to stderr when it is a terminal,
 * else to {@code /dev/tty}. None when there is no terminal at all (CI, {@code setsid}, cron): then
 * {@code --yes} is needed. The terminal stays in its line mode: the kernel echoes and edits the line,
 * and Ctrl-C is SIGINT, which {@link StopSignals} turns into the stop; it ends the question here
 * through {@link #cancel} (a read of a {@link FileChannel} ends when its thread is interrupted).
 */
final class TerminalPrompter implements Prompter {
    private final FileChannel in;
    private final PrintWriter out;
    private Thread asking;
    private volatile boolean cancelled;

    private TerminalPrompter(FileChannel in, PrintWriter out) {
        this.in = in;
        this.out = out;
    }

    /** A prompter on the terminal, or empty when this process has none. */
    static Optional<Prompter> open(PrintWriter err) {
        try {
            FileChannel in = TerminalOpener.isTerminal(0) ? new FileInputStream(FileDescriptor.in).getChannel()
                    : FileChannel.open(Path.of("/dev/tty"), StandardOpenOption.READ);
            PrintWriter out = TerminalOpener.isTerminal(2) ? err
                    : new PrintWriter(new OutputStreamWriter(new java.io.FileOutputStream("/dev/tty"), StandardCharsets.UTF_8), true);
            return Optional.of(new TerminalPrompter(in, out));
        } catch (IOException | UncheckedIOException | SecurityException e) {
            return Optional.empty(); // no controlling terminal: /dev/tty cannot be opened
        }
    }

    @Override
    public String ask(String question) {
        synchronized (this) {
            if (cancelled) {
                throw new Interrupted();
            }
            asking = Thread.currentThread();
        }
        try {
            out.print(question);
            out.flush();
            return readLine();
        } catch (ClosedByInterruptException e) {
            throw new Interrupted();
        } catch (IOException e) {
            return null; // the terminal went away (SIGHUP follows): no answer
        } finally {
            synchronized (this) {
                asking = null;
            }
            if (cancelled) {
                Thread.interrupted(); // the interrupt was for the read: the requests that follow must not see it
            }
        }
    }

    @Override
    public synchronized void cancel() {
        cancelled = true;
        if (asking != null) {
            out.println(); // after the terminal's "^C": what is written next starts on its own line
            out.flush();
            asking.interrupt();
        }
    }

    /** One line as the terminal's line discipline hands it over; null at end of input (Ctrl-D) before any character. */
    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(1);
        while (true) {
            b.clear();
            int n = in.read(b);
            if (n < 0) {
                out.println(); // Ctrl-D is not echoed: what is written next starts on its own line
                out.flush();
                return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
            }
            if (n == 0) {
                continue;
            }
            byte c = b.get(0);
            if (c == '\n') {
                return line.toString(StandardCharsets.UTF_8).replaceFirst("\r$", "");
            }
            line.write(c);
        }
    }
}
