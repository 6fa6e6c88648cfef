package dev.stsresize.cli;

import dev.stsresize.converge.Outcome;
import dev.stsresize.converge.StatefulSetResult;
import java.util.List;

/**
 * A converge cut short by an error nobody handled (the server kept failing, the lock was lost) after
 * its lock and record were kept (a failure to keep them is the Converger's own "record-not-kept"
 * result, which says nothing was written): its StatefulSet's result says so; the other
 * StatefulSets still run and {@code -o json} still prints its one document.
 */
final class Interrupted {
    private Interrupted() {}

    static StatefulSetResult result(String namespace, String name, RuntimeException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new StatefulSetResult(namespace, name, Outcome.FAILED, "interrupted", "the converge stopped: " + message
                + ". The run kept its record before its first write (Secret and Lease, or the local journal where those are"
                + " forbidden): a re-run of apply with the same manifest finishes it, `kubectl stsresize resume` too",
                List.of(), List.of(), List.of());
    }
}
