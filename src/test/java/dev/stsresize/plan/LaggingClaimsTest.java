package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A claim whose request needs no patch but whose volume is still below the target lags: a run with work waits for its
 * capacity before it re-creates anything (none of a copy or of a plan without work), and what the views say of it.
 */
class LaggingClaimsTest {
    private static final Quantity TARGET = Quantity.parse("20Gi");

    private static ClaimState claim(String name, boolean grow, String request, String capacity) {
        return new ClaimState(name, "data", 0, request == null ? null : Quantity.parse(request),
                capacity == null ? null : Quantity.parse(capacity), "Bound", "fast", true, TARGET, false, grow);
    }

    @Test
    void aClaimLagsWhenItsRequestIsAtTheTargetAndItsVolumeBelow() {
        assertThat(claim("data-db-0", false, "20Gi", "10Gi").lagging()).isTrue();
        assertThat(claim("data-db-0", false, "30Gi", "10Gi").lagging()).as("a request above the target").isTrue();
        assertThat(claim("data-db-0", true, "10Gi", "10Gi").lagging()).as("one the run patches is grown, not awaited").isFalse();
        assertThat(claim("data-db-0", false, "20Gi", "20Gi").lagging()).as("its volume at the target").isFalse();
        assertThat(claim("data-db-0", false, "20Gi", null).lagging()).as("capacity not known yet").isFalse();
        assertThat(claim("data-db-0", false, null, "10Gi").lagging()).as("no request").isFalse();
        assertThat(claim("data-db-0", false, "15Gi", "10Gi").lagging()).as("a request below the target is a patch's").isFalse();
    }

    @Test
    void aPlanWithWorkAwaitsItsLaggingClaimsAndACopyOrAPlanWithoutWorkNone() {
        ClaimState lagging = claim("data-db-1", false, "20Gi", "10Gi");
        List<ClaimState> claims = List.of(claim("data-db-0", true, "10Gi", "10Gi"), lagging, claim("data-db-2", false, "20Gi", "20Gi"));
        for (Verdict withWork : List.of(Verdict.GROW, Verdict.GROW_CLAIMS)) {
            assertThat(plan(withWork, claims).claimsToAwait()).as(withWork.label()).containsExactly(lagging);
        }
        assertThat(plan(Verdict.COPY, claims).claimsToAwait()).as("a copy copies what it grows").isEmpty();
        assertThat(plan(Verdict.UP_TO_DATE, claims).claimsToAwait()).isEmpty();
    }

    private static Plan plan(Verdict verdict, List<ClaimState> claims) {
        return new Plan("shop", "db", verdict, List.of(), claims, List.of(), "");
    }

    @Test
    void theClassesExpansionReadsUnknownWhenTheClassCouldNotBeRead() {
        ClaimState known = claim("data-db-0", false, "20Gi", "10Gi");
        assertThat(known.expansion()).isEqualTo("true");
        assertThat(new ClaimState("c", "data", 0, null, null, "Bound", "slow", false, TARGET, false, false).expansion()).isEqualTo("false");
        assertThat(new ClaimState("c", "data", 0, null, null, "Bound", "secret", true, TARGET, false, false, false).expansion())
                .isEqualTo("unknown");
    }

    @Test
    void aFailedResizeIsMarkedOnTheSameClaim() {
        ClaimState c = claim("data-db-0", false, "20Gi", "10Gi");
        assertThat(c.resizeFailed()).isFalse();
        ClaimState failed = c.withResizeFailed();
        assertThat(failed.resizeFailed()).isTrue();
        assertThat(failed).isEqualTo(new ClaimState(c.name(), c.template(), c.ordinal(), c.request(), c.capacity(), c.phase(),
                c.storageClass(), c.expandable(), c.target(), c.scaledAway(), c.grow(), c.classKnown(), c.copy(), true));
    }
}
