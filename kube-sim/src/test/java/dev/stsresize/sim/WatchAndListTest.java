package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Watch streams (initial state, replay, bookmarks, timeouts, 410) and list selectors and paging. */
class WatchAndListTest {
    SimCluster sim;
    SimClient client;
    static final String PODS = "/api/v1/namespaces/default/pods";

    @BeforeEach
    void start() {
        sim = SimCluster.start(SimOptions.defaults().withHistoryLimit(20).withBookmarkMillis(50));
        client = SimClient.admin(sim);
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    ObjectNode pod(String name, String labels) {
        return Fixtures.yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: default, labels: " + labels + "}\n"
                + "spec: {containers: [{name: c, image: 'busybox:1'}]}\n");
    }

    /** Reads a watch until it ends or {@code max} events came; each line one JSON event. */
    List<JsonNode> watch(String pathAndQuery, int max) {
        Request req = new Request.Builder().url(sim.url() + pathAndQuery).header("Authorization", "Bearer " + sim.adminToken()).build();
        List<JsonNode> events = new ArrayList<>();
        try (Response r = client.api.getHttpClient().newCall(req).execute();
                BufferedReader in = new BufferedReader(new InputStreamReader(r.body().byteStream(), StandardCharsets.UTF_8))) {
            String line;
            while (events.size() < max && (line = in.readLine()) != null) {
                events.add(Reference.json(line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return events;
    }

    @Test
    void a_watch_with_nothing_to_send_answers_its_headers_at_once_over_http_2() throws IOException {
        String rv = client.get(PODS).json().at("/metadata/resourceVersion").asText();
        Request req = new Request.Builder().url(sim.url() + PODS + "?watch=true&timeoutSeconds=30&resourceVersion=" + rv)
                .header("Authorization", "Bearer " + sim.adminToken()).build();
        // no event, no bookmark asked for: only the flush after WriteHeader gets the answer out before 30 s
        var call = client.api.getHttpClient().newBuilder().callTimeout(java.time.Duration.ofSeconds(5)).build().newCall(req);
        try (Response r = call.execute()) {
            assertThat(r.code()).isEqualTo(200);
            assertThat(r.protocol()).isEqualTo(okhttp3.Protocol.HTTP_2);
        }
    }

    static List<String> types(List<JsonNode> events) {
        return events.stream().map(e -> e.path("type").asText()).toList();
    }

    /** responsewriters/writers.go: over 128 KiB and asked for, the answer goes gzipped; below it, or not asked, plain. */
    @Test
    void a_list_over_128_kib_goes_gzipped_to_a_client_that_accepts_gzip() throws IOException {
        sim.load(pod("small", "{app: db}"));
        assertThat(encoding(PODS, "gzip")).as("below the threshold").isEmpty();
        List<ObjectNode> many = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            many.add(pod("p-" + i, "{app: db, note: '" + "x".repeat(300) + "'}"));
        }
        sim.load(many.toArray(ObjectNode[]::new));
        assertThat(encoding(PODS, "gzip")).isEqualTo("gzip");
        assertThat(encoding(PODS, "identity")).as("not asked").isEmpty();
        Request req = new Request.Builder().url(sim.url() + PODS).header("Authorization", "Bearer " + sim.adminToken())
                .header("Accept-Encoding", "gzip").build();
        try (Response r = client.api.getHttpClient().newCall(req).execute();
                java.io.InputStream in = new java.util.zip.GZIPInputStream(r.body().byteStream())) {
            assertThat(Reference.json(new String(in.readAllBytes(), StandardCharsets.UTF_8)).path("items")).hasSize(401);
        }
    }

    /** Answers kept per resourceVersion (ListAnswers): the same bytes plain and gzipped, and every write seen at once. */
    @Test
    void a_list_answer_kept_for_its_resource_version_is_the_same_plain_or_gzipped_and_changes_with_every_write() throws IOException {
        List<ObjectNode> many = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            ObjectNode p = pod("p-" + i, "{app: db}");
            ((ObjectNode) p.path("metadata")).putObject("annotations").put("note", "x".repeat(300)); // past 128 KiB: gzipped
            many.add(p);
        }
        sim.load(many.toArray(ObjectNode[]::new));
        String first = body(PODS, "identity");
        assertThat(body(PODS, "identity")).isEqualTo(first);
        assertThat(body(PODS, "gzip")).isEqualTo(first);
        assertThat(Reference.json(body(PODS + "?labelSelector=app%3Dweb", "gzip")).path("items")).as("another selector, another answer")
                .isEmpty();
        assertThat(client.send("PATCH", PODS + "/p-7", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}")
                .code()).isEqualTo(200);
        String afterPatch = body(PODS, "gzip");
        JsonNode list = Reference.json(afterPatch);
        assertThat(list.at("/metadata/resourceVersion").asLong()).isGreaterThan(Reference.json(first).at("/metadata/resourceVersion").asLong());
        JsonNode p7 = null;
        for (JsonNode item : list.path("items")) {
            p7 = item.at("/metadata/name").asText().equals("p-7") ? item : p7;
        }
        assertThat(p7.at("/metadata/labels/x").asText()).as("the write is in the next answer").isEqualTo("1");
        assertThat(body(PODS, "identity")).isEqualTo(afterPatch);
        client.send("DELETE", PODS + "/p-7", null, null);
        assertThat(Reference.json(body(PODS, "gzip")).path("items")).hasSize(399);
        assertThat(Reference.json(body(PODS + "?labelSelector=x%3D1", "identity")).path("items")).isEmpty();
    }

    /** The body of GET {@code path} with this Accept-Encoding, gunzipped when it came gzipped. */
    String body(String path, String acceptEncoding) throws IOException {
        Request req = new Request.Builder().url(sim.url() + path).header("Authorization", "Bearer " + sim.adminToken())
                .header("Accept-Encoding", acceptEncoding).build();
        try (Response r = client.api.getHttpClient().newCall(req).execute()) {
            byte[] raw = r.body().bytes();
            if (r.header("Content-Encoding", "").equals("gzip")) {
                raw = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(raw)).readAllBytes();
            }
            return new String(raw, StandardCharsets.UTF_8);
        }
    }

    /** The Content-Encoding of an answer to GET {@code path} with this Accept-Encoding ("" when none). */
    String encoding(String path, String acceptEncoding) throws IOException {
        Request req = new Request.Builder().url(sim.url() + path).header("Authorization", "Bearer " + sim.adminToken())
                .header("Accept-Encoding", acceptEncoding).build();
        try (Response r = client.api.getHttpClient().newCall(req).execute()) {
            return r.header("Content-Encoding", "");
        }
    }

    @Test
    void a_watch_without_resource_version_starts_with_the_current_objects_as_added() {
        sim.load(pod("a", "{app: db}"), pod("b", "{app: web}"));
        List<JsonNode> events = watch(PODS + "?watch=true&timeoutSeconds=1&labelSelector=app%3Ddb", 10);
        assertThat(types(events)).containsExactly("ADDED");
        assertThat(events.get(0).at("/object/metadata/name").asText()).isEqualTo("a");
    }

    @Test
    void a_watch_from_a_resource_version_replays_what_came_after_it_in_order() {
        sim.load(pod("a", "{app: db}"));
        String rv = client.get(PODS).json().at("/metadata/resourceVersion").asText();
        client.send("PATCH", PODS + "/a", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}");
        client.send("DELETE", PODS + "/a", null, null);
        List<JsonNode> events = watch(PODS + "?watch=true&timeoutSeconds=1&resourceVersion=" + rv, 10);
        assertThat(types(events)).containsExactly("MODIFIED", "DELETED");
        long modified = events.get(0).at("/object/metadata/resourceVersion").asLong();
        long deleted = events.get(1).at("/object/metadata/resourceVersion").asLong();
        assertThat(modified).isGreaterThan(Long.parseLong(rv));
        assertThat(deleted).isGreaterThan(modified);
    }

    @Test
    void a_filtered_watch_sees_objects_entering_the_selector_as_added_and_leaving_it_as_deleted() {
        sim.load(pod("a", "{app: db}"), pod("b", "{app: web}"));
        String rv = client.get(PODS).json().at("/metadata/resourceVersion").asText();
        client.send("PATCH", PODS + "/b", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"app\":\"db\"}}}");
        client.send("PATCH", PODS + "/a", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"app\":\"gone\"}}}");
        client.send("PATCH", PODS + "/a", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}");
        List<JsonNode> events = watch(PODS + "?watch=true&timeoutSeconds=1&labelSelector=app%3Ddb&resourceVersion=" + rv, 10);
        assertThat(types(events)).containsExactly("ADDED", "DELETED");
        assertThat(events.get(0).at("/object/metadata/name").asText()).isEqualTo("b");
        assertThat(events.get(1).at("/object/metadata/name").asText()).isEqualTo("a");
    }

    @Test
    void bookmarks_come_only_when_asked_and_carry_a_resource_version() {
        sim.load(pod("a", "{app: db}"));
        String rv = client.get(PODS).json().at("/metadata/resourceVersion").asText();
        List<JsonNode> withBookmarks = watch(PODS + "?watch=true&allowWatchBookmarks=true&resourceVersion=" + rv, 1);
        assertThat(types(withBookmarks)).containsExactly("BOOKMARK");
        assertThat(withBookmarks.get(0).at("/object/metadata/resourceVersion").asText()).isEqualTo(rv);
        assertThat(withBookmarks.get(0).at("/object/kind").asText()).isEqualTo("Pod");
        List<JsonNode> without = watch(PODS + "?watch=true&timeoutSeconds=1&resourceVersion=" + rv, 5);
        assertThat(without).as("negative control: no bookmark unless allowWatchBookmarks").isEmpty();
    }

    @Test
    void a_resource_version_older_than_the_history_gets_the_410_expired_error_event() {
        for (int i = 0; i < 30; i++) {
            sim.load(pod("p" + i, "{app: db}"));
        }
        List<JsonNode> events = watch(PODS + "?watch=true&resourceVersion=1001", 5);
        assertThat(types(events)).containsExactly("ERROR");
        JsonNode status = events.get(0).path("object");
        assertThat(status.path("code").asInt()).isEqualTo(410);
        assertThat(status.path("reason").asText()).isEqualTo("Expired");
        assertThat(status.path("message").asText()).startsWith("too old resource version: 1001 (");
    }

    @Test
    void label_selectors_equality_and_set_based_and_field_selectors_filter_lists() {
        sim.load(pod("a", "{app: db, tier: data}"), pod("b", "{app: web}"), pod("c", "{app: cache, tier: data}"));
        assertThat(names("labelSelector=app%3Ddb")).containsExactly("a");
        assertThat(names("labelSelector=app!%3Ddb")).containsExactly("b", "c");
        assertThat(names("labelSelector=app%20in%20(db,cache)")).containsExactly("a", "c");
        assertThat(names("labelSelector=app%20notin%20(db)")).containsExactly("b", "c");
        assertThat(names("labelSelector=tier")).containsExactly("a", "c");
        assertThat(names("labelSelector=!tier")).containsExactly("b");
        assertThat(names("labelSelector=tier,app%3Dcache")).containsExactly("c");
        assertThat(names("fieldSelector=metadata.name%3Db")).containsExactly("b");
        assertThat(names("fieldSelector=metadata.namespace%3Ddefault")).containsExactly("a", "b", "c");
        assertThat(names("fieldSelector=metadata.name!%3Db")).containsExactly("a", "c");
        assertThat(client.get("/apis/apps/v1/statefulsets?fieldSelector=spec.foo%3Dx").code()).isEqualTo(400);
    }

    @Test
    void limit_and_continue_page_through_every_item_once() {
        for (int i = 0; i < 7; i++) {
            sim.load(pod("p" + i, "{app: db}"));
        }
        List<String> seen = new ArrayList<>();
        String cont = "";
        int pages = 0;
        do {
            JsonNode page = client.get(PODS + "?limit=3" + (cont.isEmpty() ? "" : "&continue=" + cont)).json();
            page.path("items").forEach(i -> seen.add(i.at("/metadata/name").asText()));
            cont = page.at("/metadata/continue").asText("");
            if (!cont.isEmpty()) {
                assertThat(page.at("/metadata/remainingItemCount").asLong()).isEqualTo(7 - seen.size());
            }
            pages++;
        } while (!cont.isEmpty());
        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactly("p0", "p1", "p2", "p3", "p4", "p5", "p6");
    }

    @Test
    void list_items_omit_kind_and_api_version_like_typed_lists() {
        sim.load(pod("a", "{app: db}"));
        JsonNode list = client.get(PODS).json();
        assertThat(list.path("kind").asText()).isEqualTo("PodList");
        assertThat(list.at("/items/0").has("kind")).isFalse();
    }

    List<String> names(String query) {
        JsonNode list = client.get(PODS + "?" + query).json();
        return StoreSemanticsTest.names(list);
    }
}
