package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.WatchedKind;
import dev.stsresize.plan.Metadata;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one waiting component: a wait says what it waits for when it begins and again after each
 * stretch, with each claim's latest condition; it ends at its deadline, at once on a stop request,
 * and at once on a failure its caller observes.
 */
class WaiterTest {
    @TempDir Path home;

    private static final Map<String, String> TARGETS = Map.of("data-postgres-0", "20Gi");

    private static Waiter.Wait neverGrows(Harness h, Duration deadline) {
        return Waiter.Wait.of("shop", "postgres", Phase.GROW, "the capacity of claim data-postgres-0 to reach 999Gi",
                WatchedKind.PERSISTENT_VOLUME_CLAIM, "data-postgres-0",
                c -> c.isPresent() && Metadata.textOrEmpty(c.get(), "status", "capacity", "storage").equals("999Gi"),
                Clock.systemUTC().instant().plus(deadline));
    }

    @Test
    void a_wait_ticks_when_it_begins_and_after_its_stretch_with_each_claims_condition_then_ends_at_its_deadline() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Heard heard = new Heard();
            Waiter w = new Waiter(new AwaitObject(h.cluster(), Clock.systemUTC()), Clock.systemUTC(), heard, new StopRequest());
            ClaimGrower grower = new ClaimGrower(h.cluster(), w, null, Progress.NONE, Checkpoint.NONE);
            Waiter.Result r = w.until(neverGrows(h, Duration.ofSeconds(1)).withClaims(() -> grower.readAll("shop", TARGETS, Map.of())));
            assertThat(r.end()).isEqualTo(Waiter.End.DEADLINE);
            assertThat(heard.ticks).as("one when the wait begins, one when its stretch (cut at the deadline) ends")
                    .hasSizeGreaterThanOrEqualTo(2);
            assertThat(heard.ticks.get(0).what()).isEqualTo("the capacity of claim data-postgres-0 to reach 999Gi");
            assertThat(heard.ticks.get(0).claims()).singleElement().satisfies(c -> {
                assertThat(c.name()).isEqualTo("data-postgres-0");
                assertThat(c.state()).isEqualTo(ClaimGrower.State.REQUESTED_LESS);
                assertThat(c.request()).isEqualTo("10Gi");
            });
            assertThat(heard.lastTick().elapsed()).isPositive();
        }
    }

    /** Seen on a real node: "waiting … for the capacity of claim data-db-0 to reach 2Gi; data-db-0 volume grown, …". */
    @Test
    void a_wait_never_says_it_waits_for_a_claim_its_own_read_shows_settled() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Heard heard = new Heard();
            Waiter w = new Waiter(new AwaitObject(h.cluster(), Clock.systemUTC()), Clock.systemUTC(), heard, new StopRequest());
            ClaimGrower.ClaimStatus grown = new ClaimGrower.ClaimStatus("data-postgres-0", "10Gi", "999Gi", ClaimGrower.State.GROWN,
                    "999Gi", "volume grown", "999Gi", List.of(), "");
            w.until(neverGrows(h, Duration.ofSeconds(1)).withClaims(() -> List.of(grown)));
            assertThat(heard.ticks).as("no tick names a wait for a claim read as grown").isEmpty();
        }
    }

    @Test
    void a_stop_request_ends_a_wait_at_once_and_says_so() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            StopRequest stop = new StopRequest();
            // the operator presses Ctrl-C once the wait has begun (its first tick)
            Progress progress = new Progress() {
                @Override
                public void on(ProgressEvent e) {}

                @Override
                public void waiting(WaitTick t) {
                    stop.request("SIGINT");
                }
            };
            Waiter w = new Waiter(new AwaitObject(h.cluster(), Clock.systemUTC()), Clock.systemUTC(), progress, stop);
            Waiter.Result r = w.until(neverGrows(h, Duration.ofMinutes(5)));
            assertThat(r.end()).isEqualTo(Waiter.End.STOPPED);
            assertThat(r.object()).as("the claim as last seen").isPresent();
        }
    }

    @Test
    void a_failure_observed_on_the_way_ends_the_wait_at_once_with_its_words() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Waiter w = new Waiter(new AwaitObject(h.cluster(), Clock.systemUTC()), Clock.systemUTC(), Progress.NONE, new StopRequest());
            Waiter.Result r = w.until(neverGrows(h, Duration.ofMinutes(5))
                    .withFailure(c -> c.isPresent() ? "the resizer reported VolumeResizeFailed" : ""));
            assertThat(r.end()).isEqualTo(Waiter.End.FAILED);
            assertThat(r.failure()).isEqualTo("the resizer reported VolumeResizeFailed");
        }
    }
}
