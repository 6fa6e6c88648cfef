package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.usage.Growth;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulated Prometheus: the plugin's three queries on its own plain-HTTP URL and through the API
 * server's service proxy, values from the same usage model as the summary API, and bad_data for the rest.
 */
class PrometheusTest extends FreshSim {
    static final long GI = 1024L * 1024 * 1024;
    static final Instant T0 = Instant.parse("2026-12-03T20:00:00Z");
    static final String USED = "kubelet_volume_stats_used_bytes{namespace=~\"default|shop\"}";
    static final String CAPACITY = "kubelet_volume_stats_capacity_bytes{namespace=~\"default|shop\"}";
    static final String DERIV = "deriv(kubelet_volume_stats_used_bytes{namespace=~\"default|shop\"}[6h])";
    static final String PROXY = "/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy";
    static final ObjectMapper JSON = new ObjectMapper();
    /** 100 KiB/s: 6 h of history (2.1 GiB) fit below the 5 GiB used at T0, so the whole window grows. */
    static final long RATE = 100 * 1024;

    final HttpClient plain = HttpClient.newHttpClient();

    @BeforeEach
    void load() {
        sim.usage().useClock(Clock.fixed(T0, ZoneOffset.UTC));
        sim.load(Fixtures.boundClaim("data-db-0", "expandable", "10Gi", "10Gi"),
                (ObjectNode) Fixtures.boundClaim("data-db-1", "expandable", "20Gi", "20Gi").set("metadata",
                        Fixtures.yaml("{name: data-db-1, namespace: shop}")),
                KubeletSummaryTest.pod("db-0", "node-a", "Running", "data-db-0", false),
                (ObjectNode) KubeletSummaryTest.pod("db-1", "node-b", "Running", "data-db-1", false).set("metadata",
                        Fixtures.yaml("{name: db-1, namespace: shop, uid: uid-db-1}")),
                Fixtures.yaml("apiVersion: v1\nkind: Service\nmetadata: {name: prometheus-k8s, namespace: monitoring}\n"
                        + "spec: {ports: [{name: web, port: 9090, targetPort: web}], selector: {app.kubernetes.io/name: prometheus}}\n"));
        sim.usage().set("default", "data-db-0", Growth.fraction(0.5, RATE)).set("shop", "data-db-1", Growth.bytes(GI, 0));
    }

    static String q(String query) {
        return "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
    }

