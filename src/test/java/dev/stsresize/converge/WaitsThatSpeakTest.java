package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Quantity;
import dev.stsresize.render.ResultDocument;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The waits say what they wait for and what the resizers say, and end on what the resizer reports:
 * a resizer that keeps failing ends the wait with its message (not at the timeout, nothing written
 * after it); no sign of a resizer is said once a minute; a foreign finalizer holding the deleted
 * StatefulSet is named as such; the end says how long each phase took.
 */
class WaitsThatSpeakTest {
    @TempDir Path home;
    /** What each test's run or signals said; a test has an instance of its own. */
    final Heard heard = new Heard();
    final MovingClock clock = new MovingClock();

    /** A converger whose waits tick every 100 ms instead of 10 s, so that a test sees many ticks and no test waits a stretch. */
    static Converger converger(Harness h, Progress progress) {
        return new Converger(h.cluster(), Clock.systemUTC(), h.journal, "alice@laptop 1", h.sim.url(), GateAnswers.YES, progress,
                Checkpoint.NONE, new StopRequest(), Duration.ofMillis(100));
    }

    static StatefulSetResult converge(Harness h, Converger c, ObjectNode declared, ConvergeOptions opts) {
        Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(declared), false, Assessor.Depth.APPLY, false,
                Optional.empty());
        return c.converge(a.items().get(0), opts, true);
    }

    static List<ObjectNode> withResizer(String mode) {
        return Demo.clusterWith("StorageClass", "fast-online",
                sc -> ((ObjectNode) sc.path("metadata").path("annotations")).put("sim.stsresize.dev/resizer", mode));
    }

    @Test
    void a_resizer_that_keeps_failing_ends_the_wait_with_its_message_and_nothing_is_written_after_it() {
        try (Harness h = Harness.start(home, withResizer("failing"))) {
            StatefulSetResult r = converge(h, converger(h, heard), Demo.declared("postgres"), Harness.options());
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.FAILED);
            assertThat(r.reason()).as("ended on the resizer's failure, not at --timeout").isEqualTo("resize-failed");
            assertThat(r.detail()).contains("the resizer failed", "times to expand claim data-postgres-0 (VolumeResizeFailed)",
                    "code = Unavailable", "Nothing was deleted");
            assertThat(ResultDocument.of(List.of(r)).toString()).contains("\"reason\":\"resize-failed\"");
            // the failure was said in the ticks before it ended the wait
            assertThat(heard.ticks).anySatisfy(t -> assertThat(t.claims()).anySatisfy(c ->
                    assertThat(c.latest()).startsWith("VolumeResizeFailed").contains("allocatedResourceStatuses ControllerResizeInProgress")));
            // after the claim patches: no StatefulSet write, no other claim write; only the run's own record goes
            var log = h.sim.requests();
            int lastPatch = -1;
            for (int i = 0; i < log.size(); i++) {
                if (log.get(i).method().equals("PATCH") && "persistentvolumeclaims".equals(log.get(i).resource()) && !log.get(i).dryRun()) {
                    lastPatch = i;
                }
            }
            assertThat(lastPatch).isPositive();
            assertThat(log.subList(lastPatch + 1, log.size())).noneMatch(q -> !q.dryRun() && !q.method().equals("GET")
                    && ("statefulsets".equals(q.resource()) || "persistentvolumeclaims".equals(q.resource())));
            assertThat(h.journal.all()).as("released").isEmpty();
        }
    }

    @Test
    void a_failure_said_once_is_shown_but_does_not_end_the_wait_and_repeated_failures_do() {
        try (Harness h = Harness.start(home, withResizer("none"))) {
            var cluster = h.cluster();
            cluster.patchClaimStorage("shop", "data-postgres-0", "20Gi", false);
            ResizeSignals signals = new ResizeSignals(cluster, Clock.systemUTC(), Progress.NONE, "shop", "postgres",
                    Map.of("data-postgres-0", "20Gi"), Map.of("data-postgres-0", "10Gi"));
            signals.read(); // the baseline
            cluster.createEvent(failed(h, "data-postgres-0", "first", 1));
            List<ClaimGrower.ClaimStatus> once = signals.read();
            assertThat(once.get(0).latest()).isEqualTo("VolumeResizeFailed: resize volume \"pv\" failed: first");
            assertThat(signals.failure("data-postgres-0")).as("one failure: external-resizer retries").isEmpty();
            cluster.createEvent(failed(h, "data-postgres-0", "again", ResizeSignals.FAILURES_THAT_END - 1));
            signals.read();
            assertThat(signals.failure("data-postgres-0")).startsWith("the resizer failed " + ResizeSignals.FAILURES_THAT_END
                    + " times to expand claim data-postgres-0 (VolumeResizeFailed): resize volume \"pv\" failed:");
        }
    }

    /** A core v1 Event as external-resizer's recorder writes it, with {@code count} as its correlator raised it. */
    static ObjectNode failed(Harness h, String claim, String message, int count) {
        ObjectNode pvc = h.claim("shop", claim);
        ObjectNode e = Objects.MAPPER.createObjectNode();
        e.put("apiVersion", "v1").put("kind", "Event");
        e.putObject("metadata").put("generateName", claim + ".").put("namespace", "shop");
        e.putObject("involvedObject").put("apiVersion", "v1").put("kind", "PersistentVolumeClaim").put("namespace", "shop")
                .put("name", claim).put("uid", pvc.at("/metadata/uid").asText());
        e.put("reason", "VolumeResizeFailed").put("message", "resize volume \"pv\" failed: " + message).put("type", "Warning");
        e.putObject("source").put("component", "external-resizer test.csi");
        String now = Instant.now().toString();
        e.put("firstTimestamp", now).put("lastTimestamp", now).put("count", count);
        return e;
    }

    /** A clock the test moves. */
    static final class MovingClock extends Clock {
        Instant now = Instant.parse("2026-12-06T08:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void no_sign_of_a_resizer_is_said_once_a_minute_and_ExternalExpanding_is_no_sign() {
        try (Harness h = Harness.start(home, withResizer("none"))) {
            var cluster = h.cluster();
            cluster.patchClaimStorage("shop", "data-postgres-0", "20Gi", false);
            Harness.await("ExternalExpanding", () -> cluster.listClaimEvents("shop").items().stream()
                    .anyMatch(e -> e.path("reason").asText().equals("ExternalExpanding")));
            // the plugin's own Event about its patch is no resizer's word
            ObjectNode ours = failed(h, "data-postgres-0", "x", 1);
            ours.put("reason", "StorageRequestGrown").put("type", "Normal").put("message", "storage request grown from 10Gi to 20Gi");
            ((ObjectNode) ours.path("source")).put("component", Events.CONTROLLER);
            cluster.createEvent(ours);
            ResizeSignals signals = postgresGrowingTo20Gi(cluster);
            signals.read();
            clock.now = clock.now.plusSeconds(59);
            signals.read();
            assertThat(heard.events).as("not before a minute").isEmpty();
            clock.now = clock.now.plusSeconds(2);
            List<ClaimGrower.ClaimStatus> read = signals.read();
            assertThat(read.get(0).latest()).startsWith("ExternalExpanding: waiting for an external controller to expand this PVC");
            assertThat(heard.events).singleElement().satisfies(e -> {
                assertThat(e.warning()).isTrue();
                assertThat(e.message()).startsWith("no sign of a resizer for 1 minute(s) on claim(s) data-postgres-0")
                        .contains("external-resizer");
            });
            clock.now = clock.now.plusSeconds(30);
            signals.read();
            assertThat(heard.events).as("once a minute").hasSize(1);
            clock.now = clock.now.plusSeconds(31);
            signals.read();
            assertThat(heard.events).hasSize(2);
            assertThat(heard.events.get(1).message()).startsWith("no sign of a resizer for 2 minute(s)");
        }
    }

    /** The signals of postgres's first claim, asked to grow from 10Gi to 20Gi, on this test's clock and heard here. */
    ResizeSignals postgresGrowingTo20Gi(dev.stsresize.cluster.Cluster cluster) {
        return new ResizeSignals(cluster, clock, heard, "shop", "postgres", Map.of("data-postgres-0", "20Gi"), Map.of("data-postgres-0", "10Gi"));
    }

    @Test
    void a_resizer_at_work_is_a_sign_and_nothing_is_said() {
        try (Harness h = Harness.start(home, withResizer("failing"))) {
            var cluster = h.cluster();
            cluster.patchClaimStorage("shop", "data-postgres-0", "20Gi", false);
            Harness.await("Resizing", () -> !h.claim("shop", "data-postgres-0").at("/status/allocatedResourceStatuses/storage").isMissingNode());
            ResizeSignals signals = postgresGrowingTo20Gi(cluster);
            signals.read();
            clock.now = clock.now.plusSeconds(61);
            signals.read();
            assertThat(heard.events).isEmpty();
        }
    }

    @Test
    void a_foreign_finalizer_holding_the_deleted_statefulset_is_named_not_blamed_on_the_garbage_collector() {
        try (Harness h = Harness.start(home, Demo.clusterWith("StatefulSet", "postgres",
                s -> ((ObjectNode) s.path("metadata")).putArray("finalizers").add("example.com/x")))) {
            StatefulSetResult r = converge(h, converger(h, heard), Demo.declared("postgres"),
                    Harness.options().withTimeout(Duration.ofSeconds(3)));
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.FAILED);
            assertThat(r.reason()).isEqualTo("delete-incomplete");
            assertThat(r.detail()).contains("held by finalizer example.com/x: that controller must remove it")
                    .doesNotContain("the garbage collector has not finished");
            assertThat(heard.events).anySatisfy(e -> {
                assertThat(e.warning()).isTrue();
                assertThat(e.message()).startsWith("StatefulSet postgres is held by finalizer example.com/x: that controller must remove it");
            });
            assertThat(heard.ticks).anySatisfy(t -> assertThat(t.what()).startsWith("StatefulSet postgres (UID ")
                    .contains("to be gone (404): held by finalizer example.com/x"));
        }
    }

    @Test
    void the_end_says_how_long_each_phase_took_in_text_and_json() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            StatefulSetResult r = converge(h, converger(h, Progress.NONE), Demo.declared("postgres"), Harness.options());
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(r.phases()).extracting(StatefulSetResult.PhaseTime::phase)
                    .containsExactly("grow", "wait", "orphan-delete", "re-apply", "verify", "file-systems");
            assertThat(r.phases()).allSatisfy(p -> assertThat(p.took().isNegative()).isFalse());
            ObjectNode item = (ObjectNode) ResultDocument.of(List.of(h.converger().reread(r))).path("items").get(0);
            assertThat(item.path("phaseSeconds").fieldNames()).toIterable()
                    .containsExactly("grow", "wait", "orphan-delete", "re-apply", "verify", "file-systems");
            assertThat(item.path("phaseSeconds").path("wait").isNumber()).isTrue();
            assertThat(Quantity.parse(h.claim("shop", "data-postgres-0").at("/status/capacity/storage").asText()))
                    .isEqualByComparingTo(Quantity.parse("20Gi"));
        }
    }

    @Test
    void a_phase_reads_in_tenths_of_a_second_and_minutes() {
        assertThat(new StatefulSetResult.PhaseTime("wait", Duration.ofMillis(12_449)).words()).isEqualTo("12.4s");
        assertThat(new StatefulSetResult.PhaseTime("wait", Duration.ofMillis(62_500)).words()).isEqualTo("1m02.5s");
        assertThat(new StatefulSetResult.PhaseTime("grow", Duration.ofMillis(80)).words()).isEqualTo("0.0s");
    }
}
