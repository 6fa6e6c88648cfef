package dev.stsresize.plan;

import java.util.List;

/**
 * The decision for one declared StatefulSet: a {@link Plan} (grow, grow-claims, up-to-date, absent)
 * or a {@link Refusal} (refused, blocked). A value, not an action: only the converger acts on it.
 */
public sealed interface Decision permits Plan, Refusal {
    String namespace();

    String name();

    Verdict verdict();

    /** Every declared template with its live size, in declaration order. */
    List<TemplateSize> templates();

    /** Every live claim of a declared template, by template order then numeric ordinal. */
    List<ClaimState> claims();

    /** What the user should know before converging (replicas carried over, reconcilers, rolling pods). */
    List<String> warnings();

    /** One line naming everything that decided the verdict. */
    String detail();

    /** The StatefulSet must be orphan-deleted and re-applied. */
    boolean recreate();

    /** The claims the converge would grow in place: those marked {@code grow} and not {@code copy} of a plan, none of a refusal. */
    default List<ClaimState> claimsToGrow() {
        return verdict().hasWork() ? claims().stream().filter(c -> c.grow() && !c.copy()).toList() : List.of();
    }

    /**
     * The claims a plan with work leaves unpatched (their requests already at or above the target) whose volumes are
     * still below it: the run waits for their capacity as for the claims it grows, so nothing is re-created over a
     * volume that has not grown. None of a copy (it copies what it grows) or of a refusal.
     */
    default List<ClaimState> claimsToAwait() {
        return verdict().hasWork() && verdict() != Verdict.COPY ? claims().stream().filter(ClaimState::lagging).toList() : List.of();
    }

    /** The claims the converge would copy to bigger volumes (a {@link Verdict#COPY} plan's), none of a refusal. */
    default List<ClaimState> claimsToCopy() {
        return verdict().hasWork() ? claims().stream().filter(ClaimState::copy).toList() : List.of();
    }

    /** The templates whose size changes. */
    default List<TemplateSize> changedTemplates() {
        return templates().stream().filter(TemplateSize::changes).toList();
    }
}
