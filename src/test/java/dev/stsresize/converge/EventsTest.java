package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit Events are ones kube-apiserver accepts: the simulated server validates events.k8s.io/v1
 * Events as pkg/apis/core/validation/events.go does (generateName with NameIsDNSSubdomain), and a
 * real v1.24 server refused {@code <name>.} with 422 (docs/reference/real-apiserver-v1.32.md, last section).
 */
class EventsTest {
    @TempDir Path home;

    @Test
    void the_plugins_events_are_accepted_and_read_back_without_a_warning() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            List<ProgressEvent> said = new ArrayList<>();
            Events events = new Events(h.cluster(), Clock.systemUTC(), "alice@laptop 1", said::add);
            ObjectNode claim = h.claim("shop", "data-postgres-0");
            ObjectNode sts = h.get("apps/v1", "StatefulSet", "shop", "postgres");
            ObjectNode longName = claim.deepCopy();
            longName.withObject("/metadata").put("name", "data." + "x".repeat(60) + ".y");

            events.on(claim, "StorageRequestGrown", "Grow", "grew");
            events.on(sts, "OrphanDeleted", "Delete", "orphan-deleted");
            events.on(longName, "StorageRequestGrown", "Grow", "a long dotted name");

            assertThat(said).as("no warning: every Event accepted").isEmpty();
            List<String> stored = new ArrayList<>();
            for (ObjectNode o : h.sim.snapshot()) {
                if (o.path("kind").asText().equals("Event") && o.path("reportingComponent").asText().equals(Events.CONTROLLER)) {
                    stored.add(o.at("/involvedObject/name").asText() + " " + o.at("/metadata/name").asText());
                }
            }
            assertThat(stored).hasSize(3).anyMatch(s -> s.matches("data-postgres-0 data-postgres-0-[a-z0-9]{5}"))
                    .anyMatch(s -> s.matches("postgres postgres-[a-z0-9]{5}"));
        }
    }

    @Test
    void the_generate_name_is_a_dns_subdomain_prefix_for_any_name_the_server_accepts() {
        assertThat(Events.generateName("data-db-0")).isEqualTo("data-db-0-");
        assertThat(Events.generateName("a".repeat(56) + ".b.c")).as("cut to 57, no trailing '.'").isEqualTo("a".repeat(56) + "-");
        assertThat(Events.generateName("x".repeat(253))).hasSize(58);
    }

    static List<ProgressEvent> threeEvents(Harness h, String... rules) {
        String context = ServiceAccountRole.signIn(h, "shop", rules);
        List<ProgressEvent> said = new ArrayList<>();
        Events events = new Events(h.cluster(context), Clock.systemUTC(), "sa@ci 1", said::add);
        events.on(h.claim("shop", "data-postgres-0"), "StorageRequestGrown", "Grow", "grew");
        events.on(h.claim("shop", "data-postgres-1"), "StorageRequestGrown", "Grow", "grew");
        events.on(h.get("apps/v1", "StatefulSet", "shop", "postgres"), "Reapplied", "Apply", "re-applied");
        return said;
    }

    static List<String> posts(Harness h) {
        List<String> out = new ArrayList<>();
        h.sim.requests().stream().filter(q -> q.method().equals("POST") && q.path().endsWith("/events"))
                .forEach(q -> out.add(q.path().replaceAll("/namespaces/.*", "") + " " + q.status()));
        return out;
    }

    /** The built-in admin and edit roles grant core Events only: those are written, with no warning, after one refusal. */
    @Test
    void where_events_k8s_io_is_refused_core_v1_events_are_written_without_a_warning() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            List<ProgressEvent> said = threeEvents(h, "{apiGroups: [''], resources: [events], verbs: [create]}");
            assertThat(said).isEmpty();
            assertThat(posts(h)).containsExactly("/apis/events.k8s.io/v1 403", "/api/v1 201", "/api/v1 201", "/api/v1 201");
            List<ObjectNode> stored = h.sim.snapshot().stream().filter(o -> o.path("kind").asText().equals("Event")
                    && o.path("reportingComponent").asText().equals(Events.CONTROLLER)).toList();
            assertThat(stored).hasSize(3).allSatisfy(e -> {
                assertThat(e.at("/source/component").asText()).isEqualTo(Events.CONTROLLER);
                assertThat(e.at("/reportingInstance").asText()).isEqualTo("sa@ci 1");
                assertThat(e.at("/count").asInt()).isEqualTo(1);
                assertThat(e.at("/lastTimestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
            });
            assertThat(stored).anySatisfy(e -> assertThat(e.at("/involvedObject/name").asText() + " " + e.at("/message").asText())
                    .isEqualTo("postgres re-applied (by sa@ci 1)"));
        }
    }

    @Test
    void where_no_event_may_be_created_they_are_skipped_with_one_warning() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            List<ProgressEvent> said = threeEvents(h, "{apiGroups: [''], resources: [pods], verbs: [get]}");
            assertThat(said).hasSize(1);
            assertThat(said.get(0).warning()).isTrue();
            assertThat(said.get(0).message()).contains("Events are not recorded in namespace shop",
                    "cannot create resource \"events\" in API group \"\"", "The run goes on");
            assertThat(posts(h)).as("one refusal per API, then none asked").containsExactly("/apis/events.k8s.io/v1 403", "/api/v1 403");
        }
    }

    /** The old naming, sent as it was: refused with the real server's 422, so every Event was lost. */
    @Test
    void the_old_dot_naming_is_refused_as_a_real_server_refuses_it() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            ObjectNode e = Objects.MAPPER.createObjectNode();
            e.put("apiVersion", "events.k8s.io/v1").put("kind", "Event");
            e.putObject("metadata").put("generateName", "data-postgres-0.").put("namespace", "shop");
            e.put("eventTime", "2026-12-03T08:00:00.000000Z").put("reportingController", Events.CONTROLLER)
                    .put("reportingInstance", "alice").put("action", "Grow").put("reason", "StorageRequestGrown").put("type", "Normal");
            e.putObject("regarding").put("kind", "PersistentVolumeClaim").put("name", "data-postgres-0").put("namespace", "shop");
            assertThatThrownBy(() -> h.cluster().createEvent(e)).isInstanceOf(ClusterException.class)
                    .hasMessageContaining("metadata.generateName: Invalid value: \"data-postgres-0.\": a lowercase RFC 1123 subdomain");
        }
    }
}
