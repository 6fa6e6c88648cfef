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

    private boolean allowGrowInPlace(Decision d) {
        String answer = prompter.ask("Grow " + d.claimsToGrow().size() + " claim(s) of StatefulSet " + d.namespace() + "/" + d.name()
                + (d.recreate() ? " (then orphan-delete and re-apply it)" : "") + "? [y/N] ");
        return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
    }

    @Override
    public boolean allowGrow(Decision d) {
        if (d.verdict() == dev.stsresize.plan.Verdict.COPY) {
            String answer = prompter.ask("Copy " + d.claimsToCopy().size() + " claim(s) of StatefulSet " + d.namespace() + "/" + d.name()
                    + " to bigger volumes (their volumes set to Retain first; the name is asked before any pod goes down)? [y/N] ");
            return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
        }
        return allowGrowInPlace(d);
    }

    /**
     * Once for the whole copy, before the first pod goes down: the downtime stated (render.CopyDowntime, the words plan
     * printed), then the name typed.
     */
    @Override
    public boolean allowCopy(Decision d) {
        err.println(dev.stsresize.render.CopyDowntime.paragraph(d, java.util.Optional.empty()).orElse("") + ".");
        err.flush();
        return askName(d.namespace(), d.name(), "To copy the claims of StatefulSet " + d.namespace() + "/" + d.name() + ", orphan-deleting"
                + " and re-applying it around each pod (no PersistentVolume is deleted), type its name: ");
    }

    @Override
    public boolean allowOrphanDelete(String namespace, String name) {
        return askName(namespace, name, "The claims are grown. To orphan-delete StatefulSet " + namespace + "/" + name
                + " (pods and claims stay) and re-apply it, type its name: ");
    }

    private boolean askName(String namespace, String name, String question) {
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
