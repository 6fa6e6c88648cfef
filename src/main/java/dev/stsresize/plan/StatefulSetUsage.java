package dev.stsresize.plan;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The usage of one StatefulSet's claims whose usage is known, the sizes suggested for its templates, and its claims
 * whose usage is not known, each with why.
 */
public record StatefulSetUsage(String namespace, String name, List<ClaimUsage> claims, List<SuggestedSize> suggestions,
        List<UnmeasuredClaim> unmeasured) {
    public StatefulSetUsage {
        claims = List.copyOf(claims);
        suggestions = List.copyOf(suggestions);
        unmeasured = List.copyOf(unmeasured);
    }

    public StatefulSetUsage(String namespace, String name, List<ClaimUsage> claims, List<SuggestedSize> suggestions) {
        this(namespace, name, claims, suggestions, List.of());
    }

    /** The claim with the highest used percentage (the one that decides whether the StatefulSet is in danger). */
    public Optional<ClaimUsage> fullest() {
        return claims.stream().max(Comparator.comparingDouble(ClaimUsage::usedPercent)
                .thenComparing(ClaimUsage::claim, Comparator.reverseOrder()));
    }

    /** The soonest time to full among its claims. */
    public Optional<Duration> fillsIn() {
        return claims.stream().flatMap(c -> c.fillsIn().stream()).min(Comparator.naturalOrder());
    }

    /**
     * Without the suggestions a manifest already meets: a template declared at or above the suggested size
     * needs no suggestion (its plan grows it already).
     */
    public StatefulSetUsage withoutSuggestionsMetBy(List<TemplateSize> declared) {
        List<SuggestedSize> left = suggestions.stream().filter(s -> declared.stream().noneMatch(t -> t.name().equals(s.template())
                && t.declared() != null && !t.declared().isLessThan(Quantity.parse(s.suggested())))).toList();
        return new StatefulSetUsage(namespace, name, claims, left, unmeasured);
    }

    public StatefulSetUsage withUnmeasured(List<UnmeasuredClaim> unmeasured) {
        return new StatefulSetUsage(namespace, name, claims, suggestions, unmeasured);
    }

    public String key() {
        return Metadata.key(namespace, name);
    }
}
