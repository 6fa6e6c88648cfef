package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Decision;

/**
 * One declared StatefulSet after read, decide and prove: its decision (a refusal when the server's
 * proof refused or blocked it), the objects the converge needs, and a failure the server answered
 * that is neither a refusal nor a block (its message verbatim).
 *
 * @param live the live StatefulSet as it was read (null when absent)
 * @param reapply the exact object to re-apply (null unless the decision has work; used only when it recreates)
 * @param fieldManager the manager to re-apply with
 * @param failure a proof that failed for another reason (the server's message), or null
 */
public record Assessed(Decision decision, ObjectNode declared, ObjectNode live, ObjectNode reapply, String fieldManager,
        String failure) {

    public String namespace() {
        return decision.namespace();
    }

    public String name() {
        return decision.name();
    }

    Assessed with(Decision d) {
        return new Assessed(d, declared, live, reapply, fieldManager, failure);
    }

    Assessed failed(String message) {
        return new Assessed(decision, declared, live, reapply, fieldManager, message);
    }
}
