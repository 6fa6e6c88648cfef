package dev.stsresize.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What usage costs the simulated cluster at the scale: 6,000 Running pods with a Bound claim each
 * on 200 nodes; one summary request per node, all at once, and the three Prometheus queries. Prints figures,
 * asserts nothing about time ({@code mvn -B test -pl kube-sim -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=UsageBenchmark}).
 */
@Tag("bench")
class UsageBenchmark {
    @Test
    void summaries_of_200_nodes_and_the_prometheus_queries() throws Exception {
        try (SimCluster sim = SimCluster.start()) {
            List<ObjectNode> objects = new ArrayList<>();
            for (int i = 0; i < 6000; i++) {
                String claim = "data-s" + (i / 3) + "-" + (i % 3);
                objects.add((ObjectNode) Fixtures.boundClaim(claim, "fast", "10Gi", "10Gi").set("metadata",
                        Fixtures.yaml("{name: " + claim + ", namespace: ns" + (i % 20) + "}")));
                objects.add((ObjectNode) KubeletSummaryTest.pod("s" + (i / 3) + "-" + (i % 3), "node-" + (i % 200), "Running", claim, false)
                        .set("metadata", Fixtures.yaml("{name: s" + (i / 3) + "-" + (i % 3) + ", namespace: ns" + (i % 20) + "}")));
            }
            sim.load(objects.toArray(ObjectNode[]::new));
            HttpClient client = HttpClient.newBuilder().sslContext(sim.clientTls()).build();
            for (int round = 1; round <= 3; round++) {
                long t0 = System.nanoTime();
                List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
                for (int n = 0; n < 200; n++) {
                    all.add(client.sendAsync(HttpRequest.newBuilder(URI.create(sim.url() + "/api/v1/nodes/node-" + n + "/proxy/stats/summary"))
                            .header("Authorization", "Bearer " + sim.adminToken()).build(), HttpResponse.BodyHandlers.ofString()));
                }
                long bytes = 0;
                for (var f : all) {
                    HttpResponse<String> r = f.join();
                    if (r.statusCode() != 200) {
                        throw new AssertionError(r.body());
                    }
                    bytes += r.body().length();
                }
                System.out.printf("round %d: 200 summaries (6,000 pods) at once in %d ms, %d kB%n", round,
                        (System.nanoTime() - t0) / 1_000_000, bytes / 1024);
                HttpClient plain = HttpClient.newHttpClient();
                String ns = "ns0|ns1|ns2|ns3|ns4|ns5|ns6|ns7|ns8|ns9|ns10|ns11|ns12|ns13|ns14|ns15|ns16|ns17|ns18|ns19";
                for (String q : List.of("kubelet_volume_stats_used_bytes{namespace=~\"" + ns + "\"}",
                        "kubelet_volume_stats_capacity_bytes{namespace=~\"" + ns + "\"}",
                        "deriv(kubelet_volume_stats_used_bytes{namespace=~\"" + ns + "\"}[6h])")) {
                    long q0 = System.nanoTime();
                    HttpResponse<String> r = plain.send(HttpRequest.newBuilder(URI.create(sim.prometheusUrl() + "/api/v1/query?query="
                            + URLEncoder.encode(q, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
                    System.out.printf("round %d: %s -> %d, %d kB in %d ms%n", round, q.substring(0, Math.min(40, q.length())), r.statusCode(),
                            r.body().length() / 1024, (System.nanoTime() - q0) / 1_000_000);
                }
            }
        }
    }
}
