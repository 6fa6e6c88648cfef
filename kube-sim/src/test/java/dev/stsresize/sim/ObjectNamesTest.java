package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * Names and generateName refused as kube-apiserver refuses them: rest.BeforeCreate runs the kind's
 * ValidateObjectMeta (pkg/apis/*&#47;validation) with its name function, then the common
 * ValidateObjectMetaAccessor with ValidatePathSegmentName (staging/src/k8s.io/apimachinery/pkg/api/validation).
 */
class ObjectNamesTest extends FreshSim {
    static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.',"
            + " and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    static final String LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start"
            + " and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    static final String EVENTS = "/apis/events.k8s.io/v1/namespaces/default/events";

    static String event(String meta) {
        return """
                {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":META,
                 "eventTime":"2026-12-03T08:00:00.000000Z","reportingController":"kubectl-stsresize","reportingInstance":"alice@laptop 1",
                 "action":"Resize","reason":"Grown","type":"Normal","note":"grew",
                 "regarding":{"apiVersion":"v1","kind":"PersistentVolumeClaim","name":"data-db-0","namespace":"default"}}"""
                .replace("META", meta);
    }

    /** The text a real server answered (docs/reference/real-apiserver-v1.32.md, last section). */
    @Test
    void an_events_v1_generate_name_ending_in_a_dot_is_refused_with_the_real_servers_text() {
        SimClient.Answer a = admin.send("POST", EVENTS, "application/json", event("{\"generateName\":\"probe2.\"}"));
        assertThat(a.code()).as(a.body()).isEqualTo(422);
        assertThat(a.json().path("message").asText())
                .matches("Event \"probe2\\.[a-z0-9]{5}\" is invalid: .*")
                .endsWith(" is invalid: metadata.generateName: Invalid value: \"probe2.\": " + SUBDOMAIN);
        assertThat(a.json().at("/details/causes/0/field").asText()).isEqualTo("metadata.generateName");
        assertThat(a.json().at("/details/causes/0/reason").asText()).isEqualTo("FieldValueInvalid");
    }

    @Test
    void an_events_v1_generate_name_ending_in_a_dash_is_accepted_and_its_name_generated() {
        SimClient.Answer a = admin.send("POST", EVENTS, "application/json", event("{\"generateName\":\"data-db-0-\"}"));
        assertThat(a.code()).as(a.body()).isEqualTo(201);
        assertThat(a.json().at("/metadata/name").asText()).matches("data-db-0-[a-z0-9]{5}");
    }

    @Test
    void events_v1_checks_name_and_the_fields_events_go_requires() {
        SimClient.Answer a = admin.send("POST", EVENTS, "application/json",
                event("{\"name\":\"Data_db\"}").replace("\"action\":\"Resize\",", "").replace("\"type\":\"Normal\"", "\"type\":\"Odd\""));
        assertThat(a.code()).as(a.body()).isEqualTo(422);
        assertThat(a.json().path("details").path("causes")).extracting(c -> c.path("field").asText())
                .containsExactly("action", "metadata.name", "type");
        assertThat(a.json().path("message").asText()).startsWith("Event \"Data_db\" is invalid: [").contains("action: Required value",
                "metadata.name: Invalid value: \"Data_db\": " + SUBDOMAIN, "type: Invalid value: \"\": has invalid value: Odd");
    }

    /** Verbatim from a real v1.24 server (/tmp/realk8s/ANSWERS.md b5): several causes in brackets, in events.go's order. */
    @Test
    void an_events_v1_event_without_reporting_controller_gets_the_real_servers_three_causes() {
        SimClient.Answer a = admin.send("POST", EVENTS, "application/json",
                event("{\"generateName\":\"data-db-0-\"}").replace("\"reportingController\":\"kubectl-stsresize\",", ""));
        assertThat(a.code()).as(a.body()).isEqualTo(422);
        assertThat(a.json().path("message").asText()).matches("Event \"data-db-0-[a-z0-9]{5}\" is invalid: .*").endsWith(
                " is invalid: [reportingController: Required value, reportingController: Invalid value: \"\": name part must be non-empty,"
                + " reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and"
                + " must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
                + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]");
    }

    /** A core v1 Event has only the legacy checks (events.go), then the common path-segment one. */
    @Test
    void a_core_v1_event_name_needs_only_to_be_a_path_segment() {
        String core = """
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"NAME"},"reason":"Grown","message":"m",
                 "involvedObject":{"kind":"Pod","name":"p","namespace":"default"}}""";
        assertThat(admin.send("POST", "/api/v1/namespaces/default/events", "application/json", core.replace("NAME", "Odd_Name.x")).code())
                .isEqualTo(201);
        SimClient.Answer a = admin.send("POST", "/api/v1/namespaces/default/events", "application/json", core.replace("NAME", "a%b"));
        assertThat(a.code()).isEqualTo(422);
        assertThat(a.json().path("message").asText()).isEqualTo("Event \"a%b\" is invalid: metadata.name: Invalid value: \"a%b\": may not contain '%'");
    }

    /** pkg/apis/apps/validation ValidateStatefulSetName: NameIsDNSLabel (v1.32); a generateName keeps a trailing dash (maskTrailingDash). */
    @Test
    void a_statefulset_name_must_be_a_dns_label() {
        JsonNode db = Fixtures.db();
        ((com.fasterxml.jackson.databind.node.ObjectNode) db.get("metadata")).put("name", "db.v2");
        SimClient.Answer a = admin.send("POST", "/apis/apps/v1/namespaces/default/statefulsets", "application/json", db.toString());
        assertThat(a.code()).as(a.body()).isEqualTo(422);
        assertThat(a.json().path("message").asText())
                .isEqualTo("StatefulSet.apps \"db.v2\" is invalid: metadata.name: Invalid value: \"db.v2\": " + LABEL);
        ((com.fasterxml.jackson.databind.node.ObjectNode) db.get("metadata")).remove("name");
        ((com.fasterxml.jackson.databind.node.ObjectNode) db.get("metadata")).put("generateName", "db-");
        SimClient.Answer generated = admin.send("POST", "/apis/apps/v1/namespaces/default/statefulsets", "application/json", db.toString());
        assertThat(generated.code()).as(generated.body()).isEqualTo(201);
    }

    @Test
    void a_claim_name_must_be_a_dns_subdomain_of_at_most_253_characters() {
        String claim = """
                {"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"NAME"},
                 "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}""";
        SimClient.Answer a = admin.send("POST", "/api/v1/namespaces/default/persistentvolumeclaims", "application/json",
                claim.replace("NAME", "x".repeat(254)));
        assertThat(a.code()).isEqualTo(422);
        assertThat(a.json().path("message").asText()).endsWith("metadata.name: Invalid value: \"" + "x".repeat(254)
                + "\": must be no more than 253 characters");
        assertThat(admin.send("POST", "/api/v1/namespaces/default/persistentvolumeclaims", "application/json",
                claim.replace("NAME", "data.db-0")).code()).isEqualTo(201);
    }
}
