package dev.stsresize.cli;

import dev.stsresize.converge.Gate;
import dev.stsresize.plan.Decision;

/** The gates answered by the operator: y/N before growing, the StatefulSet's name typed before the orphan delete. */
final class PromptGate implements Gate {
    private final Prompter prompter;

    PromptGate(Prompter prompter) {
        this.prompter = prompter;
    }

    @Override
    public boolean allowGrow(Decision d) {
        String answer = prompter.ask("Grow " + d.claimsToGrow().size() + " claim(s) of StatefulSet " + d.namespace() + "/" + d.name()
                + (d.recreate() ? " (then orphan-delete and re-apply it)" : "") + "? [y/N] ");
        return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
    }

    @Override
    public boolean allowOrphanDelete(String namespace, String name) {
        String answer = prompter.ask("The claims are grown. To orphan-delete StatefulSet " + namespace + "/" + name
                + " (pods and claims stay) and re-apply it, type its name: ");
        return answer != null && answer.trim().equals(name);
    }
}
