package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the resizers say about the claims of a wait: each claim's latest word, failures counted from
 * a baseline (never an older resize's), the plugin's own Events left out, a claim without any sign of
 * a resizer said once a minute, and unreadable Events said once and then left alone.
 */
class ResizeSignalsTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final List<ProgressEvent> said = new ArrayList<>();
    private final Map<String, String> targets = Map.of("data-db-0", "20Gi");

    ResizeSignalsTest() {
        cluster.put(ClaimGrowerTest.claim("data-db-0", "20Gi", "10Gi"));
    }

    private ResizeSignals signals(Map<String, Integer> baseline) {
        return new ResizeSignals(cluster, cluster.time, said::add, "shop", "db", targets, Map.of("data-db-0", "10Gi"), baseline);
    }

    private void event(String name, String reason, int count, String extra) {
        cluster.put("{'kind':'Event','metadata':{'name':'" + name + "','namespace':'shop'},'involvedObject':{'kind':'PersistentVolumeClaim',"
                + "'name':'data-db-0','uid':'u-data-db-0'},'reason':'" + reason + "','message':'" + name + " says','count':" + count
                + extra + "}");
    }

    private void failures(String name, int count) {
        event(name, "VolumeResizeFailed", count, ",'type':'Warning','lastTimestamp':'2026-01-01T00:00:0" + (count % 10) + "Z'");
    }

    /** A VolumeResizeFailed Event about the claim its involvedObject's fields name (a name, maybe a UID). */
    private void failedAbout(String name, String involvedObjectFields, String message, int count) {
        cluster.put("{'kind':'Event','metadata':{'name':'" + name + "','namespace':'shop'},'involvedObject':{'kind':'PersistentVolumeClaim',"
                + involvedObjectFields + "},'reason':'VolumeResizeFailed','message':'" + message + "','count':" + count + "}");
    }

    @Test
    void the_baseline_is_each_claim_events_count_and_nothing_when_they_cannot_be_read() {
        failures("e1", 3);
        event("e2", "Resizing", 0, "");
        assertThat(ResizeSignals.baseline(cluster, "shop")).isEqualTo(Map.of("e1", 3, "e2", 1));
        cluster.failNext("listClaimEvents", MemoryCluster.error(403, "Forbidden", "no"));
        assertThat(ResizeSignals.baseline(cluster, "shop")).isEmpty();
    }

    @Test
    void failures_since_the_baseline_end_the_wait_with_the_newest_message_unless_the_capacity_moved() {
        failures("e1", 4);
        ResizeSignals s = signals(Map.of("e1", 1));
        s.read();
        assertThat(s.failure("data-db-0")).as("3 since the baseline").isEmpty();

        failures("e1", 5);
        failures("e2", 1);
        cluster.edit("Event", "shop", "e2", e -> e.put("lastTimestamp", "2026-01-01T00:00:09Z"));
        List<ClaimGrower.ClaimStatus> read = s.read();
        assertThat(s.failure("data-db-0")).isEqualTo("the resizer failed 5 times to expand claim data-db-0 (VolumeResizeFailed): e2 says");
        assertThat(s.last()).isEqualTo(read);
        assertThat(s.failure("data-db-9")).isEmpty();

        cluster.edit("PersistentVolumeClaim", "shop", "data-db-0", c -> ((ObjectNode) c.at("/status/capacity")).put("storage", "15Gi"));
        s.read();
        assertThat(s.failure("data-db-0")).as("something grew: the resizer works between failures").isEmpty();
    }

    @Test
    void without_a_baseline_the_first_read_is_the_baseline() {
        failures("e1", 9);
        ResizeSignals s = signals(null);
        s.read();
        assertThat(s.failure("data-db-0")).isEmpty();
        failures("e1", 13);
        s.read();
        assertThat(s.failure("data-db-0")).isEmpty();
        failures("e1", 14);
        s.read();
        assertThat(s.failure("data-db-0")).startsWith("the resizer failed 5 times");
    }

    @Test
    void the_plugins_own_events_and_those_of_another_claim_under_the_name_are_no_resizers_word() {
        event("own1", "VolumeResizeFailed", 9, ",'reportingComponent':'kubectl-stsresize'");
        event("own2", "VolumeResizeFailed", 9, ",'source':{'component':'kubectl-stsresize'}");
        event("own3", "VolumeResizeFailed", 9, ",'reportingController':'kubectl-stsresize'");
        failedAbout("old", "'name':'data-db-0','uid':'an-older-claim'", "old", 9);
        failedAbout("other", "'name':'data-db-7','uid':'x'", "other", 9);
        ResizeSignals s = signals(Map.of());
        ClaimGrower.ClaimStatus c = s.read().get(0);
        assertThat(s.failure("data-db-0")).isEmpty();
        assertThat(c.latest()).isEmpty();
    }

    @Test
    void an_event_without_a_uid_counts_for_the_claim_of_its_name() {
        failedAbout("e1", "'name':'data-db-0'", "m", 5);
        ResizeSignals s = signals(Map.of());
        s.read();
        assertThat(s.failure("data-db-0")).isEqualTo("the resizer failed 5 times to expand claim data-db-0 (VolumeResizeFailed): m");
    }

    @Test
    void the_latest_word_is_the_newest_event_a_warning_in_the_same_second_and_the_allocation_status() {
        event("a", "Resizing", 1, ",'type':'Normal','lastTimestamp':'2026-01-01T00:00:05Z'");
        event("b", "VolumeResizeFailed", 2, ",'type':'Warning','lastTimestamp':'2026-01-01T00:00:05Z'");
        event("c", "ExternalExpanding", 1, ",'type':'Normal','lastTimestamp':'2026-01-01T00:00:04Z'");
        cluster.edit("PersistentVolumeClaim", "shop", "data-db-0",
                c -> ((ObjectNode) c.path("status")).putObject("allocatedResourceStatuses").put("storage", "ControllerResizeInProgress"));
        ClaimGrower.ClaimStatus c = signals(Map.of()).read().get(0);
        assertThat(c.latest()).isEqualTo("VolumeResizeFailed ×2: b says; allocatedResourceStatuses ControllerResizeInProgress");
        assertThat(c.name()).isEqualTo("data-db-0");
        assertThat(c.from()).isEqualTo("10Gi");
        assertThat(c.state()).isEqualTo(ClaimGrower.State.WAITING);
    }

    @Test
    void an_events_time_is_read_from_the_first_field_that_says_one() {
        event("a", "Resizing", 1, ",'lastTimestamp':'2026-01-01T00:00:05Z'");
        event("b", "Resizing", 1, ",'lastTimestamp':null,'eventTime':'2026-01-01T00:00:06.000000Z'");
        event("c", "Resizing", 1, ",'lastTimestamp':'not a time','firstTimestamp':'2026-01-01T00:00:04Z'");
        assertThat(signals(Map.of()).read().get(0).latest()).isEqualTo("Resizing: b says");
        cluster.edit("Event", "shop", "c", e -> e.put("firstTimestamp", "2026-01-01T00:00:07Z"));
        assertThat(signals(Map.of()).read().get(0).latest()).isEqualTo("Resizing: c says");
        cluster.edit("Event", "shop", "c", e -> e.put("firstTimestamp", "garbage"));
        cluster.edit("Event", "shop", "a", e -> e.put("lastTimestamp", "garbage"));
        cluster.edit("Event", "shop", "b", e -> e.put("eventTime", "garbage"));
        assertThat(signals(Map.of()).read().get(0).latest()).as("all at the epoch: one of them").startsWith("Resizing: ");
    }

    @Test
    void a_failure_message_is_the_newest_failures() {
        event("f1", "VolumeResizeFailed", 3, ",'lastTimestamp':'2026-01-01T00:00:05Z'");
        event("f2", "VolumeResizeFailed", 3, ",'lastTimestamp':'2026-01-01T00:00:04Z'");
        ResizeSignals s = signals(Map.of());
        s.read();
        assertThat(s.failure("data-db-0")).isEqualTo("the resizer failed 6 times to expand claim data-db-0 (VolumeResizeFailed): f1 says");
        event("f3", "VolumeResizeFailed", 1, ",'lastTimestamp':'2026-01-01T00:00:05Z'");
        s.read();
        assertThat(s.failure("data-db-0")).as("the same second: the later one read").endsWith("f3 says");
    }

    @Test
    void an_older_failure_with_nothing_new_does_not_give_the_message() {
        event("new", "VolumeResizeFailed", 5, ",'lastTimestamp':'2026-01-01T00:00:01Z'");
        event("old", "VolumeResizeFailed", 3, ",'lastTimestamp':'2026-01-01T00:00:09Z'");
        ResizeSignals s = signals(Map.of("old", 3));
        s.read();
        assertThat(s.failure("data-db-0")).isEqualTo("the resizer failed 5 times to expand claim data-db-0 (VolumeResizeFailed): new says");
    }

    @Test
    void each_claims_failure_is_judged_on_its_own_capacity() {
        cluster.put(ClaimGrowerTest.claim("data-db-1", "20Gi", "10Gi"));
        cluster.put("{'kind':'Event','metadata':{'name':'f1','namespace':'shop'},'involvedObject':{'kind':'PersistentVolumeClaim',"
                + "'name':'data-db-1','uid':'u-data-db-1'},'reason':'VolumeResizeFailed','message':'m1','count':5}");
        Map<String, String> two = new java.util.LinkedHashMap<>();
        two.put("data-db-0", "20Gi");
        two.put("data-db-1", "20Gi");
        ResizeSignals s = new ResizeSignals(cluster, cluster.time, said::add, "shop", "db", two, Map.of(), Map.of());
        s.read();
        cluster.edit("PersistentVolumeClaim", "shop", "data-db-0", c -> ((ObjectNode) c.at("/status/capacity")).put("storage", "15Gi"));
        s.read();
        assertThat(s.failure("data-db-1")).as("data-db-0 grew, data-db-1 did not").endsWith("(VolumeResizeFailed): m1");
    }

    @Test
    void unreadable_events_are_said_once_and_not_asked_again_the_claims_status_still_speaks() {
        cluster.failNext("listClaimEvents", MemoryCluster.error(403, "Forbidden", "events is forbidden"));
        ResizeSignals s = signals(Map.of());
        assertThat(s.read()).hasSize(1);
        s.read();
        assertThat(said).singleElement().satisfies(p -> {
            assertThat(p.warning()).isFalse();
            assertThat(p.step()).isEqualTo(Phase.GROW);
            assertThat(p.name()).isEqualTo("db");
            assertThat(p.message()).isEqualTo("the claims' Events cannot be read (events is forbidden): the waits show each claim's status only");
        });
        assertThat(cluster.reads()).filteredOn(r -> r.startsWith("listClaimEvents")).hasSize(1);
    }

    @Test
    void a_claim_with_no_sign_of_a_resizer_is_said_once_a_minute() {
        event("x", "ExternalExpanding", 1, "");
        ResizeSignals s = signals(Map.of());
        s.read();
        assertThat(said).isEmpty();
        cluster.time.advance(Duration.ofSeconds(59));
        s.read();
        assertThat(said).isEmpty();
        cluster.time.advance(Duration.ofSeconds(1));
        s.read();
        s.read();
        assertThat(said).singleElement().satisfies(p -> {
            assertThat(p.warning()).isTrue();
            assertThat(p.message()).startsWith("no sign of a resizer for 1 minute(s) on claim(s) data-db-0: no Resizing")
                    .endsWith("(kubectl describe pvc data-db-0 -n shop)");
        });
        cluster.time.advance(Duration.ofMinutes(1));
        s.read();
        assertThat(said).hasSize(2);
        assertThat(said.get(1).message()).startsWith("no sign of a resizer for 2 minute(s)");
    }

    @Test
    void any_sign_of_a_resizer_or_a_settled_claim_is_not_said() {
        event("x", "Resizing", 1, "");
        ResizeSignals byEvent = signals(Map.of());
        byEvent.read();
        cluster.time.advance(Duration.ofMinutes(2));
        byEvent.read();
        assertThat(said).isEmpty();

        cluster.remove("Event", "shop", "x");
        for (String type : List.of("Resizing", "FileSystemResizePending", "ControllerResizeError", "NodeResizeError")) {
            cluster.edit("PersistentVolumeClaim", "shop", "data-db-0", c -> ((ObjectNode) c.path("status")).putArray("conditions")
                    .addObject().put("type", type).put("status", "True"));
            ResizeSignals byCondition = signals(Map.of());
            cluster.time.advance(Duration.ofMinutes(2));
            byCondition.read();
            assertThat(said).as(type).isEmpty();
        }
        cluster.edit("PersistentVolumeClaim", "shop", "data-db-0", c -> {
            ((ObjectNode) c.path("status")).remove("conditions");
            ((ObjectNode) c.path("status")).putObject("allocatedResourceStatuses").put("storage", "ControllerResizeInProgress");
        });
        ResizeSignals byStatus = signals(Map.of());
        cluster.time.advance(Duration.ofMinutes(2));
        byStatus.read();
        assertThat(said).isEmpty();

        cluster.put(ClaimGrowerTest.claim("data-db-0", "20Gi", "20Gi"));
        ResizeSignals grown = signals(Map.of());
        cluster.time.advance(Duration.ofMinutes(2));
        grown.read();
        assertThat(said).as("settled").isEmpty();

        cluster.remove("PersistentVolumeClaim", "shop", "data-db-0");
        ResizeSignals gone = signals(Map.of());
        cluster.time.advance(Duration.ofMinutes(2));
        assertThat(gone.read().get(0).state()).isEqualTo(ClaimGrower.State.GONE);
        assertThat(said).isEmpty();
    }
}
