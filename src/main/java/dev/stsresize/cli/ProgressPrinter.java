package dev.stsresize.cli;

import dev.stsresize.converge.ClaimGrower;
import dev.stsresize.converge.Progress;
import dev.stsresize.converge.ProgressEvent;
import dev.stsresize.converge.Phase;
import dev.stsresize.converge.WaitTick;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Progress as lines on stderr: {@code [step] ns/name: message}, then the kubectl equivalent of a write.
 * A wait speaks at least every {@link #INTERVAL}: what it waits for, for how long, how each claim
 * stands. On a terminal ({@code width} > 0) that line is rewritten in place at every tick, cut to the
 * width so that it never wraps; otherwise (a pipe, a file, CI logs) one line when a wait begins and
 * one each time its elapsed time enters a new interval. A claim's new word from its resizer (an Event, its allocation status) is a
 * line of its own at once, on a terminal too: it is what the operator must read in full.
 */
final class ProgressPrinter implements Progress {
    /** The longest a wait goes without a line when stderr is not a terminal. */
    static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final String CLEAR_LINE = "\r\u001b[K";

    private final PrintWriter err;
    /** The terminal's width when stderr is one (the wait's line is rewritten in place), else 0. */
    private final int width;
    /** The wait a line was last printed for, and the elapsed time it said. */
    private String lastWait = "";
    private Duration lastPrinted = Duration.ZERO;
    /** Each claim's last word printed, by namespace/StatefulSet/claim. */
    private final Map<String, String> said = new HashMap<>();
    /** Whether the in-place line is on the screen (the next line first clears it). */
    private boolean inPlaceShown;

    ProgressPrinter(PrintWriter err) {
        this(err, 0);
    }

    /** @param width the terminal's columns when stderr is a terminal (the wait's line in place), else 0 */
    ProgressPrinter(PrintWriter err, int width) {
        this.err = err;
        this.width = width;
    }

    @Override
    public synchronized void on(ProgressEvent e) {
        clearInPlace();
        String target = e.name().isEmpty() ? "" : e.namespace() + "/" + e.name() + ": ";
        // a failed run's paragraph is the result's, printed once with it; here only the word
        String message = e.isOutcome() && e.warning() && e.message().contains(": ")
                ? e.message().substring(0, e.message().indexOf(": ")) + " (the result says why)" : e.message();
        err.println((e.warning() ? "WARNING " : "") + "[" + e.step().label() + "] " + target + message);
        if (!e.kubectl().isEmpty()) {
            err.println("    equivalent: " + e.kubectl());
        }
        err.flush();
    }

    @Override
    public synchronized void waiting(WaitTick t) {
        String prefix = "[" + t.step().label() + "] " + t.namespace() + "/" + t.name() + ": ";
        for (ClaimGrower.ClaimStatus c : t.claims()) {
            String key = t.namespace() + "/" + t.name() + "/" + c.name();
            if (!c.latest().isEmpty() && !c.latest().equals(said.get(key))) {
                said.put(key, c.latest());
                clearInPlace();
                err.println(prefix + "claim " + c.name() + ": " + c.latest());
            }
        }
        String line = prefix + line(t);
        String wait = t.namespace() + "/" + t.name() + "/" + t.what();
        if (width > 0) {
            // two columns kept free for the ^C the terminal echoes after it: a stop's words then start the next row
            String cut = line.length() > width - 3 ? line.substring(0, Math.max(0, width - 4)) + "…" : line;
            err.print(CLEAR_LINE + cut);
            inPlaceShown = true;
        } else if (!wait.equals(lastWait) || interval(t.elapsed()) != interval(lastPrinted)) {
            // a line each time the elapsed time enters a new interval: the Waiter ticks at each stretch's
            // end, so the gap between two lines is never more than one interval
            err.println(line);
        } else {
            err.flush();
            return;
        }
        lastWait = wait;
        lastPrinted = t.elapsed();
        err.flush();
    }

    private static long interval(Duration elapsed) {
        return elapsed.toMillis() / INTERVAL.toMillis();
    }

    /** "waiting 1m20s (8m40s left) for …; data-db-0 10Gi of 20Gi resizing, data-db-1 grown". */
    static String line(WaitTick t) {
        StringBuilder b = new StringBuilder("waiting ").append(words(t.elapsed())).append(" (").append(words(t.left()))
                .append(" left) for ").append(t.what());
        List<ClaimGrower.ClaimStatus> claims = t.claims();
        if (!claims.isEmpty()) {
            b.append("; ");
            for (int i = 0; i < claims.size(); i++) {
                ClaimGrower.ClaimStatus c = claims.get(i);
                b.append(i == 0 ? "" : ", ").append(c.name()).append(' ').append(state(c, t.step()));
            }
        }
        return b.toString();
    }

    private static String state(ClaimGrower.ClaimStatus c, Phase step) {
        String capacity = c.capacity().isEmpty() ? "?" : c.capacity();
        List<String> conditions = c.conditions();
        return switch (c.state()) {
            // in the file systems' wait a claim's status says its volume, not the file system the wait is for
            case GROWN -> (step == Phase.FILE_SYSTEMS ? "volume grown to " : "grown to ") + capacity;
            case FILE_SYSTEM_PENDING -> "volume grown, FileSystemResizePending";
            case INFEASIBLE -> "infeasible";
            case GONE -> "gone";
            case REQUESTED_LESS -> "not patched yet";
            case WAITING -> capacity + " of " + c.to() + (conditions.isEmpty() ? "" : " (" + String.join(", ", conditions) + ")");
        };
    }

    /** "45s", "1m20s", "1h02m". */
    static String words(Duration d) {
        long s = Math.max(0, d.getSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m" + String.format("%02d", s % 60) + "s";
        }
        return (s / 3600) + "h" + String.format("%02d", (s % 3600) / 60) + "m";
    }

    /**
     * Ends the wait's in-place line where it stands (kept on the screen, with the {@code ^C} the terminal echoed
     * after it), so that the next words start a line of their own; nothing when no such line is shown.
     */
    synchronized void endLine() {
        if (inPlaceShown) {
            err.println();
            err.flush();
            inPlaceShown = false;
        }
    }

    private void clearInPlace() {
        if (inPlaceShown) {
            err.print(CLEAR_LINE);
            inPlaceShown = false;
        }
    }
}
