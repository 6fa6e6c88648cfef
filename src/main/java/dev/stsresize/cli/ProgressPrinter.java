package dev.stsresize.cli;

import dev.stsresize.converge.Progress;
import dev.stsresize.converge.ProgressEvent;
import java.io.PrintWriter;

/** Progress as lines on stderr: {@code [step] ns/name: message}, then the kubectl equivalent of a write. */
final class ProgressPrinter implements Progress {
    private final PrintWriter err;

    ProgressPrinter(PrintWriter err) {
        this.err = err;
    }

    @Override
    public synchronized void on(ProgressEvent e) {
        String target = e.name().isEmpty() ? "" : e.namespace() + "/" + e.name() + ": ";
        err.println((e.warning() ? "WARNING " : "") + "[" + e.step().label() + "] " + target + e.message());
        if (!e.kubectl().isEmpty()) {
            err.println("    equivalent: " + e.kubectl());
        }
        err.flush();
    }
}
