package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.patch.Patches;
import dev.stsresize.sim.registry.WriteOptions;
import dev.stsresize.sim.store.StoreEvent;
import dev.stsresize.sim.store.Subscription;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** resourceVersion, generation, dryRun, status subresources and deletion with finalizers, over HTTP. */
class StoreSemanticsTest extends FreshSim {
    static final String STS = "/apis/apps/v1/namespaces/default/statefulsets";

    @BeforeEach
    void load() {
        sim.load(Fixtures.storageClass("expandable", true));
    }

    /** Creates StatefulSet default/db through the API; answers it as stored. */
    JsonNode createDb() {
        return admin.send("POST", STS, "application/json", Fixtures.db().toString()).json();
    }

    long rv(SimClient.Answer a) {
        return Long.parseLong(a.json().at("/metadata/resourceVersion").asText());
    }

    @Test
    void every_write_takes_a_higher_resource_version_and_a_list_reports_the_latest() {
        long created = rv(admin.send("POST", STS, "application/json", Fixtures.db().toString()));
        long patched = rv(admin.send("PATCH", STS + "/db", "application/merge-patch+json", "{\"spec\":{\"replicas\":3}}"));
        long status = rv(admin.send("PATCH", STS + "/db/status", "application/merge-patch+json", "{\"status\":{\"replicas\":3}}"));
        assertThat(created).isLessThan(patched);
        assertThat(patched).isLessThan(status);
        assertThat(Long.parseLong(admin.get(STS).json().at("/metadata/resourceVersion").asText())).isEqualTo(status);
        SimClient.Answer noop = admin.send("PATCH", STS + "/db", "application/merge-patch+json", "{\"spec\":{\"replicas\":3}}");
        assertThat(rv(noop)).as("a write that changes nothing keeps the resourceVersion").isEqualTo(status);
    }

    @Test
    void dry_run_answers_every_write_but_stores_nothing_and_consumes_no_resource_version() {
        createDb();
        long before = sim.store().resourceVersion();
        int requestsBefore = sim.requests().size();
        ObjectNode other = Fixtures.db();
        other.withObject("/metadata").put("name", "other");
        assertThat(admin.send("POST", STS + "?dryRun=All", "application/json", other.toString()).code()).isEqualTo(201);
        assertThat(admin.send("PATCH", STS + "/db?dryRun=All", "application/merge-patch+json", "{\"spec\":{\"replicas\":9}}")
                .json().at("/spec/replicas").asInt()).isEqualTo(9);
        SimClient.Answer del = admin.send("DELETE", STS + "/db", "application/json", "{\"propagationPolicy\":\"Orphan\",\"dryRun\":[\"All\"]}");
        assertThat(del.json().at("/metadata/finalizers/0").asText()).isEqualTo("orphan");
        assertThat(sim.store().resourceVersion()).isEqualTo(before);
        assertThat(admin.get(STS + "/other").code()).isEqualTo(404);
        JsonNode db = admin.get(STS + "/db").json();
        assertThat(db.at("/spec/replicas").asInt()).isEqualTo(2);
        assertThat(db.at("/metadata/deletionTimestamp").isMissingNode()).isTrue();
        assertThat(sim.requests().subList(requestsBefore, sim.requests().size()))
                .allSatisfy(r -> assertThat(!r.isWrite() || r.dryRun()).isTrue());
    }

