package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ServerUnreachable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The audit Events without a server: which API each goes to, what it says, and how a refusal or a
 * failure is said (once per namespace where none can be written) without ever stopping the run.
 */
class EventsUnitTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final List<ProgressEvent> said = new ArrayList<>();
    private final Events events = new Events(cluster, cluster.time, "alice@laptop 7", said::add);

    private static ObjectNode claim(String ns, String name) {
        return MemoryCluster.json("{'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'" + name + "','namespace':'" + ns
                + "','uid':'u-" + name + "'}}");
    }

    @Test
    void an_events_k8s_io_event_names_the_object_the_operator_and_the_controller() {
        events.on(claim("shop", "data-db-0"), "StorageRequestGrown", "Grow", "grew");

        assertThat(said).isEmpty();
        assertThat(cluster.eventsCreated).hasSize(1);
        ObjectNode e = cluster.eventsCreated.get(0);
        assertThat(e.path("apiVersion").asText()).isEqualTo("events.k8s.io/v1");
        assertThat(e.path("kind").asText()).isEqualTo("Event");
        assertThat(e.at("/metadata/generateName").asText()).isEqualTo("data-db-0-");
        assertThat(e.at("/metadata/namespace").asText()).isEqualTo("shop");
        assertThat(e.path("eventTime").asText()).isEqualTo("2026-01-01T00:00:00.000000Z");
        assertThat(e.path("reportingController").asText()).isEqualTo("kubectl-stsresize");
        assertThat(e.path("reportingInstance").asText()).isEqualTo("alice@laptop 7");
        assertThat(e.path("action").asText()).isEqualTo("Grow");
        assertThat(e.path("reason").asText()).isEqualTo("StorageRequestGrown");
        assertThat(e.path("type").asText()).isEqualTo("Normal");
        assertThat(e.path("note").asText()).isEqualTo("grew (by alice@laptop 7)");
        assertThat(e.path("regarding").toString())
                .isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"namespace\":\"shop\",\"name\":\"data-db-0\",\"uid\":\"u-data-db-0\"}");
    }

    @Test
    void where_events_k8s_io_is_forbidden_a_core_event_is_written_as_client_go_writes_one_and_the_namespace_remembers() {
        cluster.failNext("createEvent", MemoryCluster.error(403, "Forbidden", "events.events.k8s.io is forbidden"));
        cluster.time.advance(java.time.Duration.ofMillis(1500));
        events.on(claim("shop", "data-db-0"), "StorageRequestGrown", "Grow", "grew");
        events.on(claim("shop", "data-db-1"), "StorageRequestGrown", "Grow", "grew too");

        assertThat(said).isEmpty();
        assertThat(cluster.eventsCreated).extracting(e -> e.path("apiVersion").asText()).containsExactly("v1", "v1");
        ObjectNode e = cluster.eventsCreated.get(0);
        assertThat(e.path("kind").asText()).isEqualTo("Event");
        assertThat(e.at("/metadata/generateName").asText()).isEqualTo("data-db-0-");
        assertThat(e.at("/metadata/namespace").asText()).isEqualTo("shop");
        assertThat(e.at("/involvedObject/name").asText()).isEqualTo("data-db-0");
        assertThat(e.at("/involvedObject/uid").asText()).isEqualTo("u-data-db-0");
        assertThat(e.path("reason").asText()).isEqualTo("StorageRequestGrown");
        assertThat(e.path("message").asText()).isEqualTo("grew (by alice@laptop 7)");
        assertThat(e.at("/source/component").asText()).isEqualTo("kubectl-stsresize");
        assertThat(e.path("firstTimestamp").asText()).as("seconds, as metav1.Time").isEqualTo("2026-01-01T00:00:01Z");
        assertThat(e.path("lastTimestamp").asText()).isEqualTo("2026-01-01T00:00:01Z");
        assertThat(e.path("count").asInt()).isEqualTo(1);
        assertThat(e.path("type").asText()).isEqualTo("Normal");
        assertThat(e.path("action").asText()).isEqualTo("Grow");
        assertThat(e.path("reportingComponent").asText()).isEqualTo("kubectl-stsresize");
        assertThat(e.path("reportingInstance").asText()).isEqualTo("alice@laptop 7");
        assertThat(e.has("eventTime")).isFalse();
    }

    @Test
    void an_events_api_not_served_404_also_falls_back_to_core_events() {
        cluster.failNext("createEvent", MemoryCluster.error(404, "NotFound", "the server could not find the requested resource"));
        events.on(claim("shop", "data-db-0"), "R", "A", "n");
        assertThat(said).isEmpty();
        assertThat(cluster.eventsCreated).extracting(e -> e.path("apiVersion").asText()).containsExactly("v1");
    }

    @Test
    void where_neither_may_be_written_it_is_said_once_and_nothing_more_is_asked_in_that_namespace() {
        cluster.failNext("createEvent", MemoryCluster.error(403, "Forbidden", "no events.k8s.io"));
        cluster.failNext("createEvent", MemoryCluster.error(403, "Forbidden", "no events"));
        events.on(claim("shop", "data-db-0"), "R", "A", "n");
        int asked = cluster.writes("createEvent").size();
        events.on(claim("shop", "data-db-1"), "R", "A", "n");
        events.on(claim("shop", "data-db-2"), "R", "A", "n");

        assertThat(asked).isEqualTo(2);
        assertThat(cluster.writes("createEvent")).as("nothing more asked in shop").hasSize(2);
        assertThat(said).hasSize(1);
        assertThat(said.get(0).warning()).isTrue();
        assertThat(said.get(0).namespace()).isEqualTo("shop");
        assertThat(said.get(0).name()).isEqualTo("data-db-0");
        assertThat(said.get(0).step()).isEqualTo(Phase.RECORD);
        assertThat(said.get(0).message()).isEqualTo("Events are not recorded in namespace shop: you cannot create events.events.k8s.io"
                + " nor events there (the server: no events). The run goes on; what it did is in its output and its record");

        events.on(claim("other", "data-db-0"), "R", "A", "n");
        assertThat(cluster.eventsCreated).as("another namespace is asked again")
                .extracting(e -> e.path("apiVersion").asText()).containsExactly("events.k8s.io/v1");
    }

    @Test
    void any_other_failure_is_a_warning_naming_the_event_and_object_and_is_not_retried_as_core() {
        cluster.failNext("createEvent", MemoryCluster.error(500, "InternalError", "etcd timed out"));
        events.on(claim("shop", "data-db-0"), "StorageRequestGrown", "Grow", "n");
        assertThat(cluster.writes("createEvent")).hasSize(1);
        assertThat(said).singleElement().satisfies(p -> {
            assertThat(p.warning()).isTrue();
            assertThat(p.step()).isEqualTo(Phase.RECORD);
            assertThat(p.namespace()).isEqualTo("shop");
            assertThat(p.name()).isEqualTo("data-db-0");
            assertThat(p.message()).isEqualTo("could not record Event StorageRequestGrown on PersistentVolumeClaim data-db-0: etcd timed out");
        });

        said.clear();
        cluster.failNext("createEvent", new ServerUnreachable("connection reset", null, true));
        events.on(claim("shop", "data-db-1"), "R", "A", "n");
        assertThat(said).singleElement().satisfies(p -> assertThat(p.message()).isEqualTo("could not record Event R on PersistentVolumeClaim"
                + " data-db-1: connection reset"));
        assertThat(cluster.eventsCreated).isEmpty();

        said.clear();
        events.on(claim("shop", "data-db-2"), "R", "A", "n");
        assertThat(said).as("a failure is no refusal: events.k8s.io is still used").isEmpty();
        assertThat(cluster.eventsCreated).extracting(e -> e.path("apiVersion").asText()).containsExactly("events.k8s.io/v1");
    }

    @Test
    void a_core_event_that_fails_otherwise_is_a_warning_and_the_namespace_is_asked_again() {
        cluster.failNext("createEvent", MemoryCluster.error(403, "Forbidden", "no events.k8s.io"));
        cluster.failNext("createEvent", MemoryCluster.error(500, "InternalError", "etcd down"));
        events.on(claim("shop", "data-db-0"), "R", "A", "n");
        assertThat(said).singleElement().satisfies(p -> assertThat(p.message()).isEqualTo("could not record Event R on"
                + " PersistentVolumeClaim data-db-0: etcd down"));

        said.clear();
        cluster.failNext("createEvent", new ServerUnreachable("reset", null, true));
        events.on(claim("shop", "data-db-1"), "R", "A", "n");
        assertThat(said).singleElement().satisfies(p -> assertThat(p.message()).endsWith("data-db-1: reset"));

        said.clear();
        events.on(claim("shop", "data-db-2"), "R", "A", "n");
        assertThat(said).isEmpty();
        assertThat(cluster.eventsCreated).as("still core v1 in shop").extracting(e -> e.path("apiVersion").asText()).containsExactly("v1");
    }

    @Test
    void long_notes_and_instances_are_cut_to_what_the_server_accepts() {
        Events longOperator = new Events(cluster, cluster.time, "o".repeat(129), said::add);
        longOperator.on(claim("shop", "data-db-0"), "R", "A", "x".repeat(2000));
        ObjectNode e = cluster.eventsCreated.get(0);
        assertThat(e.path("note").asText()).hasSize(1024);
        assertThat(e.path("reportingInstance").asText()).isEqualTo("o".repeat(128));

        Events exact = new Events(cluster, cluster.time, "o".repeat(128), said::add);
        String note = "y".repeat(1024 - " (by ".length() - 128 - 1);
        exact.on(claim("shop", "data-db-0"), "R", "A", note);
        ObjectNode f = cluster.eventsCreated.get(1);
        assertThat(f.path("note").asText()).isEqualTo(note + " (by " + "o".repeat(128) + ")").hasSize(1024);
        assertThat(f.path("reportingInstance").asText()).hasSize(128);
    }

    @Test
    void the_generate_name_is_a_dns_subdomain_prefix() {
        assertThat(Events.generateName("data-db-0")).isEqualTo("data-db-0-");
        assertThat(Events.generateName("a".repeat(57))).isEqualTo("a".repeat(57) + "-");
        assertThat(Events.generateName("a".repeat(56) + ".b.c")).isEqualTo("a".repeat(56) + "-");
        assertThat(Events.generateName("a".repeat(58))).isEqualTo("a".repeat(57) + "-");
        assertThat(Events.generateName("ab.-")).isEqualTo("ab-");
        assertThat(Events.generateName("...")).isEqualTo("-");
    }

    @Test
    void events_sent_later_never_keep_the_command_from_exiting() throws Exception {
        Thread[] sender = new Thread[1];
        cluster.whenFailing = m -> sender[0] = Thread.currentThread();
        cluster.failNext("createEvent", MemoryCluster.error(500, "InternalError", "events store down"));
        events.later(claim("shop", "data-db-0"), "StorageRequestGrown", "Grow", "grown");
        events.flush();
        assertThat(sender[0]).isNotNull();
        assertThat(sender[0].getName()).isEqualTo("stsresize-events");
        assertThat(sender[0].isDaemon()).as("a daemon: the JVM exits when the run is over").isTrue();
        assertThat(said).singleElement().satisfies(p -> assertThat(p.message()).contains("events store down"));
    }
}
