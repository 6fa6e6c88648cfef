package dev.stsresize.plan;

import java.util.List;

/**
 * A StatefulSet the converge must not touch: refused when any finding is permanent, otherwise
 * blocked. {@code findings} are sorted by {@link Reason} priority; the first is the reason.
 *
 * @param copyPossible whether the copy migration could take this StatefulSet: refused only for want of expansion, with
 *     nothing the copy cannot take. Decided without the operator's opt-in ({@link CopyRoute}, which also writes the one
 *     sentence that says so into the findings); with it, the decision would be a copy plan or a refusal of its own. The
 *     UI's C key reads this value, never the sentence.
 */
public record Refusal(
        String namespace,
        String name,
        List<Finding> findings,
        List<TemplateSize> templates,
        List<ClaimState> claims,
        List<String> warnings,
        boolean copyPossible)
        implements Decision {

    public Refusal {
        if (findings.isEmpty()) {
            throw new IllegalArgumentException("a refusal needs at least one finding");
        }
        findings = findings.stream().sorted((a, b) -> a.reason().compareTo(b.reason())).toList();
        templates = List.copyOf(templates);
        claims = List.copyOf(claims);
        warnings = List.copyOf(warnings);
    }

    /** A refusal no copy could answer. */
    public Refusal(String namespace, String name, List<Finding> findings, List<TemplateSize> templates, List<ClaimState> claims,
            List<String> warnings) {
        this(namespace, name, findings, templates, claims, warnings, false);
    }

    /** The same refusal, the copy's fact kept, with other findings, claims and warnings (a check or a warning added). */
    public Refusal with(List<Finding> otherFindings, List<ClaimState> otherClaims, List<String> otherWarnings) {
        return new Refusal(namespace, name, otherFindings, templates, otherClaims, otherWarnings, copyPossible);
    }

    public Reason reason() {
        return findings.get(0).reason();
    }

    @Override
    public Verdict verdict() {
        return reason().permanent() ? Verdict.REFUSED : Verdict.BLOCKED;
    }

    @Override
    public String detail() {
        return String.join("; ", findings.stream().map(Finding::toString).toList());
    }

    @Override
    public boolean recreate() {
        return false;
    }
}