    /**
     * pkg/registry/core/pod/storage/eviction.go propagateDryRun: the eviction's CreateOptions dryRun
     * (the query) becomes its DeleteOptions' when they set none; either place is a dry run.
     */
    @Test
    void an_eviction_is_a_dry_run_with_dry_run_in_its_query_or_in_its_delete_options() {
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}";
        assertThat(admin.send("POST", "/api/v1/namespaces/default/pods", "application/json", pod).code()).isEqualTo(201);
        String eviction = "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\"}";
        assertThat(admin.send("POST", "/api/v1/namespaces/default/pods/p/eviction?dryRun=All", "application/json", eviction + "}").code())
                .isEqualTo(201);
        assertThat(admin.send("POST", "/api/v1/namespaces/default/pods/p/eviction", "application/json",
                eviction + ",\"deleteOptions\":{\"dryRun\":[\"All\"]}}").code()).isEqualTo(201);
        assertThat(admin.get("/api/v1/namespaces/default/pods/p").code()).as("still there").isEqualTo(200);
        assertThat(sim.requests().subList(sim.requests().size() - 3, sim.requests().size() - 1)).allMatch(dev.stsresize.sim.http.RecordedRequest::dryRun);
        assertThat(admin.send("POST", "/api/v1/namespaces/default/pods/p/eviction", "application/json", eviction + "}").code())
                .isEqualTo(201);
        assertThat(admin.get("/api/v1/namespaces/default/pods/p").code()).as("evicted for real").isEqualTo(404);
    }

    /**
     * delete.go (staging/src/k8s.io/apiserver/pkg/endpoints/handlers) decodes DeleteOptions from the
     * body when there is one and never reads the query then; from the query only without a body. A
     * real v1.24 server deleted on {@code ?dryRun=All} beside a body (docs/reference/real-apiserver-v1.32.md, last section).
     */
    @Test
    void a_delete_reads_its_options_from_the_body_when_it_has_one_and_else_from_the_query() {
        String uid = createDb().at("/metadata/uid").asText();

        SimClient.Answer queryOnly = admin.send("DELETE", STS + "/db?dryRun=All&propagationPolicy=Orphan", "application/json", "");
        assertThat(queryOnly.code()).isEqualTo(200);
        assertThat(queryOnly.json().at("/metadata/finalizers/0").asText()).as("the query's policy").isEqualTo("orphan");
        assertThat(admin.get(STS + "/db").json().at("/metadata/deletionTimestamp").isMissingNode()).as("the query's dryRun").isTrue();

        SimClient.Answer wrongUid = admin.send("DELETE", STS + "/db?dryRun=All", "application/json",
                "{\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"0000\"}}");
        assertThat(wrongUid.code()).as("the body's preconditions").isEqualTo(409);

        SimClient.Answer bodyWins = admin.send("DELETE", STS + "/db?dryRun=All&propagationPolicy=Background", "application/json",
                "{\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"" + uid + "\"}}");
        assertThat(bodyWins.code()).isEqualTo(200);
        assertThat(bodyWins.json().at("/metadata/finalizers/0").asText()).as("the body's policy, not the query's").isEqualTo("orphan");
        assertThat(admin.get(STS + "/db").json().at("/metadata/deletionTimestamp").isMissingNode())
                .as("a query dryRun beside a body is ignored: a real delete").isFalse();
        assertThat(sim.requests().get(sim.requests().size() - 2).dryRun()).as("the request log reads it as the server does").isFalse();
    }

    @Test
    void generation_counts_spec_changes_only() {
        createDb();
        admin.send("PATCH", STS + "/db", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
        admin.send("PATCH", STS + "/db/status", "application/merge-patch+json", "{\"status\":{\"replicas\":2}}");
        assertThat(admin.get(STS + "/db").json().at("/metadata/generation").asLong()).isEqualTo(1);
        admin.send("PATCH", STS + "/db", "application/merge-patch+json", "{\"spec\":{\"replicas\":5}}");
        assertThat(admin.get(STS + "/db").json().at("/metadata/generation").asLong()).isEqualTo(2);
    }

    @Test
    void the_status_subresource_changes_only_status_and_the_main_resource_ignores_status() {
        createDb();
        SimClient.Answer viaMain = admin.send("PATCH", STS + "/db", "application/merge-patch+json", "{\"status\":{\"replicas\":7}}");
        assertThat(viaMain.json().at("/status/replicas").asInt()).isZero();
        SimClient.Answer viaStatus = admin.send("PATCH", STS + "/db/status", "application/merge-patch+json",
                "{\"spec\":{\"replicas\":9},\"status\":{\"replicas\":7}}");
        assertThat(viaStatus.json().at("/status/replicas").asInt()).isEqualTo(7);
        assertThat(viaStatus.json().at("/spec/replicas").asInt()).as("spec untouched through /status").isEqualTo(2);
    }

    @Test
    void orphan_delete_is_a_modified_event_with_the_finalizer_and_the_object_goes_when_a_controller_removes_it() throws Exception {
        JsonNode created = admin.send("POST", STS, "application/json", Fixtures.db().toString()).json();
        var sts = sim.type("apps/v1", "StatefulSet");
        try (Subscription events = sim.subscribe(e -> e.resource().equals(sts), sim.store().resourceVersion())) {
            admin.send("DELETE", STS + "/db", "application/json", "{\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\""
                    + created.at("/metadata/uid").asText() + "\"}}");
            StoreEvent marked = events.poll(5000);
            assertThat(marked.type()).isEqualTo(StoreEvent.Type.MODIFIED);
            assertThat(marked.object().at("/metadata/finalizers")).isEqualTo(Reference.json("[\"orphan\"]"));
            assertThat(marked.object().at("/metadata/deletionTimestamp").isTextual()).isTrue();
            assertThat(admin.get(STS + "/db").code()).as("held by its finalizer").isEqualTo(200);
            sim.registry().patch(sts, "default", "db", "", Patches.Type.MERGE, Reference.json("{\"metadata\":{\"finalizers\":null}}"),
                    WriteOptions.by("garbage-collector"));
            StoreEvent gone = events.poll(5000);
            assertThat(gone.type()).isEqualTo(StoreEvent.Type.DELETED);
            assertThat(admin.get(STS + "/db").code()).isEqualTo(404);
        }
    }

    @Test
    void an_object_being_deleted_may_lose_finalizers_but_not_gain_them() {
        createDb();
        admin.send("DELETE", STS + "/db", "application/json", "{\"propagationPolicy\":\"Orphan\"}");
        SimClient.Answer gain = admin.send("PATCH", STS + "/db", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":[\"orphan\",\"example.com/hold\"]}}");
        assertThat(gain.code()).isEqualTo(422);
        assertThat(gain.message()).isEqualTo("StatefulSet.apps \"db\" is invalid: metadata.finalizers: Forbidden: no new finalizers "
                + "can be added if the object is being deleted, found new finalizers []string{\"example.com/hold\"}");
        SimClient.Answer lose = admin.send("PATCH", STS + "/db", "application/merge-patch+json", "{\"metadata\":{\"finalizers\":[]}}");
        assertThat(lose.code()).isEqualTo(200);
        assertThat(admin.get(STS + "/db").code()).as("its last finalizer gone, it is gone").isEqualTo(404);
    }

    @Test
    void foreground_adds_its_finalizer_background_deletes_at_once_and_a_protected_claim_waits() {
        createDb();
        SimClient.Answer fg = admin.send("DELETE", STS + "/db", "application/json", "{\"propagationPolicy\":\"Foreground\"}");
        assertThat(fg.json().at("/metadata/finalizers")).isEqualTo(Reference.json("[\"foregroundDeletion\"]"));
        ObjectNode other = Fixtures.db();
        other.withObject("/metadata").put("name", "bg");
        admin.send("POST", STS, "application/json", other.toString());
        SimClient.Answer bg = admin.send("DELETE", STS + "/bg", null, null);
        assertThat(bg.code()).isEqualTo(200);
        assertThat(bg.json().path("status").asText()).isEqualTo("Success");
        assertThat(bg.json().at("/details/kind").asText()).isEqualTo("statefulsets");
        assertThat(admin.get(STS + "/bg").code()).isEqualTo(404);
        ObjectNode claim = Fixtures.boundClaim("data-db-0", "expandable", "1Gi", "1Gi");
        claim.withObject("/metadata").putArray("finalizers").add("kubernetes.io/pvc-protection");
        sim.load(claim);
        SimClient.Answer pvc = admin.send("DELETE", "/api/v1/namespaces/default/persistentvolumeclaims/data-db-0", null, null);
        assertThat(pvc.json().at("/metadata/deletionTimestamp").isTextual()).isTrue();
        assertThat(pvc.json().at("/metadata/finalizers")).isEqualTo(Reference.json("[\"kubernetes.io/pvc-protection\"]"));
    }

    @Test
    void a_resource_version_precondition_that_does_not_match_is_409() {
        String rv = createDb().at("/metadata/resourceVersion").asText();
        SimClient.Answer a = admin.send("DELETE", STS + "/db", "application/json", "{\"preconditions\":{\"resourceVersion\":\"1\"}}");
        assertThat(a.code()).isEqualTo(409);
        assertThat(a.message()).isEqualTo("Operation cannot be fulfilled on StatefulSet.apps \"db\": the ResourceVersion in the "
                + "precondition (1) does not match the ResourceVersion in record (" + rv + "). The object might have been modified");
    }

    @Test
    void scale_reads_and_writes_replicas() {
        createDb();
        JsonNode scale = admin.get(STS + "/db/scale").json();
        assertThat(scale.path("kind").asText()).isEqualTo("Scale");
        assertThat(scale.at("/spec/replicas").asInt()).isEqualTo(2);
        assertThat(scale.at("/status/selector").asText()).isEqualTo("app=db");
        admin.send("PATCH", STS + "/db/scale", "application/merge-patch+json", "{\"spec\":{\"replicas\":4}}");
        assertThat(admin.get(STS + "/db").json().at("/spec/replicas").asInt()).isEqualTo(4);
    }

    @Test
    void eviction_deletes_the_pod_unless_the_eviction_policy_refuses() {
        ObjectNode pod = Fixtures.yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: db-0, namespace: default}\n"
                + "spec: {containers: [{name: db, image: 'postgres:16'}]}\n");
        ObjectNode pod1 = pod.deepCopy();
        pod1.withObject("/metadata").put("name", "db-1");
        sim.load(pod, pod1);
        String eviction = "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"db-0\",\"namespace\":\"default\"}}";
        SimClient.Answer ok = admin.send("POST", "/api/v1/namespaces/default/pods/db-0/eviction", "application/json", eviction);
        assertThat(ok.code()).isEqualTo(201);
        assertThat(admin.get("/api/v1/namespaces/default/pods/db-0").code()).isEqualTo(404);
        sim.registry().evictionPolicy((p, e) -> {
            throw ApiError.of(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.", null);
        });
        SimClient.Answer refused = admin.send("POST", "/api/v1/namespaces/default/pods/db-1/eviction", "application/json",
                eviction.replace("db-0", "db-1"));
        assertThat(refused.code()).isEqualTo(429);
        assertThat(admin.get("/api/v1/namespaces/default/pods/db-1").code()).isEqualTo(200);
    }

    @Test
    void creating_in_a_namespace_that_does_not_exist_is_404() {
        ObjectNode db = Fixtures.db();
        db.withObject("/metadata").put("namespace", "nowhere");
        SimClient.Answer a = admin.send("POST", "/apis/apps/v1/namespaces/nowhere/statefulsets", "application/json", db.toString());
        assertThat(a.code()).isEqualTo(404);
        assertThat(a.message()).isEqualTo("namespaces \"nowhere\" not found");
    }

    static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.path("items").forEach(i -> out.add(i.at("/metadata/name").asText()));
        return out;
    }
}
