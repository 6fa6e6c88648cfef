package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.WatchedKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a wait's ticks tell the operator: a stretch of a longer wait counts the time spent and left of that longer wait,
 * and the wait for a claim's capacity says nothing once the claim reads settled (its watch ends it at once).
 */
class WaiterTicksTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final Heard heard = new Heard();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, heard, new StopRequest());
    private final Instant start = cluster.time.instant();

    WaiterTicksTest() {
        cluster.put(ClaimGrowerTest.claim("data-db-0", "20Gi", "10Gi"));
    }

    private static boolean never(Optional<ObjectNode> o) {
        return false;
    }

    private static ClaimGrower.ClaimStatus claim(String name, ClaimGrower.State state) {
        return new ClaimGrower.ClaimStatus(name, "10Gi", "20Gi", state, "10Gi", "", "20Gi", List.of());
    }

    private Waiter.Wait capacity(Phase step, WatchedKind kind, ClaimGrower.ClaimStatus read) {
        return Waiter.Wait.of("shop", "db", step, "the capacity of claim data-db-0", kind, "data-db-0", WaiterTicksTest::never,
                cluster.time.instant().plus(Duration.ofSeconds(20))).withClaims(() -> List.of(read));
    }

    @Test
    void a_stretch_of_a_longer_wait_counts_the_time_spent_and_left_of_that_wait() {
        Instant since = start.minus(Duration.ofMinutes(1));
        Instant until = start.plus(Duration.ofMinutes(2));
        waiter.until(Waiter.Wait.of("shop", "db", Phase.FILE_SYSTEMS, "the kubelet to grow it", WatchedKind.PERSISTENT_VOLUME_CLAIM,
                "data-db-0", WaiterTicksTest::never, start.plus(Waiter.TICK)).within(since, until));
        assertThat(heard.ticks).isNotEmpty().allSatisfy(t -> {
            assertThat(t.elapsed()).isGreaterThanOrEqualTo(Duration.ofMinutes(1));
            assertThat(t.left()).isGreaterThan(Duration.ofMinutes(1)).isLessThanOrEqualTo(Duration.ofMinutes(2));
        });
    }

    @Test
    void the_wait_for_capacity_is_quiet_once_its_claim_reads_settled() {
        waiter.until(capacity(Phase.GROW, WatchedKind.PERSISTENT_VOLUME_CLAIM, claim("data-db-0", ClaimGrower.State.GROWN)));
        assertThat(heard.ticks).isEmpty();
    }

    @Test
    void any_other_wait_or_claim_still_ticks() {
        waiter.until(capacity(Phase.GROW, WatchedKind.PERSISTENT_VOLUME_CLAIM, claim("data-db-0", ClaimGrower.State.WAITING)));
        assertThat(heard.ticks).as("not settled").isNotEmpty();
        heard.ticks.clear();
        waiter.until(capacity(Phase.GROW, WatchedKind.PERSISTENT_VOLUME_CLAIM, claim("data-db-1", ClaimGrower.State.GROWN)));
        assertThat(heard.ticks).as("another claim settled").isNotEmpty();
        heard.ticks.clear();
        waiter.until(capacity(Phase.FILE_SYSTEMS, WatchedKind.PERSISTENT_VOLUME_CLAIM, claim("data-db-0", ClaimGrower.State.GROWN)));
        assertThat(heard.ticks).as("the file system's wait, not the capacity's").isNotEmpty();
        heard.ticks.clear();
        cluster.put("{'kind':'Pod','metadata':{'name':'data-db-0','namespace':'shop'}}");
        waiter.until(capacity(Phase.GROW, WatchedKind.POD, claim("data-db-0", ClaimGrower.State.GROWN)));
        assertThat(heard.ticks).as("a wait for another kind").isNotEmpty();
    }
}
