package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.plan.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The grow: each claim re-read before its patch, never patched downward, a conflict read again; then
 * the wait for capacity, ended by the claims settling, the deadline, a stop, or a resizer that keeps failing.
 */
class ClaimGrowerTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final List<ProgressEvent> said = new ArrayList<>();
    private final List<String> checkpoints = new ArrayList<>();
    private final StopRequest stop = new StopRequest();
    private final Progress progress = said::add;
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, progress, stop);
    private final Events events = new Events(cluster, cluster.time, "alice", e -> { });
    private final ClaimGrower grower = new ClaimGrower(cluster, waiter, events, progress, checkpoints::add);
    private final List<String> patched = new ArrayList<>();

    static String claim(String name, String request, String capacity) {
        return "{'kind':'PersistentVolumeClaim','metadata':{'name':'" + name + "','namespace':'shop','uid':'u-" + name + "'},"
                + "'spec':{'resources':{'requests':{" + (request == null ? "" : "'storage':'" + request + "'") + "}}},"
                + "'status':{'capacity':{'storage':'" + capacity + "'}}}";
    }

    private static Map<String, String> targets(String... nameAndSize) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameAndSize.length; i += 2) {
            m.put(nameAndSize[i], nameAndSize[i + 1]);
        }
        return m;
    }

    private Instant soon() {
        return cluster.time.instant().plus(Duration.ofSeconds(30));
    }

    private void capacityAtWatch(String claim, String capacity) {
        cluster.onWatch("PersistentVolumeClaim", "shop", claim, () -> cluster.edit("PersistentVolumeClaim", "shop", claim,
                c -> ((ObjectNode) c.path("status").path("capacity")).put("storage", capacity)));
    }

    @Test
    void each_claim_below_its_target_is_patched_and_said_one_at_or_above_it_is_left_alone() {
        cluster.put(claim("data-db-0", "10Gi", "10Gi"));
        cluster.put(claim("data-db-1", "30Gi", "30Gi"));
        cluster.put(claim("data-db-2", "20Gi", "10Gi"));

        Map<String, String> before = grower.grow("shop", "db", targets("data-db-0", "20Gi", "data-db-1", "20Gi", "data-db-2", "20Gi",
                "data-db-3", "20Gi"), (c, o) -> patched.add(c), () -> { });
        events.flush(); // as a run does at its end: the Events go off the critical path

        assertThat(before).containsExactly(Map.entry("data-db-0", "10Gi"), Map.entry("data-db-1", "30Gi"), Map.entry("data-db-2", "20Gi"),
                Map.entry("data-db-3", ""));
        assertThat(cluster.realWrites()).extracting(MemoryCluster.Call::method).containsOnly("patchClaimStorage", "createEvent");
        assertThat(cluster.writes("patchClaimStorage")).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("data-db-0");
            assertThat(c.detail()).isEqualTo("20Gi");
        });
        assertThat(cluster.get("PersistentVolumeClaim", "shop", "data-db-1").orElseThrow().at("/spec/resources/requests/storage").asText())
                .as("never patched downward").isEqualTo("30Gi");
        assertThat(patched).containsExactly("data-db-0");
        assertThat(checkpoints).containsExactly("patch claim data-db-0");
        assertThat(said).extracting(ProgressEvent::message).containsExactly(
                "claim data-db-0: 10Gi -> 20Gi",
                "claim data-db-1 already requests 30Gi (target 20Gi): left alone",
                "claim data-db-2 already requests 20Gi (target 20Gi): left alone",
                "claim data-db-3 no longer exists; nothing to grow");
        assertThat(said.get(0).write()).isEqualTo(new Write.ClaimPatch("shop", "data-db-0", "20Gi"));
        assertThat(said.get(0).step()).isEqualTo(Phase.GROW);
        assertThat(said.get(1).warning()).isFalse();
        assertThat(said.get(3).warning()).isTrue();
        assertThat(cluster.eventsCreated).singleElement().satisfies(e -> {
            assertThat(e.path("reason").asText()).isEqualTo("StorageRequestGrown");
            assertThat(e.path("note").asText()).startsWith("storage request grown from 10Gi to 20Gi to match StatefulSet db's claim template");
        });
    }

    @Test
    void a_claim_without_a_request_is_grown_from_nothing() {
        cluster.put(claim("data-db-0", null, "10Gi"));
        assertThat(grower.grow("shop", "db", targets("data-db-0", "20Gi"), (c, o) -> patched.add(c), () -> { })).containsEntry("data-db-0", "");
        assertThat(patched).containsExactly("data-db-0");
    }

    @Test
    void a_conflict_is_read_again_and_decided_again() {
        cluster.put(claim("data-db-0", "10Gi", "10Gi"));
        cluster.failNext("patchClaimStorage", MemoryCluster.error(409, "Conflict", "modified"));
        assertThat(grower.grow("shop", "db", targets("data-db-0", "20Gi"), (c, o) -> patched.add(c), () -> { })).containsEntry("data-db-0", "10Gi");
        assertThat(patched).containsExactly("data-db-0");

        cluster.put(claim("data-db-1", "10Gi", "10Gi"));
        cluster.failNext("patchClaimStorage", MemoryCluster.error(409, "Conflict", "modified"));
        // someone grew it meanwhile: the second reading leaves it alone, with the request first read as "before"
        cluster.whenFailing = m -> cluster.edit("PersistentVolumeClaim", "shop", "data-db-1",
                c -> ((ObjectNode) c.at("/spec/resources/requests")).put("storage", "25Gi"));
        assertThat(grower.grow("shop", "db", targets("data-db-1", "20Gi"), (c, o) -> patched.add(c), () -> { })).containsEntry("data-db-1", "10Gi");
        assertThat(cluster.get("PersistentVolumeClaim", "shop", "data-db-1").orElseThrow().at("/spec/resources/requests/storage").asText())
                .isEqualTo("25Gi");
        assertThat(patched).containsExactly("data-db-0");
        assertThat(said).extracting(ProgressEvent::message).contains("claim data-db-1 already requests 25Gi (target 20Gi): left alone");
    }

    @Test
    void a_claim_deleted_after_a_conflict_answers_the_request_first_read() {
        cluster.put(claim("data-db-0", "10Gi", "10Gi"));
        cluster.failNext("patchClaimStorage", MemoryCluster.error(409, "Conflict", "modified"));
        cluster.whenFailing = m -> cluster.remove("PersistentVolumeClaim", "shop", "data-db-0");
        assertThat(grower.grow("shop", "db", targets("data-db-0", "20Gi"), (c, o) -> patched.add(c), () -> { })).containsEntry("data-db-0", "10Gi");
        assertThat(patched).isEmpty();
        assertThat(said).extracting(ProgressEvent::message).containsExactly("claim data-db-0 no longer exists; nothing to grow");
    }

    @Test
    void conflicts_that_never_end_and_other_refusals_are_the_callers() {
        cluster.put(claim("data-db-0", "10Gi", "10Gi"));
        for (int i = 0; i < 5; i++) {
            cluster.failNext("patchClaimStorage", MemoryCluster.error(409, "Conflict", "modified " + i));
        }
        assertThat(grower.grow("shop", "db", targets("data-db-0", "20Gi"), (c, o) -> patched.add(c), () -> { })).as("five conflicts are read again")
                .containsEntry("data-db-0", "10Gi");

        cluster.put(claim("data-db-1", "10Gi", "10Gi"));
        for (int i = 0; i < 6; i++) {
            cluster.failNext("patchClaimStorage", MemoryCluster.error(409, "Conflict", "modified " + i));
        }
        assertThatThrownBy(() -> grower.grow("shop", "db", targets("data-db-1", "20Gi"), (c, o) -> patched.add(c), () -> { })).isInstanceOf(ClusterException.class)
                .hasMessage("modified 5");

        cluster.failNext("patchClaimStorage", MemoryCluster.error(403, "Forbidden", "patch is forbidden"));
        assertThatThrownBy(() -> grower.grow("shop", "db", targets("data-db-1", "20Gi"), (c, o) -> patched.add(c), () -> { })).hasMessage("patch is forbidden");
        assertThat(patched).containsExactly("data-db-0");
    }

    @Test
    void a_patch_that_reads_back_below_the_target_is_not_taken_for_a_growth() {
        cluster.put(claim("data-db-0", "10Gi", "10Gi"));
        cluster.patchAnswer = o -> {
            ((ObjectNode) o.at("/spec/resources/requests")).put("storage", "15Gi");
            return o;
        };
        assertThatThrownBy(() -> grower.grow("shop", "db", targets("data-db-0", "20Gi"), (c, o) -> patched.add(c), () -> { }))
                .isInstanceOf(IllegalStateException.class).hasMessage("claim shop/data-db-0 reads back 15Gi after the patch to 20Gi");
        cluster.put(claim("data-db-0", "10Gi", "10Gi"));
        cluster.patchAnswer = o -> {
            ((ObjectNode) o.at("/spec/resources/requests")).remove("storage");
            return o;
        };
        assertThatThrownBy(() -> grower.grow("shop", "db", targets("data-db-0", "20Gi"), (c, o) -> patched.add(c), () -> { }))
                .hasMessage("claim shop/data-db-0 reads back null after the patch to 20Gi");
        assertThat(patched).isEmpty();
        assertThat(checkpoints).isEmpty();
    }

    @Test
    void a_stop_request_is_honoured_before_the_patches_and_the_patches_sent_together_all_finish() {
        cluster.put(claim("data-db-0", "10Gi", "10Gi"));
        cluster.put(claim("data-db-1", "10Gi", "10Gi"));
        // a stop that comes while the claims are read (beside the phase's write) is honoured before any patch
        Map<String, String> none = grower.grow("shop", "db", targets("data-db-0", "20Gi", "data-db-1", "20Gi"),
                (c, o) -> patched.add(c), () -> stop.request("SIGINT"));
        assertThat(none).isEmpty();
        assertThat(patched).isEmpty();
        assertThat(cluster.writes("patchClaimStorage")).isEmpty();

        // once the patches are sent together they all finish, and each is told, whatever comes after the first
        StopRequest later = new StopRequest();
        Map<String, String> before = new ClaimGrower(cluster, new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, progress, later),
                new Events(cluster, cluster.time, "alice", e -> { }), progress, checkpoints::add).grow("shop", "db",
                targets("data-db-0", "20Gi", "data-db-1", "20Gi"), (c, o) -> {
                    patched.add(c);
                    later.request("SIGINT");
                }, () -> { });
        assertThat(before).containsOnlyKeys("data-db-0", "data-db-1");
        assertThat(patched).containsExactly("data-db-0", "data-db-1");
        assertThat(cluster.writes("patchClaimStorage")).hasSize(2);
    }

    @Test
    void the_wait_for_capacity_follows_each_claim_until_it_settles() {
        cluster.put(claim("data-db-0", "20Gi", "10Gi"));
        cluster.put(claim("data-db-1", "20Gi", "10Gi"));
        capacityAtWatch("data-db-0", "20Gi");
        capacityAtWatch("data-db-1", "20Gi");
        ClaimGrower.Awaited a = grower.await("shop", "db", targets("data-db-0", "20Gi", "data-db-1", "20Gi"),
                Map.of("data-db-0", "10Gi"), soon(), new StopRequest(), Map.of(), Map.of());
        assertThat(a.failed()).isEmpty();
        assertThat(a.claims()).containsOnlyKeys("data-db-0", "data-db-1");
        assertThat(a.claims().values()).extracting(ClaimGrower.ClaimStatus::state).containsOnly(ClaimGrower.State.GROWN);
        assertThat(a.claims().get("data-db-0").from()).isEqualTo("10Gi");
        assertThat(a.claims().get("data-db-1").from()).isEmpty();
    }

    @Test
    void a_deadline_leaves_the_claims_as_they_are_and_a_gone_claim_is_said_gone() {
        cluster.put(claim("data-db-0", "20Gi", "10Gi"));
        ClaimGrower.Awaited a = grower.await("shop", "db", targets("data-db-0", "20Gi", "data-db-9", "20Gi"), Map.of(), soon(),
                new StopRequest(), Map.of(), Map.of());
        assertThat(a.claims().get("data-db-0").state()).isEqualTo(ClaimGrower.State.WAITING);
        assertThat(a.claims().get("data-db-9").state()).isEqualTo(ClaimGrower.State.GONE);
        assertThat(a.failed()).isEmpty();
    }

    @Test
    void a_stop_or_the_driver_going_on_ends_the_wait_the_other_claims_read_as_they_are() {
        cluster.put(claim("data-db-0", "20Gi", "10Gi"));
        cluster.put(claim("data-db-1", "20Gi", "20Gi"));
        StopRequest goneOn = new StopRequest();
        goneOn.request("on");
        ClaimGrower.Awaited a = grower.await("shop", "db", targets("data-db-0", "20Gi", "data-db-1", "20Gi"), Map.of(), soon(), goneOn,
                Map.of(), Map.of());
        assertThat(cluster.watches).isZero();
        assertThat(a.claims().get("data-db-0").state()).isEqualTo(ClaimGrower.State.WAITING);
        assertThat(a.claims().get("data-db-1").state()).isEqualTo(ClaimGrower.State.GROWN);

        cluster.put(claim("data-db-1", "20Gi", "10Gi"));
        stop.request("SIGINT");
        ClaimGrower.Awaited s = grower.await("shop", "db", targets("data-db-0", "20Gi", "data-db-1", "20Gi"), Map.of(), soon(),
                new StopRequest(), Map.of(), Map.of());
        assertThat(cluster.watches).as("the second claim is not waited for").isZero();
        assertThat(s.claims()).containsOnlyKeys("data-db-0", "data-db-1");
    }

    @Test
    void a_resizer_that_keeps_failing_ends_the_wait_with_its_words() {
        cluster.put(claim("data-db-0", "20Gi", "10Gi"));
        cluster.put(claim("data-db-1", "20Gi", "10Gi"));
        cluster.put("{'kind':'Event','metadata':{'name':'e1','namespace':'shop'},'involvedObject':{'kind':'PersistentVolumeClaim',"
                + "'name':'data-db-0','uid':'u-data-db-0'},'reason':'VolumeResizeFailed','message':'quota exceeded','count':6}");
        ClaimGrower.Awaited a = grower.await("shop", "db", targets("data-db-0", "20Gi", "data-db-1", "20Gi"), Map.of(), soon(),
                new StopRequest(), Map.of("e1", 1), Map.of());
        assertThat(a.failed()).containsExactly(Map.entry("data-db-0", "the resizer failed 5 times to expand claim data-db-0"
                + " (VolumeResizeFailed): quota exceeded"));
        assertThat(a.claims()).containsOnlyKeys("data-db-0", "data-db-1");
        assertThat(a.claims().get("data-db-1").state()).as("read as it is, not waited for").isEqualTo(ClaimGrower.State.WAITING);
        assertThat(cluster.watches).isZero();
    }

    @Test
    void read_all_and_read_answer_each_claim_now_in_the_runs_order() {
        cluster.put(claim("data-db-1", "20Gi", "20Gi"));
        cluster.put(claim("data-db-0", "10Gi", "10Gi"));
        List<ClaimGrower.ClaimStatus> all = grower.readAll("shop", targets("data-db-1", "20Gi", "data-db-0", "20Gi"),
                Map.of("data-db-0", "10Gi"));
        assertThat(all).extracting(ClaimGrower.ClaimStatus::name).containsExactly("data-db-1", "data-db-0");
        assertThat(all).extracting(ClaimGrower.ClaimStatus::state).containsExactly(ClaimGrower.State.GROWN, ClaimGrower.State.REQUESTED_LESS);
        assertThat(all.get(1).from()).isEqualTo("10Gi");
        assertThat(all.get(0).from()).isEmpty();
        assertThat(grower.read("shop", "data-db-0", "1Gi", Quantity.parse("20Gi")).to()).isEqualTo("20Gi");
        assertThat(ClaimGrower.settled(MemoryCluster.json(claim("x", "20Gi", "20Gi")), Quantity.parse("20Gi"))).isTrue();
        assertThat(ClaimGrower.settled(MemoryCluster.json(claim("x", "20Gi", "10Gi")), Quantity.parse("20Gi"))).isFalse();
    }
}
