package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** An Event is one object in two API versions: written as events.k8s.io/v1, read as core v1, and back. */
class EventVersionsTest extends FreshSim {

    @Test
    void an_event_written_as_events_k8s_io_reads_back_as_a_core_event_with_the_mapped_fields() {
        String event = """
                {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"db.grown"},
                 "eventTime":"2026-12-03T08:00:00.000000Z","reportingController":"stsresize","reportingInstance":"stsresize-host",
                 "action":"Resize","reason":"Grown","type":"Normal","note":"grew 3 claims to 2Gi",
                 "regarding":{"apiVersion":"apps/v1","kind":"StatefulSet","name":"db","namespace":"default"}}""";
        SimClient.Answer created = admin.send("POST", "/apis/events.k8s.io/v1/namespaces/default/events", "application/json", event);
        assertThat(created.code()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("apiVersion").asText()).isEqualTo("events.k8s.io/v1");
        assertThat(created.json().path("note").asText()).isEqualTo("grew 3 claims to 2Gi");
        JsonNode core = admin.get("/api/v1/namespaces/default/events/db.grown").json();
        assertThat(core.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(core.path("message").asText()).isEqualTo("grew 3 claims to 2Gi");
        assertThat(core.at("/involvedObject/name").asText()).isEqualTo("db");
        assertThat(core.path("reportingComponent").asText()).isEqualTo("stsresize");
        assertThat(core.at("/metadata/uid").asText()).isEqualTo(created.json().at("/metadata/uid").asText());
        JsonNode byInvolved = admin.get("/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Ddb").json();
        assertThat(byInvolved.path("items")).hasSize(1);
        assertThat(admin.get("/apis/events.k8s.io/v1/namespaces/default/events").json().at("/items/0/regarding/kind").asText())
                .isEqualTo("StatefulSet");
        assertThat(sim.snapshot().stream().filter(o -> o.path("kind").asText().equals("Event"))).as("stored once").hasSize(1);
    }
}
