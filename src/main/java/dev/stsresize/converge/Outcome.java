package dev.stsresize.converge;

/** How converging one StatefulSet ended: the {@code outcome} word of the Result document. */
public enum Outcome {
    CONVERGED("converged"),
    CLAIMS_GROWN("claims-grown"),
    NOTHING_TO_DO("nothing-to-do"),
    ABSENT("absent"),
    REFUSED("refused"),
    BLOCKED("blocked"),
    FAILED("failed"),
    /** Ctrl-C, SIGHUP, SIGTERM or the end of input at a question: the run waits for {@code resume}, nothing failed. */
    STOPPED("stopped"),
    DRY_RUN_OK("dry-run-ok");

    private final String label;

    Outcome(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