    HttpResponse<String> direct(String pathAndQuery) throws Exception {
        return plain.send(HttpRequest.newBuilder(URI.create(sim.prometheusUrl() + pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode result(String query) throws Exception {
        HttpResponse<String> r = direct(q(query));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.path("status").asText()).isEqualTo("success");
        assertThat(body.at("/data/resultType").asText()).isEqualTo("vector");
        return body.at("/data/result");
    }

    static JsonNode of(JsonNode result, String claim) {
        for (JsonNode s : result) {
            if (s.at("/metric/persistentvolumeclaim").asText().equals(claim)) {
                return s;
            }
        }
        return null;
    }

    @Test
    void used_and_capacity_are_the_summarys_figures_with_the_kubelet_series_labels() throws Exception {
        JsonNode used = result(USED);
        assertThat(used).hasSize(2);
        assertThat(of(used, "data-db-0").toString()).isEqualTo("{\"metric\":{\"__name__\":\"kubelet_volume_stats_used_bytes\","
                + "\"endpoint\":\"https-metrics\",\"instance\":\"10.0.0.7:10250\",\"job\":\"kubelet\",\"metrics_path\":\"/metrics\","
                + "\"namespace\":\"default\",\"node\":\"node-a\",\"persistentvolumeclaim\":\"data-db-0\",\"service\":\"kubelet\"},"
                + "\"value\":[" + T0.getEpochSecond() + ",\"" + 5 * GI + "\"]}");
        assertThat(of(used, "data-db-1").at("/value/1").asText()).isEqualTo(Long.toString(GI));
        JsonNode summaryVolume = KubeletSummaryTest.volume(admin.get("/api/v1/nodes/node-a/proxy/stats/summary").json(), "db-0", "data");
        assertThat(of(used, "data-db-0").at("/value/1").asLong()).as("the same model as the summary API")
                .isEqualTo(summaryVolume.path("usedBytes").asLong());
        JsonNode capacity = result(CAPACITY);
        assertThat(of(capacity, "data-db-0").at("/value/1").asText()).isEqualTo(Long.toString(10 * GI));
        assertThat(of(capacity, "data-db-1").at("/value/1").asText()).isEqualTo(Long.toString(20 * GI));
        assertThat(result("kubelet_volume_stats_used_bytes{namespace=~\"shop\"}")).as("the namespace matcher selects").hasSize(1);
        assertThat(result("kubelet_volume_stats_used_bytes{namespace=\"default\",persistentvolumeclaim!=\"data-db-0\"}")).isEmpty();
        assertThat(result("up")).as("an unknown metric is an empty vector, as in Prometheus").isEmpty();
    }

    @Test
    void deriv_is_the_models_rate_without_the_metric_name_and_zero_once_full() throws Exception {
        JsonNode deriv = result(DERIV);
        assertThat(of(deriv, "data-db-0").path("metric").has("__name__")).isFalse();
        assertThat(of(deriv, "data-db-0").at("/value/1").asText()).isEqualTo(Long.toString(RATE));
        assertThat(of(deriv, "data-db-1").at("/value/1").asText()).isEqualTo("0");
        sim.usage().advance(Duration.ofDays(1));
        assertThat(of(result(DERIV), "data-db-0").at("/value/1").asText()).as("full for the whole window: no growth").isEqualTo("0");
        assertThat(of(result(USED), "data-db-0").at("/value/1").asLong()).as("writes refused at the 5 % reserve").isEqualTo(10 * GI - GI / 2);
    }

    @Test
    void available_is_the_summarys_below_capacity_minus_used_and_a_volume_without_stats_has_no_series() throws Exception {
        JsonNode available = result("kubelet_volume_stats_available_bytes");
        JsonNode summaryVolume = KubeletSummaryTest.volume(admin.get("/api/v1/nodes/node-a/proxy/stats/summary").json(), "db-0", "data");
        assertThat(of(available, "data-db-0").at("/value/1").asLong()).isEqualTo(summaryVolume.path("availableBytes").asLong())
                .isEqualTo(10 * GI - 5 * GI - GI / 2);
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-data-db-0}\n"
                + "spec: {capacity: {storage: 10Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /var/local/db-0}}\nstatus: {phase: Bound}\n"));
        assertThat(of(result("kubelet_volume_stats_available_bytes"), "data-db-0")).as("the kubelet exports what it measures only").isNull();
    }

    @Test
    void the_time_parameter_evaluates_at_that_time() throws Exception {
        long at = T0.getEpochSecond() + 60;
        String body = direct(q(USED) + "&time=" + at + ".5").body();
        assertThat(body).as("jsonutil.MarshalTimestamp: three digits of milliseconds").contains("\"value\":[" + at + ".500,");
        JsonNode later = JSON.readTree(body).at("/data/result");
        assertThat(of(later, "data-db-0").at("/value/1").asLong()).as("the last scrape, at +60 s").isEqualTo(5 * GI + 60 * RATE);
    }

    @Test
    void the_same_answers_come_through_the_api_servers_service_proxy() throws Exception {
        SimClient.Answer viaProxy = admin.get(PROXY + q(DERIV));
        assertThat(viaProxy.code()).isEqualTo(200);
        assertThat(viaProxy.headers().get("Content-Type")).isEqualTo("application/json");
        assertThat(viaProxy.body()).isEqualTo(direct(q(DERIV)).body());
        assertThat(admin.get("/api/v1/namespaces/monitoring/services/prometheus-k8s:web/proxy" + q(USED)).code())
                .as("the port by its name").isEqualTo(200);
        assertThat(sim.requests().get(sim.requests().size() - 1).resource()).isEqualTo("services/proxy");
    }

