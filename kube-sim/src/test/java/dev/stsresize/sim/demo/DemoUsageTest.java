package dev.stsresize.sim.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.SimCluster;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The demo's incident: payments/ledger 92 % full and filling in hours, the others quiet, a quota with room, Prometheus in the cluster. */
class DemoUsageTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void ledger_is_92_percent_full_and_fills_in_hours_the_others_are_low() throws Exception {
        try (SimCluster sim = SimCluster.start()) {
            sim.usage().useClock(Clock.fixed(Instant.parse("2026-12-03T20:00:00Z"), ZoneOffset.UTC));
            sim.load(DemoScenario.cluster().toArray(new ObjectNode[0]));
            HttpClient client = HttpClient.newBuilder().sslContext(sim.clientTls()).build();
            JsonNode used = query(client, sim, "kubelet_volume_stats_used_bytes{namespace=~\"shop|analytics|legacy|payments\"}");
            JsonNode capacity = query(client, sim, "kubelet_volume_stats_capacity_bytes{namespace=~\"shop|analytics|legacy|payments\"}");
            JsonNode available = query(client, sim, "kubelet_volume_stats_available_bytes{namespace=~\"shop|analytics|legacy|payments\"}");
            JsonNode rate = query(client, sim, "deriv(kubelet_volume_stats_used_bytes{namespace=~\"payments\"}[6h])");
            assertThat(used.size()).as("one series per mounted claim").isEqualTo(capacity.size()).isGreaterThan(20);
            for (JsonNode s : used) {
                String claim = s.at("/metric/persistentvolumeclaim").asText();
                double fraction = s.at("/value/1").asDouble() / value(capacity, claim);
                // the alert's measure (KubePersistentVolumeFillingUp): ext4's 5 % reserve counts as unavailable
                double alert = 1 - value(available, claim) / value(capacity, claim);
                if (claim.equals("data-ledger-0")) {
                    assertThat(alert).isCloseTo(0.92, org.assertj.core.data.Offset.offset(0.001));
                    assertThat(fraction).isCloseTo(0.87, org.assertj.core.data.Offset.offset(0.001));
                } else if (claim.startsWith("data-ledger-")) {
                    assertThat(alert).isBetween(0.88, 0.91);
                } else {
                    assertThat(fraction).as(claim + " is quiet").isBetween(0.10, 0.55);
                }
            }
            double hoursToFull = value(available, "data-ledger-0") / value(rate, "data-ledger-0") / 3600;
            assertThat(hoursToFull).as("fills in a few hours").isBetween(2.5, 4.0);

            JsonNode summary = get(client, sim, "/api/v1/nodes/demo-node-0/proxy/stats/summary");
            assertThat(summary.path("pods").findValuesAsText("name")).contains("ledger-0", "data-ledger-0");
            JsonNode quota = get(client, sim, "/api/v1/namespaces/payments/resourcequotas/storage");
            assertThat(quota.at("/spec/hard/requests.storage").asText()).isEqualTo("60Gi");
            assertThat(DemoScenario.manifest()).filteredOn(o -> o.at("/metadata/name").asText().equals("ledger")).singleElement()
                    .satisfies(o -> assertThat(o.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText())
                            .as("the manifest keeps the live size: the operator raises it").isEqualTo("10Gi"));
        }
    }

    static double value(JsonNode result, String claim) {
        for (JsonNode s : result) {
            if (s.at("/metric/persistentvolumeclaim").asText().equals(claim)) {
                return s.at("/value/1").asDouble();
            }
        }
        throw new AssertionError("no series for " + claim + " in " + result);
    }

    static JsonNode query(HttpClient client, SimCluster sim, String q) throws Exception {
        return get(client, sim, "/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy/api/v1/query?query="
                + URLEncoder.encode(q, StandardCharsets.UTF_8)).at("/data/result");
    }

    static JsonNode get(HttpClient client, SimCluster sim, String path) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(sim.url() + path))
                .header("Authorization", "Bearer " + sim.adminToken()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }
}
