package dev.stsresize.converge;

import java.util.ArrayList;
import java.util.List;

/**
 * The operator asked the converge to stop (Ctrl-C, SIGHUP, SIGTERM, leaving the UI): set by the driver
 * from any thread, read by the {@link Convergence} at each safe point. A request in flight finishes;
 * no new write starts; a wait ends at once (its watch is closed). The run keeps its record, so that
 * {@code kubectl stsresize resume} finishes it from the phase it reached.
 */
public final class StopRequest {
    private volatile String reason;
    private final List<AutoCloseable> waits = new ArrayList<>();

    /** Asks every run sharing this request to stop at its next safe point; {@code why} is said in its result ("SIGINT"). */
    public void request(String why) {
        List<AutoCloseable> open;
        synchronized (waits) {
            if (reason != null) {
                return;
            }
            reason = why == null || why.isBlank() ? "a stop request" : why;
            open = List.copyOf(waits);
        }
        for (AutoCloseable w : open) {
            try {
                w.close();
            } catch (Exception e) {
                // a watch that cannot be closed ends at its stretch's end instead
            }
        }
    }

    public boolean requested() {
        return reason != null;
    }

    /** Why the stop was asked for, "" while it was not. */
    public String reason() {
        String r = reason;
        return r == null ? "" : r;
    }

    /**
     * A wait in progress (a watch, a question to the operator): closed at once if a stop is requested
     * while it lasts (or already was). End it with {@link #doneWaiting}.
     */
    public void waiting(AutoCloseable watch) {
        boolean now;
        synchronized (waits) {
            now = reason != null;
            if (!now) {
                waits.add(watch);
            }
        }
        if (now) {
            try {
                watch.close();
            } catch (Exception e) {
                // ends at its stretch's end
            }
        }
    }

    public void doneWaiting(AutoCloseable watch) {
        synchronized (waits) {
            waits.remove(watch);
        }
    }
}
