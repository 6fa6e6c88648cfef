package dev.stsresize.cli;

import dev.stsresize.converge.Outcome;
import dev.stsresize.converge.StatefulSetResult;
import java.util.List;

/**
 * A converge cut short by an error nobody handled (the server kept failing, the lock was lost): its
 * StatefulSet's result says so, and that its run is recorded for {@code resume}; the other
 * StatefulSets still run and {@code -o json} still prints its one document.
 */
final class Interrupted {
    private Interrupted() {}

    static StatefulSetResult result(String namespace, String name, RuntimeException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new StatefulSetResult(namespace, name, Outcome.FAILED, "interrupted", "the converge stopped: " + message
                + ". What was written is recorded in its Lease and local journal: `kubectl stsresize resume` finishes it,"
                + " a re-run of apply too", List.of(), List.of(), List.of());
    }
}
