package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Watches through the port: the events in order, bookmarks skipped, a watch resumed from where it ended. */
class KubeClusterWatchTest extends OnAFakeServer {
    KubeClusterWatchTest() {
        super("s3cret");
    }

    @Test
    void watchDeliversEventsSkipsBookmarksAndRemembersWhereItWas() {
        server.on("GET", "/apis/apps/v1/namespaces/default/statefulsets", Answer.stream(
                "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"db\",\"resourceVersion\":\"11\",\"finalizers\":[\"orphan\"]},\"spec\":{\"someFutureField\":1}}}",
                "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"StatefulSet\",\"metadata\":{\"resourceVersion\":\"15\"}}}",
                "{\"type\":\"DELETED\",\"object\":{\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"db\",\"resourceVersion\":\"17\"}}}"));

        try (ObjectWatch watch = cluster.watch(WatchedKind.STATEFUL_SET, "default", "db", "10")) {
            WatchEvent first = watch.next().orElseThrow();
            assertThat(first.type()).isEqualTo("MODIFIED");
            assertThat(first.object().at("/spec/someFutureField").asInt()).isEqualTo(1);
            WatchEvent second = watch.next().orElseThrow();
            assertThat(second.isDeleted()).isTrue();
            assertThat(watch.lastResourceVersion()).isEqualTo("17");
            assertThat(watch.next()).isEmpty();
        }
        assertThat(server.last().query()).isEqualTo("fieldSelector=metadata.name%3Ddb&watch=true"
                + "&allowWatchBookmarks=true&timeoutSeconds=300&resourceVersion=10");
    }

    @Test
    void aWatchThatEndsIsResumedFromItsLastResourceVersion() {
        server.on("GET", "/api/v1/namespaces/default/persistentvolumeclaims", r -> r.query().endsWith("resourceVersion=5")
                ? Answer.stream("{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"data-db-0\",\"resourceVersion\":\"6\"}}}")
                : Answer.stream("{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"data-db-0\",\"resourceVersion\":\"7\"},"
                        + "\"status\":{\"capacity\":{\"storage\":\"20Gi\"}}}}"));

        String resumeFrom;
        try (ObjectWatch watch = cluster.watch(WatchedKind.PERSISTENT_VOLUME_CLAIM, "default", "data-db-0", "5")) {
            assertThat(watch.next()).isPresent();
            assertThat(watch.next()).isEmpty();
            resumeFrom = watch.lastResourceVersion();
        }
        try (ObjectWatch watch = cluster.watch(WatchedKind.PERSISTENT_VOLUME_CLAIM, "default", "data-db-0", resumeFrom)) {
            assertThat(watch.next().orElseThrow().object().at("/status/capacity/storage").asText()).isEqualTo("20Gi");
        }
        assertThat(server.last().query()).endsWith("resourceVersion=6");
    }

    @Test
    void aTooOldResourceVersionEndsTheWatchWith410() {
        server.on("GET", "/api/v1/namespaces/default/pods", Answer.stream(
                "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"too old resource version: 1 (4711)\",\"reason\":\"Expired\",\"code\":410}}"));

        try (ObjectWatch watch = cluster.watch(WatchedKind.POD, "default", "db-0", "1")) {
            assertThatThrownBy(watch::next).isInstanceOfSatisfying(ClusterException.class, e -> {
                assertThat(e.code()).isEqualTo(410);
                assertThat(e.getMessage()).isEqualTo("too old resource version: 1 (4711)");
            });
        }
    }

    @Test
    void aWatchWhoseConnectionDropsMidStreamEndsAndKeepsItsLastResourceVersion() throws Exception {
        // a raw socket: HttpServer cannot cut a chunked response short the way a dying proxy does
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread serve = new Thread(() -> {
                try (java.net.Socket s = socket.accept()) {
                    java.io.BufferedReader in = new java.io.BufferedReader(
                            new java.io.InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                    while (!in.readLine().isEmpty()) {
                        // request headers
                    }
                    String event = "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"db\",\"resourceVersion\":\"21\"}}}\n";
                    byte[] bytes = event.getBytes(StandardCharsets.UTF_8);
                    s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(bytes.length) + "\r\n")
                            .getBytes(StandardCharsets.UTF_8));
                    s.getOutputStream().write(bytes);
                    s.getOutputStream().write("\r\n".getBytes(StandardCharsets.UTF_8));
                    s.getOutputStream().flush();
                    // then the connection dies: no last chunk
                } catch (IOException ignored) {
                    // the test's assertions report what matters
                }
            });
            serve.start();
            String url = "http://127.0.0.1:" + socket.getLocalPort();
            Cluster dropping = Kubeconfigs.tokenCluster(home, url, "t");

            try (ObjectWatch watch = dropping.watch(WatchedKind.STATEFUL_SET, "default", "db", "20")) {
                assertThat(watch.next()).isPresent();
                assertThat(watch.next()).isEmpty();
                assertThat(watch.lastResourceVersion()).isEqualTo("21");
            }
            serve.join();
        }
    }
}
