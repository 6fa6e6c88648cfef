package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import dev.stsresize.sim.http.RecordedRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every request is recorded (in memory and as JSON lines); each fault class does what it says, and only when its rule fires. */
class FaultsAndRequestLogTest extends FreshSim {
    @TempDir
    Path dir;
    static final String CLAIMS = "/api/v1/namespaces/default/persistentvolumeclaims";

    @Override
    SimOptions options() {
        return SimOptions.defaults().withLogFile(dir.resolve("requests.jsonl"));
    }

    @BeforeEach
    void load() {
        sim.load(Fixtures.storageClass("expandable", true), Fixtures.boundClaim("data-db-0", "expandable", "1Gi", "1Gi"));
    }

    /** A NoClassDefFoundError from a jar missing a class answered a 200 with no body, and the request went unrecorded. */
    @Test
    void an_error_in_a_handler_is_the_500_of_a_recovered_panic_and_is_recorded() {
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: Service\nmetadata: {name: broken, namespace: default}\nspec: {ports: [{port: 80}]}\n"));
        sim.runBehindService("default", "broken", 80, (method, path, query, body) -> {
            throw new NoClassDefFoundError("io/kubernetes/client/proto/Runtime$1");
        });
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream logged = new java.io.ByteArrayOutputStream();
        SimClient.Answer a;
        System.setErr(new java.io.PrintStream(logged, true, StandardCharsets.UTF_8));
        try {
            a = admin.get("/api/v1/namespaces/default/services/broken:80/proxy/x");
        } finally {
            System.setErr(stderr);
        }
        assertThat(a.code()).isEqualTo(500);
        assertThat(a.body()).isEqualTo("This request caused apiserver to panic. Look in the logs for details.\n");
        assertThat(a.headers().get("Content-Type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(sim.requests().get(sim.requests().size() - 1).status()).isEqualTo(500);
        assertThat(logged.toString(StandardCharsets.UTF_8)).startsWith("apiserver panic'd on GET /api/v1/namespaces/default/services/"
                + "broken:80/proxy/x\njava.lang.NoClassDefFoundError: io/kubernetes/client/proto/Runtime$1\n");
    }

    @Test
    void every_request_is_recorded_with_method_path_query_body_status_and_user_and_written_as_json_lines() throws IOException {
        admin.get(CLAIMS + "?labelSelector=app%3Ddb");
        admin.send("PATCH", CLAIMS + "/data-db-0?fieldManager=stsresize", "application/merge-patch+json",
                "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
        List<RecordedRequest> all = sim.requests();
        assertThat(all).hasSize(2);
        assertThat(all.get(0).param("labelSelector")).isEqualTo("app=db");
        RecordedRequest patch = all.get(1);
        assertThat(patch.method()).isEqualTo("PATCH");
        assertThat(patch.contentType()).startsWith("application/merge-patch+json");
        assertThat(patch.body()).contains("2Gi");
        assertThat(patch.status()).isEqualTo(200);
        assertThat(patch.user()).isEqualTo("kubernetes-admin");
        assertThat(patch.verb()).isEqualTo("patch");
        assertThat(patch.param("fieldManager")).isEqualTo("stsresize");
        List<String> lines = Files.readAllLines(dir.resolve("requests.jsonl"));
        assertThat(lines).hasSize(2);
        assertThat(Reference.json(lines.get(1)).path("status").asInt()).isEqualTo(200);
        assertThat(sim.requests().stream().filter(RecordedRequest::isWrite)).hasSize(1);
    }

    @Test
    void a_status_fault_answers_any_code_with_a_status_body_and_retry_after_on_the_nth_occurrence_only() {
        FaultRule rule = sim.faults().add(FaultRule.onNth("get", "persistentvolumeclaims", "data-db-0", 2, Fault.tooManyRequests(3)));
        String path = CLAIMS + "/data-db-0";
        assertThat(admin.get(path).code()).isEqualTo(200);
        SimClient.Answer second = admin.get(path);
        assertThat(second.code()).isEqualTo(429);
        assertThat(second.headers().get("Retry-After")).isEqualTo("3");
        assertThat(second.json().path("kind").asText()).isEqualTo("Status");
        assertThat(second.json().path("reason").asText()).isEqualTo("TooManyRequests");
        assertThat(admin.get(path).code()).isEqualTo(200);
        assertThat(rule.fired()).isEqualTo(1);
        sim.faults().add(FaultRule.on("patch", "persistentvolumeclaims", null, Fault.status(503, "ServiceUnavailable", "etcd is down")));
        SimClient.Answer patch = admin.send("PATCH", path, "application/merge-patch+json", "{}");
        assertThat(patch.code()).isEqualTo(503);
        assertThat(patch.message()).isEqualTo("etcd is down");
        assertThat(sim.get("v1", "PersistentVolumeClaim", "default", "data-db-0").at("/spec/resources/requests/storage").asText())
                .as("a faulted write writes nothing").isEqualTo("1Gi");
    }

    @Test
    void added_latency_shows_in_the_recorded_duration() {
        sim.faults().add(FaultRule.on("list", "persistentvolumeclaims", null, Fault.latency(300)).times(1));
        admin.get(CLAIMS);
        admin.get(CLAIMS);
        List<RecordedRequest> r = sim.requests();
        assertThat(r.get(0).durationMillis()).isGreaterThanOrEqualTo(300);
        assertThat(r.get(0).status()).as("latency alone still answers").isEqualTo(200);
        assertThat(r.get(1).durationMillis()).as("times(1): only once").isLessThan(300);
    }

    @Test
    void a_dropped_connection_gives_the_client_an_io_error_and_no_answer() {
        sim.faults().add(FaultRule.on("get", "persistentvolumeclaims", "data-db-0", Fault.drop()).times(1));
        Request req = new Request.Builder().url(sim.url() + CLAIMS + "/data-db-0").header("Authorization", "Bearer " + sim.adminToken()).build();
        var noRetry = admin.api.getHttpClient().newBuilder().retryOnConnectionFailure(false).build();
        assertThatThrownBy(() -> noRetry.newCall(req).execute().close()).isInstanceOf(IOException.class);
        assertThat(admin.get(CLAIMS + "/data-db-0").code()).isEqualTo(200);
    }

    @Test
    void a_watch_can_be_cut_after_n_events() {
        for (int i = 0; i < 5; i++) {
            sim.load(Fixtures.pendingClaim("c" + i, "expandable", "1Gi"));
        }
        sim.faults().add(FaultRule.on("watch", "persistentvolumeclaims", null, Fault.cutWatchAfter(2)));
        Request req = new Request.Builder().url(sim.url() + CLAIMS + "?watch=true").header("Authorization", "Bearer " + sim.adminToken()).build();
        List<String> lines = new ArrayList<>();
        try (Response r = admin.api.getHttpClient().newCall(req).execute();
                BufferedReader in = new BufferedReader(new InputStreamReader(r.body().byteStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(lines).hasSize(2);
    }

    @Test
    void a_seeded_probability_fires_the_same_requests_each_run() {
        List<Integer> first = codesWithProbability(42);
        List<Integer> again = codesWithProbability(42);
        assertThat(first).isEqualTo(again);
        assertThat(first).contains(500, 200);
    }

    private List<Integer> codesWithProbability(long seed) {
        sim.faults().clear();
        sim.faults().add(FaultRule.withProbability("get", "persistentvolumeclaims", null, 0.5, seed,
                Fault.status(500, "InternalError", "boom")));
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            codes.add(admin.get(CLAIMS + "/data-db-0").code());
        }
        return codes;
    }

    @Test
    void a_test_can_assert_that_no_write_was_made_and_that_deletes_carried_orphan_and_a_uid() {
        admin.get(CLAIMS);
        assertThat(sim.requests()).noneMatch(RecordedRequest::isWrite);
        sim.load(Fixtures.db());
        String uid = sim.get("apps/v1", "StatefulSet", "default", "db").at("/metadata/uid").asText();
        admin.send("DELETE", "/apis/apps/v1/namespaces/default/statefulsets/db", "application/json",
                "{\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"" + uid + "\"}}");
        assertThat(sim.requests().stream().filter(r -> r.method().equals("DELETE"))).allSatisfy(r -> {
            JsonNode body = Reference.json(r.body());
            assertThat(body.path("propagationPolicy").asText()).isEqualTo("Orphan");
            assertThat(body.at("/preconditions/uid").asText()).isEqualTo(uid);
        });
    }
}
