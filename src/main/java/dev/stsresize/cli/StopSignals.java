package dev.stsresize.cli;

import dev.stsresize.converge.StopRequest;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT), a lost terminal (SIGHUP) and {@code kill} (SIGTERM) turned into the converge's
 * {@link StopRequest} for the whole command: every run stops at its next safe point (the request in
 * flight finishes, no new write starts), keeps its record and frees its Lease, and the command ends
 * with exit 130 saying how to finish. Without this the JVM's own handlers would exit at once, mid-run,
 * leaving the Lease held until it expires. A second Ctrl-C while stopping exits at once: the record
 * written before each write still lets {@code resume} finish. The handlers that were there before are
 * put back on {@link #close}.
 */
final class StopSignals implements AutoCloseable {
    private static final List<String> NAMES = List.of("INT", "HUP", "TERM");

    private final StopRequest stop;
    private final PrintWriter err;
    private final IntConsumer exitAtOnce;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    /** Ends the line a wait rewrites in place, if one is on the screen, so that what this says starts a line of its own. */
    private volatile Runnable endLine = () -> { };

    private StopSignals(StopRequest stop, PrintWriter err, IntConsumer exitAtOnce) {
        this.stop = stop;
        this.err = err;
        this.exitAtOnce = exitAtOnce;
    }

    /** Installed for the process; a second Ctrl-C halts the JVM with 130 (no shutdown hook may hold it). */
    static StopSignals install(StopRequest stop, PrintWriter err) {
        return install(stop, err, code -> Runtime.getRuntime().halt(code));
    }

    static StopSignals install(StopRequest stop, PrintWriter err, IntConsumer exitAtOnce) {
        StopSignals s = new StopSignals(stop, err, exitAtOnce);
        for (String name : NAMES) {
            try {
                Signal signal = new Signal(name);
                s.previous.put(signal, Signal.handle(signal, s::on));
            } catch (IllegalArgumentException e) {
                // not a signal of this platform, or kept by the JVM (-Xrs): that one keeps its default
            }
        }
        return s;
    }

    /** The line a wait rewrites in place is ended by {@code endLine} before the stop is said (the progress printer's). */
    void endingLinesWith(Runnable endLine) {
        this.endLine = endLine;
    }

    private void on(Signal signal) {
        String name = "SIG" + signal.getName();
        if (stopping.compareAndSet(false, true)) {
            stop.request(name); // first: a question being asked ends its line before this one is written
            endLine.run(); // the terminal echoed ^C after the wait's line: the stop is said on a line of its own
            err.println(name + ": stopping at the next safe point (the request in flight finishes, no new write starts);"
                    + " Ctrl-C again to exit at once");
            err.flush();
        } else if (signal.getName().equals("INT")) {
            // a lost terminal sends SIGHUP more than once (the kernel, then the shell): only a second Ctrl-C is "now"
            endLine.run();
            err.println(name + " again: exiting at once. What was written is recorded: `kubectl stsresize resume` finishes it");
            err.flush();
            exitAtOnce.accept(ExitCodes.INTERRUPTED);
        }
    }

    @Override
    public void close() {
        previous.forEach((signal, handler) -> {
            try {
                Signal.handle(signal, handler);
            } catch (IllegalArgumentException e) {
                // as it was installed
            }
        });
        previous.clear();
    }
}
