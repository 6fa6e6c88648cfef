package dev.stsresize.tui.terminal;

import com.googlecode.lanterna.terminal.Terminal;
import com.googlecode.lanterna.terminal.ansi.UnixLikeTerminal.CtrlCBehaviour;
import com.googlecode.lanterna.terminal.ansi.UnixTerminal;
import dev.stsresize.tui.Glyphs;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Opens the user's terminal. Keys come from {@code /dev/tty} when stdin is a pipe
 * ({@code helm template … | kubectl stsresize -f -}); Ctrl-C arrives as a key (TRAP), so the loop ends
 * normally and restores the terminal instead of the JVM dying in raw mode.
 */
public final class TerminalOpener {
    private TerminalOpener() {}

    public static Terminal open(Glyphs glyphs) throws IOException {
        Charset charset = glyphs.unicode() ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1;
        InputStream in = isTerminal(0) ? System.in : new FileInputStream("/dev/tty");
        return new UnixTerminal(in, System.out, charset, CtrlCBehaviour.TRAP);
    }

    /**
     * Whether file descriptor 0, 1 or 2 of this process is a terminal. Java has no isatty, and
     * {@code System.console()} needs both stdin and stdout; {@code test -t} in a child that inherits the
     * descriptor answers for one of them, portably.
     */
    public static boolean isTerminal(int fd) {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "test -t " + fd);
        switch (fd) {
            case 0 -> pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
            case 1 -> pb.redirectOutput(ProcessBuilder.Redirect.INHERIT);
            case 2 -> pb.redirectError(ProcessBuilder.Redirect.INHERIT);
            default -> throw new IllegalArgumentException("fd " + fd);
        }
        try {
            Process p = pb.start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
