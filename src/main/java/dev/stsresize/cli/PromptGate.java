package dev.stsresize.cli;

import dev.stsresize.converge.GateAnswers;
import dev.stsresize.plan.Decision;
import java.io.PrintWriter;

/**
 * The gates answered by the operator: y/N before growing, the StatefulSet's name typed before the
 * orphan delete. A name typed wrong is asked again, as the UI does, up to {@value #NAME_TRIES} times
 * in all; an empty line says no. Ctrl-C at either stops the whole command (see {@link StoppablePrompter}).
 */
final class PromptGate implements GateAnswers {
    static final int NAME_TRIES = 3;

    private final StoppablePrompter prompter;
    private final PrintWriter err;

    PromptGate(StoppablePrompter prompter, PrintWriter err) {
        this.prompter = prompter;
        this.err = err;
    }

    @Override
    public boolean allowGrow(Decision d) {
        String answer = prompter.ask("Grow " + d.claimsToGrow().size() + " claim(s) of StatefulSet " + d.namespace() + "/" + d.name()
                + (d.recreate() ? " (then orphan-delete and re-apply it)" : "") + "? [y/N] ");
        return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
    }

    @Override
    public boolean allowOrphanDelete(String namespace, String name) {
        String question = "The claims are grown. To orphan-delete StatefulSet " + namespace + "/" + name
                + " (pods and claims stay) and re-apply it, type its name: ";
        for (int tries = 1; tries <= NAME_TRIES; tries++) {
            String answer = prompter.ask(question);
            if (answer == null || answer.isBlank()) {
                return false;
            }
            if (answer.trim().equals(name)) {
                return true;
            }
            err.println("\"" + answer.trim() + "\" is not \"" + name + "\": nothing was deleted; "
                    + (tries < NAME_TRIES ? "type its name exactly (an empty line says no)" : "the delete is refused after " + NAME_TRIES
                            + " tries"));
            err.flush();
        }
        return false;
    }
}
