package dev.stsresize.plan;

import java.util.List;

/**
 * A StatefulSet the converge must not touch: refused when any finding is permanent, otherwise
 * blocked. {@code findings} are sorted by {@link Reason} priority; the first is the reason.
 */
public record Refusal(
        String namespace,
        String name,
        List<Finding> findings,
        List<TemplateSize> templates,
        List<ClaimState> claims,
        List<String> warnings)
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

    /**
     * Whether the copy migration could take this StatefulSet: refused only for want of expansion, with nothing the copy
     * cannot take (the decision then says so once, naming {@code --copy}). Decided without the opt-in; with it, the
     * decision would be a copy plan or a refusal of its own.
     */
    public boolean copyPossible() {
        return findings.stream().anyMatch(f -> f.message().endsWith(CopyRoute.POSSIBLE));
    }
}