    @Test
    void the_service_proxy_is_authorized_as_get_services_slash_proxy_and_answers_the_registrys_errors() {
        SimClient.Answer denied = new SimClient(sim, sim.tokenFor("prod", "viewer")).get(PROXY + q(USED));
        assertThat(denied.code()).isEqualTo(403);
        assertThat(denied.message()).isEqualTo("services \"prometheus-k8s:9090\" is forbidden: User \"system:serviceaccount:prod:viewer\" "
                + "cannot get resource \"services/proxy\" in API group \"\" in the namespace \"monitoring\"");
        SimClient.Answer noService = admin.get("/api/v1/namespaces/monitoring/services/thanos:9090/proxy" + q(USED));
        assertThat(noService.code()).isEqualTo(404);
        assertThat(noService.message()).isEqualTo("services \"thanos\" not found");
        SimClient.Answer noPort = admin.get("/api/v1/namespaces/monitoring/services/prometheus-k8s:9091/proxy" + q(USED));
        assertThat(noPort.code()).isEqualTo(503);
        assertThat(noPort.message()).isEqualTo("no service port \"9091\" found for service \"prometheus-k8s\"");
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: Service\nmetadata: {name: grafana, namespace: monitoring}\nspec: {ports: [{port: 3000}]}\n"));
        SimClient.Answer nothingBehind = admin.get("/api/v1/namespaces/monitoring/services/grafana:3000/proxy/api/health");
        assertThat(nothingBehind.code()).isEqualTo(503);
        assertThat(nothingBehind.json().path("reason").asText()).isEqualTo("ServiceUnavailable");
        assertThat(nothingBehind.message()).isEqualTo("no endpoints available for service \"grafana\"");
    }

    @Test
    void anything_else_is_prometheus_bad_data() throws Exception {
        HttpResponse<String> rate = direct(q("rate(kubelet_volume_stats_used_bytes[5m])"));
        assertThat(rate.statusCode()).isEqualTo(400);
        assertThat(rate.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(rate.body()).isEqualTo("{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\": "
                + "1:5: parse error: function rate() is not served; only deriv(metric{…}[range])\"}");
        assertThat(JSON.readTree(direct("/api/v1/query").body()).path("error").asText())
                .isEqualTo("invalid parameter \"query\": 1:1: parse error: no expression found in input");
        assertThat(JSON.readTree(direct(q("deriv(kubelet_volume_stats_used_bytes[6x])")).body()).path("error").asText())
                .isEqualTo("invalid parameter \"query\": 1:41: parse error: bad duration syntax: \"6x\"");
        assertThat(JSON.readTree(direct(q("kubelet_volume_stats_used_bytes{namespace=~\"(\"}")).body()).path("errorType").asText())
                .isEqualTo("bad_data");
        assertThat(JSON.readTree(direct(q(USED) + "&time=yesterday").body()).path("error").asText())
                .isEqualTo("invalid parameter \"time\": cannot parse \"yesterday\" to a valid timestamp");
        HttpResponse<String> other = direct("/api/v1/query_range?query=up");
        assertThat(other.statusCode()).isEqualTo(404);
        assertThat(other.body()).isEqualTo("404 page not found\n");
    }

    @Test
    void a_post_form_is_read_as_prometheus_reads_it() throws Exception {
        HttpResponse<String> r = plain.send(HttpRequest.newBuilder(URI.create(sim.prometheusUrl() + "/api/v1/query"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("query=" + URLEncoder.encode(CAPACITY, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(JSON.readTree(r.body()).at("/data/result")).hasSize(2);
    }

    @Test
    void the_same_seed_gives_the_same_answers() throws Exception {
        assertThat(seededAnswer(5)).isEqualTo(seededAnswer(5)).isNotEqualTo(seededAnswer(6));
    }

    String seededAnswer(long seed) throws Exception {
        try (SimCluster other = SimCluster.start()) {
            other.usage().useClock(Clock.fixed(T0, ZoneOffset.UTC)).seed(seed);
            other.load(Fixtures.boundClaim("data-db-0", "expandable", "10Gi", "10Gi"), KubeletSummaryTest.pod("db-0", "node-a", "Running", "data-db-0", false));
            return plain.send(HttpRequest.newBuilder(URI.create(other.prometheusUrl() + q(USED))).build(), HttpResponse.BodyHandlers.ofString()).body()
                    + plain.send(HttpRequest.newBuilder(URI.create(other.prometheusUrl() + q(DERIV))).build(), HttpResponse.BodyHandlers.ofString()).body();
        }
    }
}
