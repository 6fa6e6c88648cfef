package dev.stsresize.plan;

import java.util.List;

/** A StatefulSet that may converge: grow, grow-claims, copy, up-to-date or absent. */
public record Plan(
        String namespace,
        String name,
        Verdict verdict,
        List<TemplateSize> templates,
        List<ClaimState> claims,
        List<String> warnings,
        String detail)
        implements Decision {

    public Plan {
        if (verdict == Verdict.REFUSED || verdict == Verdict.BLOCKED) {
            throw new IllegalArgumentException("a plan cannot be " + verdict.label() + "; that is a Refusal");
        }
        templates = List.copyOf(templates);
        claims = List.copyOf(claims);
        warnings = List.copyOf(warnings);
    }

    @Override
    public boolean recreate() {
        return verdict == Verdict.GROW || verdict == Verdict.COPY;
    }
}
