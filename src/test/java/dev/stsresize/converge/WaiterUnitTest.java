package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.WatchedKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How every wait ends (reached, deadline, stopped, gone on, failed) and what its ticks say, on a
 * clock that moves only when a watch opens: no real time passes.
 */
class WaiterUnitTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final Heard heard = new Heard();
    private final StopRequest stop = new StopRequest();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, heard, stop);
    private final Instant start = cluster.time.instant();

    WaiterUnitTest() {
        cluster.put("{'kind':'Pod','metadata':{'name':'db-0','namespace':'shop'},'status':{'phase':'Pending'}}");
    }

    private static boolean running(Optional<ObjectNode> p) {
        return p.isPresent() && p.get().at("/status/phase").asText().equals("Running");
    }

    private Waiter.Wait podRunning(Duration within) {
        return Waiter.Wait.of("shop", "db", Phase.RESTART, "pod db-0 to run", WatchedKind.POD, "db-0", WaiterUnitTest::running,
                start.plus(within));
    }

    private void runsAtWatch(int n) {
        Runnable[] steps = new Runnable[n];
        for (int i = 0; i < n - 1; i++) {
            steps[i] = () -> { };
        }
        steps[n - 1] = () -> cluster.edit("Pod", "shop", "db-0", p -> ((ObjectNode) p.path("status")).put("phase", "Running"));
        cluster.onWatch("Pod", "shop", "db-0", steps);
    }

    @Test
    void a_condition_that_holds_at_once_ends_the_wait_without_a_tick() {
        cluster.edit("Pod", "shop", "db-0", p -> ((ObjectNode) p.path("status")).put("phase", "Running"));
        Waiter.Result r = waiter.until(podRunning(Duration.ofMinutes(1)));
        assertThat(r.end()).isEqualTo(Waiter.End.REACHED);
        assertThat(r.reached()).isTrue();
        assertThat(r.outcome().reached()).isTrue();
        assertThat(r.failure()).isEmpty();
        assertThat(r.object()).isPresent();
        assertThat(heard.ticks).isEmpty();
        assertThat(cluster.watches).isZero();
    }

    @Test
    void reached_while_watching_after_a_tick_when_it_began() {
        runsAtWatch(2);
        Waiter.Result r = waiter.until(podRunning(Duration.ofMinutes(1)));
        assertThat(r.end()).isEqualTo(Waiter.End.REACHED);
        assertThat(r.object().orElseThrow().at("/status/phase").asText()).isEqualTo("Running");
        assertThat(heard.ticks).isNotEmpty();
        WaitTick first = heard.ticks.get(0);
        assertThat(first.namespace()).isEqualTo("shop");
        assertThat(first.name()).isEqualTo("db");
        assertThat(first.step()).isEqualTo(Phase.RESTART);
        assertThat(first.what()).isEqualTo("pod db-0 to run");
        assertThat(first.elapsed()).isEqualTo(Duration.ZERO);
        assertThat(first.left()).isEqualTo(Duration.ofMinutes(1));
        assertThat(first.claims()).isEmpty();
        assertThat(heard.lastTick().elapsed()).isEqualTo(Duration.ofSeconds(5));
        assertThat(heard.lastTick().left()).isEqualTo(Duration.ofSeconds(55));
    }

    @Test
    void the_deadline_ends_it_unreached_with_the_object_as_last_seen_and_a_tick_never_shows_negative_time_left() {
        Waiter.Result r = waiter.until(podRunning(Duration.ofSeconds(12)));
        assertThat(r.end()).isEqualTo(Waiter.End.DEADLINE);
        assertThat(r.reached()).isFalse();
        assertThat(r.outcome().reached()).isFalse();
        assertThat(r.object().orElseThrow().at("/status/phase").asText()).isEqualTo("Pending");
        assertThat(heard.ticks).isNotEmpty().allSatisfy(t -> assertThat(t.left().isNegative()).isFalse());
        assertThat(heard.lastTick().left()).as("the last stretch ends past the deadline").isEqualTo(Duration.ZERO);
        assertThat(heard.lastTick().elapsed()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void a_stop_request_ends_it_at_once_before_or_during_the_wait() {
        stop.request("SIGINT");
        Waiter.Result before = waiter.until(podRunning(Duration.ofMinutes(1)));
        assertThat(before.end()).isEqualTo(Waiter.End.STOPPED);
        assertThat(cluster.watches).isZero();
        assertThat(waiter.until(podRunning(Duration.ZERO)).end()).as("past its deadline, stopped all the same").isEqualTo(Waiter.End.STOPPED);
    }

    @Test
    void a_stop_request_during_the_wait_ends_it_at_the_next_tick() {
        cluster.onWatch("Pod", "shop", "db-0", () -> { }, () -> stop.request("SIGTERM"));
        Waiter.Result r = waiter.until(podRunning(Duration.ofMinutes(10)));
        assertThat(r.end()).isEqualTo(Waiter.End.STOPPED);
        assertThat(cluster.watches).isEqualTo(2);
    }

    @Test
    void a_stop_request_closes_the_watch_open_so_nothing_more_it_would_deliver_is_read() {
        ObjectNode runningPod = cluster.get("Pod", "shop", "db-0").orElseThrow();
        ((ObjectNode) runningPod.path("status")).put("phase", "Running");
        cluster.onWatch("Pod", "shop", "db-0", () -> cluster.edit("Pod", "shop", "db-0", p -> ((ObjectNode) p.path("status")).put("phase",
                "ContainerCreating")));
        cluster.alsoDeliver("Pod", "shop", "db-0", runningPod);
        Waiter.Result r = waiter.until(podRunning(Duration.ofMinutes(1)).withDetail(p -> {
            if (p.isPresent() && p.get().at("/status/phase").asText().equals("ContainerCreating")) {
                stop.request("SIGINT");
            }
            return "";
        }));
        assertThat(r.end()).isEqualTo(Waiter.End.STOPPED);
    }

    @Test
    void the_driver_going_on_ends_it_too_and_closes_its_watch() {
        StopRequest goneOn = new StopRequest();
        goneOn.request("went on");
        assertThat(waiter.until(podRunning(Duration.ofMinutes(1)).withGoneOn(goneOn)).end()).isEqualTo(Waiter.End.WENT_ON);
        assertThat(waiter.until(podRunning(Duration.ZERO).withGoneOn(goneOn)).end()).isEqualTo(Waiter.End.WENT_ON);
        assertThat(waiter.until(podRunning(Duration.ZERO)).end()).isEqualTo(Waiter.End.DEADLINE);

        StopRequest later = new StopRequest();
        ObjectNode runningPod = cluster.get("Pod", "shop", "db-0").orElseThrow();
        ((ObjectNode) runningPod.path("status")).put("phase", "Running");
        cluster.onWatch("Pod", "shop", "db-0", () -> cluster.edit("Pod", "shop", "db-0", p -> ((ObjectNode) p.path("status")).put("phase",
                "ContainerCreating")));
        cluster.alsoDeliver("Pod", "shop", "db-0", runningPod);
        Waiter.Result r = waiter.until(podRunning(Duration.ofMinutes(1)).withGoneOn(later).withDetail(p -> {
            if (p.isPresent() && p.get().at("/status/phase").asText().equals("ContainerCreating")) {
                later.request("went on");
            }
            return "";
        }));
        assertThat(r.end()).isEqualTo(Waiter.End.WENT_ON);
        assertThat(stop.requested()).isFalse();
    }

    @Test
    void a_wait_that_ended_leaves_no_watch_for_a_later_stop_to_close() {
        StopRequest goneOn = new StopRequest();
        Waiter.Result r = waiter.until(podRunning(Duration.ofSeconds(12)).withGoneOn(goneOn));
        assertThat(r.end()).isEqualTo(Waiter.End.DEADLINE);
        int closed = cluster.closes.get();
        assertThat(closed).isPositive();
        stop.request("SIGINT");
        goneOn.request("went on");
        assertThat(cluster.closes.get()).as("no watch of an ended wait is closed again").isEqualTo(closed);
    }

    @Test
    void a_failure_seen_ends_it_after_the_tick_that_read_it() {
        List<String> order = new ArrayList<>();
        Waiter.Result r = waiter.until(podRunning(Duration.ofMinutes(1)).withClaims(() -> {
            order.add("claims read");
            return List.of();
        }).withFailure(p -> {
            order.add("failure asked");
            return order.size() >= 4 ? "the resizer failed" : "";
        }));
        assertThat(r.end()).isEqualTo(Waiter.End.FAILED);
        assertThat(r.failure()).isEqualTo("the resizer failed");
        assertThat(r.reached()).isFalse();
        assertThat(order).containsExactly("claims read", "failure asked", "claims read", "failure asked");
        assertThat(heard.ticks).hasSize(2);
    }

    @Test
    void a_tick_says_the_detail_and_each_claim_and_survives_a_failed_read_of_the_claims() {
        ClaimGrower.ClaimStatus status = new ClaimGrower.ClaimStatus("data-db-0", "10Gi", "20Gi", ClaimGrower.State.WAITING, "10Gi", "m",
                "20Gi", List.of());
        int[] reads = {0};
        runsAtWatch(3);
        waiter.until(podRunning(Duration.ofMinutes(1)).withDetail(p -> p.isPresent() ? "phase " + p.get().at("/status/phase").asText() : "")
                .withClaims(() -> {
                    if (reads[0]++ == 1) {
                        throw MemoryCluster.error(500, "InternalError", "etcd");
                    }
                    return List.of(status);
                }));
        assertThat(heard.ticks).hasSizeGreaterThanOrEqualTo(3);
        assertThat(heard.ticks.get(0).what()).isEqualTo("pod db-0 to run: phase Pending");
        assertThat(heard.ticks.get(0).claims()).containsExactly(status);
        assertThat(heard.ticks.get(1).claims()).as("a failed read shows no claims, the wait goes on").isEmpty();
        assertThat(heard.ticks.get(2).claims()).containsExactly(status);
    }

    @Test
    void the_short_form_answers_the_object_and_whether_it_was_reached() {
        runsAtWatch(1);
        AwaitObject.Outcome o = waiter.until("shop", "db", Phase.RESTART, "pod db-0 to run", WatchedKind.POD, "db-0", WaiterUnitTest::running,
                start.plus(Duration.ofMinutes(1)));
        assertThat(o.reached()).isTrue();
        assertThat(o.object()).isPresent();
        assertThat(waiter.stop()).isSameAs(stop);
        assertThat(waiter.clock()).isSameAs(cluster.time);
    }

    @Test
    void a_slow_wait_says_who_is_late_once_it_has_lasted_SLOW_as_one_warning_then_in_every_tick() {
        runsAtWatch(12);
        waiter.until(podRunning(Duration.ofMinutes(5)).withDetail(p -> "phase Pending").withSlow(p -> new Waiter.Late("the kubelet is late",
                "the kubelet is late: check it")));
        assertThat(heard.ticks).anyMatch(t -> t.elapsed().compareTo(Waiter.SLOW) < 0);
        assertThat(heard.ticks).anyMatch(t -> t.elapsed().compareTo(Waiter.SLOW) >= 0);
        for (WaitTick t : heard.ticks) {
            assertThat(t.what()).as("a tick after %s", t.elapsed()).isEqualTo(t.elapsed().compareTo(Waiter.SLOW) >= 0
                    ? "pod db-0 to run: phase Pending; the kubelet is late" : "pod db-0 to run: phase Pending");
        }
        assertThat(heard.events).extracting(ProgressEvent::message).containsExactly("the kubelet is late: check it");
        assertThat(heard.events).allMatch(ProgressEvent::warning);
    }

    @Test
    void a_slow_wait_with_nothing_to_say_stays_quiet() {
        runsAtWatch(12);
        waiter.until(podRunning(Duration.ofMinutes(5)).withSlow(p -> Waiter.Late.NONE));
        assertThat(heard.ticks).anyMatch(t -> t.elapsed().compareTo(Waiter.SLOW) >= 0);
        assertThat(heard.ticks).allMatch(t -> t.what().equals("pod db-0 to run"));
        assertThat(heard.events).isEmpty();
    }
}
