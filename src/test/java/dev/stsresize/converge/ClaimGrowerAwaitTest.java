package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The wait for capacity right after the patches: its first round stands on the patches' answers (no read) when every
 * claim was patched just now, and every tick of the wait shows each claim of the run, first as patched, then as read.
 */
class ClaimGrowerAwaitTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final Heard heard = new Heard();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, heard, new StopRequest());
    private final ClaimGrower grower = new ClaimGrower(cluster, waiter, new Events(cluster, cluster.time, "alice", e -> { }), heard,
            Checkpoint.NONE);
    private final Map<String, String> targets = new LinkedHashMap<>();

    ClaimGrowerAwaitTest() {
        for (String c : new String[] {"data-db-0", "data-db-1"}) {
            cluster.put(ClaimGrowerTest.claim(c, "20Gi", "10Gi"));
            targets.put(c, "20Gi");
        }
    }

    private ObjectNode answeredAt(String claim, String capacity) {
        return MemoryCluster.json(ClaimGrowerTest.claim(claim, "20Gi", capacity));
    }

    private ClaimGrower.Awaited await(Map<String, ObjectNode> patched) {
        return grower.await("shop", "db", targets, Map.of(), cluster.time.instant().plus(Duration.ofSeconds(30)), new StopRequest(),
                Map.of(), patched);
    }

    @Test
    void claims_every_patch_answered_grown_are_settled_without_a_read() {
        ClaimGrower.Awaited a = await(Map.of("data-db-0", answeredAt("data-db-0", "20Gi"), "data-db-1", answeredAt("data-db-1", "20Gi")));
        assertThat(a.claims().values()).extracting(ClaimGrower.ClaimStatus::state).containsOnly(ClaimGrower.State.GROWN);
        assertThat(cluster.reads()).noneMatch(r -> r.startsWith("getClaim") || r.startsWith("watch"));
    }

    @Test
    void every_tick_of_the_wait_shows_each_claim_first_as_patched_then_as_read() {
        cluster.onWatch("PersistentVolumeClaim", "shop", "data-db-0", () -> { }, () -> { }, () -> {
            for (String c : targets.keySet()) {
                cluster.edit("PersistentVolumeClaim", "shop", c, x -> ((ObjectNode) x.at("/status/capacity")).put("storage", "20Gi"));
            }
        });
        cluster.watchStep = Waiter.TICK;
        ClaimGrower.Awaited a = await(Map.of("data-db-0", answeredAt("data-db-0", "10Gi"), "data-db-1", answeredAt("data-db-1", "10Gi")));
        assertThat(a.claims().values()).extracting(ClaimGrower.ClaimStatus::state).containsOnly(ClaimGrower.State.GROWN);
        assertThat(heard.ticks).hasSizeGreaterThanOrEqualTo(2).allSatisfy(t -> assertThat(t.claims())
                .extracting(ClaimGrower.ClaimStatus::name).containsExactly("data-db-0", "data-db-1"));
        assertThat(cluster.reads()).as("the later ticks read the claims").anyMatch(r -> r.startsWith("getClaim"));
    }
}
