package dev.stsresize.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ConnectionSettings;
import dev.stsresize.cluster.KubeClients;
import dev.stsresize.cluster.KubeCluster;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.cluster.RetryPolicy;
import dev.stsresize.cluster.RetryingCluster;
import dev.stsresize.cluster.Sleeper;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.SizingPolicy;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.SuggestedSize;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.sim.request.ServiceBackend;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The usage of the demo's StatefulSets read as the plugin reads it: through the API server, against the simulated cluster. */
class UsageReaderTest {
    static final Duration TIMEOUT = Duration.ofSeconds(3);
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static final String BAD_DATA = "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\": 1:1: parse error: no\"}";

    @TempDir Path home;
    SimCluster sim;

    @BeforeEach
    void start() {
        sim = SimCluster.start();
        sim.usage().useClock(Clock.fixed(Instant.parse("2026-12-03T20:00:00Z"), ZoneOffset.UTC));
        sim.load(DemoScenario.cluster().toArray(new ObjectNode[0]));
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    Cluster cluster(String context) {
        Path kubeconfig = home.resolve("kubeconfig");
        sim.writeKubeconfig(kubeconfig);
        ConnectionSettings s = ConnectionSettings.defaults().withKubeconfig(kubeconfig);
        if (context != null) {
            s = s.withContext(context);
        }
        var conn = KubeClients.connect(s, new ClientEnvironment(Map.of(), home, home.resolve("no-sa"), false), "test",
                new PrintWriter(new StringWriter()));
        return new RetryingCluster(new KubeCluster(conn),
                new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(2)), Sleeper.REAL);
    }

    UsageReport read(Cluster cluster, Optional<String> prometheus, NamespaceScope scope) {
        Optional<PrometheusSource> source = prometheus.map(url -> PrometheusSource.of(url, Optional.of(URI.create(sim.url())), cluster, TIMEOUT));
        List<ObjectNode> sts = cluster.listStatefulSets(scope).items();
        return new UsageReader(cluster, TIMEOUT, source, Clock.systemUTC()).read(sts, List.of(scope), SizingPolicy.DEFAULT);
    }

    List<RecordedRequest> summaries() {
        return sim.requests().stream().filter(r -> r.path().endsWith("/proxy/stats/summary")).toList();
    }

    @Test
    void the_ledger_is_92_percent_full_and_a_bigger_size_is_suggested() {
        UsageReport r = read(cluster(null), Optional.empty(), NamespaceScope.all());
        assertThat(r.notes()).isEmpty();
        StatefulSetUsage ledger = r.fullestFirst().get(0);
        assertThat(ledger.key()).isEqualTo("payments/ledger");
        ClaimUsage fullest = ledger.fullest().orElseThrow();
        assertThat(fullest.claim()).isEqualTo("data-ledger-0");
        assertThat(fullest.usedPercent()).isCloseTo(92.0, org.assertj.core.data.Offset.offset(0.2));
        assertThat(fullest.fillsIn()).as("no rate without Prometheus or samples").isEmpty();
        assertThat(ledger.suggestions()).singleElement().satisfies(s -> {
            assertThat(s.template()).isEqualTo("data");
            assertThat(s.current()).isEqualTo("10Gi");
            assertThat(s.suggested()).isEqualTo("14Gi");
        });
        assertThat(r.fullestFirst()).hasSizeGreaterThan(3);
        // the quiet claims: 10-55 % of bytes used, and ext4's 5 % reserve on top by the alert's measure
        assertThat(r.fullestFirst().subList(1, r.fullestFirst().size()))
                .allSatisfy(u -> assertThat(u.fullest().orElseThrow().usedPercent()).isBetween(15.0, 60.0));
        // one summary per node running a pod of a listed StatefulSet, not per pod; one pod LIST for the scope
        long nodes = summaries().stream().map(RecordedRequest::path).distinct().count();
        assertThat(summaries()).hasSize((int) nodes);
        assertThat(sim.requests()).filteredOn(q -> q.path().equals("/api/v1/pods")).hasSize(1);
    }

    @Test
    void used_percent_is_one_minus_available_over_capacity_of_the_kubelets_summary() {
        Cluster cluster = cluster(null);
        UsageReport r = read(cluster, Optional.empty(), NamespaceScope.of("payments"));
        ObjectNode pod = sim.get("v1", "Pod", "payments", "ledger-0");
        JsonNode volume = null;
        for (JsonNode p : cluster.nodeSummary(pod.at("/spec/nodeName").asText(), TIMEOUT).path("pods")) {
            for (JsonNode v : p.path("volume")) {
                if (v.at("/pvcRef/name").asText().equals("data-ledger-0")) {
                    volume = v;
                }
            }
        }
        assertThat(volume).isNotNull();
        long capacity = volume.path("capacityBytes").asLong();
        long available = volume.path("availableBytes").asLong();
        long used = volume.path("usedBytes").asLong();
        assertThat(available).as("ext4's reserve: available below capacity − used").isLessThan(capacity - used);
        ClaimUsage c = r.of("payments", "ledger").orElseThrow().claims().get(0);
        assertThat(c.claim()).isEqualTo("data-ledger-0");
        assertThat(c.usedPercent()).isCloseTo(100.0 * (1 - (double) available / capacity), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(c.usedPercent()).as("used ÷ capacity says less").isGreaterThan(100.0 * used / capacity + 4.9);
    }

    /** A StatefulSet of two 1Gi claims on demo-node-0: web-0's on the hostpath CSI driver, web-1's a hostPath PV. */
    void loadWeb() {
        sim.load(yaml("""
                apiVersion: storage.k8s.io/v1
                kind: StorageClass
                metadata: {name: csi-hostpath}
                provisioner: hostpath.csi.k8s.io
                allowVolumeExpansion: true
                """), yaml("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: web, namespace: shop, uid: 6b1c3f3e-0000-4000-8000-000000000abc}
                spec:
                  replicas: 2
                  serviceName: web
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: nginx}]}
                  volumeClaimTemplates:
                  - metadata: {name: data}
                    spec: {accessModes: [ReadWriteOnce], storageClassName: csi-hostpath, resources: {requests: {storage: 1Gi}}}
                """));
        for (int i = 0; i < 2; i++) {
            String source = i == 0 ? "csi: {driver: hostpath.csi.k8s.io, volumeHandle: vol-web-0}" : "hostPath: {path: /var/local/web-1}";
            sim.load(yaml("""
                    apiVersion: v1
                    kind: PersistentVolume
                    metadata: {name: pv-web-%1$d}
                    spec:
                      accessModes: [ReadWriteOnce]
                      capacity: {storage: 1Gi}
                      claimRef: {namespace: shop, name: data-web-%1$d}
                      storageClassName: csi-hostpath
                      %2$s
                    status: {phase: Bound}
                    """.formatted(i, source)), yaml("""
                    apiVersion: v1
                    kind: PersistentVolumeClaim
                    metadata: {name: data-web-%1$d, namespace: shop, labels: {app: web}}
                    spec: {accessModes: [ReadWriteOnce], storageClassName: csi-hostpath, volumeName: pv-web-%1$d,
                      resources: {requests: {storage: 1Gi}}}
                    status: {phase: Bound, accessModes: [ReadWriteOnce], capacity: {storage: 1Gi}}
                    """.formatted(i)), yaml("""
                    apiVersion: v1
                    kind: Pod
                    metadata:
                      name: web-%1$d
                      namespace: shop
                      labels: {app: web, statefulset.kubernetes.io/pod-name: web-%1$d}
                      ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: web, uid: 6b1c3f3e-0000-4000-8000-000000000abc,
                        controller: true, blockOwnerDeletion: true}]
                    spec:
                      nodeName: demo-node-0
                      containers: [{name: web, image: nginx}]
                      volumes: [{name: data, persistentVolumeClaim: {claimName: data-web-%1$d}}]
                    status: {phase: Running, hostIP: 10.0.0.10}
                    """.formatted(i)));
        }
    }

    @Test
    void a_claim_on_a_shared_file_system_is_marked_and_given_no_size() {
        loadWeb();
        UsageReport r = read(cluster(null), Optional.empty(), NamespaceScope.of("shop"));
        StatefulSetUsage web = r.of("shop", "web").orElseThrow();
        ClaimUsage onTheNode = web.claims().stream().filter(c -> c.claim().equals("data-web-0")).findFirst().orElseThrow();
        assertThat(onTheNode.capacityBytes()).as("the node's disk, not the 1Gi claim").isEqualTo(100L << 30);
        assertThat(onTheNode.sharedFileSystem()).isTrue();
        assertThat(web.suggestions()).isEmpty();
    }

    @Test
    void a_claim_the_kubelet_reports_nothing_for_is_named_with_why() {
        loadWeb();
        UsageReport r = read(cluster(null), Optional.empty(), NamespaceScope.of("shop"));
        assertThat(r.of("shop", "web").orElseThrow().unmeasured()).singleElement().satisfies(u -> {
            assertThat(u.claim()).isEqualTo("data-web-1");
            assertThat(u.reason()).startsWith("the kubelet on demo-node-0 reports no stats for it: its volume plugin keeps none,"
                    + " as hostPath's does not").endsWith("at the kubelet's next volume measure (its volumeStatsAggPeriod, 1m by default)")
                    .doesNotContain("once a minute");
        });
        assertThat(r.unmeasured()).as("the demo's claims are all measured").containsOnlyKeys("shop/web");
    }

    @Test
    void a_node_that_does_not_answer_is_the_reason_of_each_of_its_claims() {
        sim.faults().add(FaultRule.on("get", "nodes/proxy", "demo-node-0", Fault.unreachable()));
        UsageReport r = read(cluster(null), Optional.empty(), NamespaceScope.of("payments"));
        assertThat(r.unmeasured("payments", "ledger")).singleElement().satisfies(u -> {
            assertThat(u.claim()).isEqualTo("data-ledger-0");
            assertThat(u.reason()).startsWith("node demo-node-0's summary was not read: error trying to reach service");
        });
    }

    @Test
    void prometheus_in_the_cluster_gives_the_time_to_full_through_the_service_proxy() {
        UsageReport r = read(cluster(null), Optional.of("http://prometheus-k8s.monitoring.svc:9090"), NamespaceScope.of("payments"));
        assertThat(r.notes()).isEmpty();
        StatefulSetUsage ledger = r.of("payments", "ledger").orElseThrow();
        assertThat(ledger.fillsIn().orElseThrow()).isBetween(Duration.ofHours(2), Duration.ofHours(4));
        assertThat(sim.requests()).anyMatch(q -> q.path().startsWith("/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy/api/v1/query"));
    }

    @Test
    void the_api_servers_own_service_proxy_url_is_recognised() {
        UsageReport r = read(cluster(null), Optional.of(sim.url() + "/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy/"),
                NamespaceScope.of("payments"));
        assertThat(r.notes()).isEmpty();
        assertThat(r.of("payments", "ledger").orElseThrow().fillsIn()).isPresent();
    }

    @Test
    void a_prometheus_reached_directly_gives_the_rate_too() {
        UsageReport r = read(cluster(null), Optional.of(sim.prometheusUrl()), NamespaceScope.of("payments"));
        assertThat(r.notes()).isEmpty();
        assertThat(r.of("payments", "ledger").orElseThrow().fillsIn()).isPresent();
    }

    @Test
    void prometheus_absent_is_one_note_and_the_summaries_stand() {
        UsageReport r = read(cluster(null), Optional.of("http://127.0.0.1:1"), NamespaceScope.of("payments"));
        assertThat(r.notes()).singleElement().asString()
                .isEqualTo("Prometheus at http://127.0.0.1:1 not used (connection refused); growth unknown, usage from the kubelets' summaries");
        assertThat(r.of("payments", "ledger").orElseThrow().fullest().orElseThrow().usedPercent()).isGreaterThan(91);
    }

    @Test
    void a_wrong_url_is_a_404_said_once() {
        UsageReport r = read(cluster(null), Optional.of(sim.prometheusUrl() + "/not-prometheus"), NamespaceScope.of("payments"));
        assertThat(r.notes()).singleElement().asString().contains("not used (HTTP 404, not Prometheus' JSON API");
        assertThat(r.of("payments", "ledger")).isPresent();
    }

    @Test
    void a_service_that_does_not_exist_is_the_api_servers_404_said_once() {
        UsageReport r = read(cluster(null), Optional.of("http://nothing.monitoring.svc:9090"), NamespaceScope.of("payments"));
        assertThat(r.notes()).singleElement().asString().contains("not used (404 services \"nothing\" not found)");
    }

    @Test
    void a_prometheus_answering_400_bad_data_is_said_with_its_error() {
        // a proxy that answers every query as a Prometheus refusing it
        sim.runBehindService("monitoring", "prometheus-k8s", 9090, (method, path, query, body) -> new ServiceBackend.Answer(
                400, "application/json", BAD_DATA.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        UsageReport r = read(cluster(null), Optional.of("http://prometheus-k8s.monitoring.svc:9090"), NamespaceScope.of("payments"));
        assertThat(r.notes()).singleElement().asString().contains("not used (HTTP 400 bad_data: invalid parameter \"query\"");
    }

    @Test
    void nodes_proxy_forbidden_is_one_note_and_nothing_else() {
        readerWithoutNodesProxy();
        UsageReport r = read(cluster("sim-payments-reader"), Optional.empty(), NamespaceScope.of("payments"));
        assertThat(r.notes()).containsExactly(UsageReader.NODES_PROXY_FORBIDDEN);
        assertThat(r.fullestFirst()).isEmpty();
        assertThat(summaries()).allSatisfy(q -> assertThat(q.status()).isEqualTo(403));
    }

    @Test
    void prometheus_alone_gives_the_same_measure_and_the_same_suggestion() {
        // nodes/proxy forbidden: every figure comes from the kubelet_volume_stats series
        readerWithoutNodesProxy();
        UsageReport fromSummaries = read(cluster(null), Optional.empty(), NamespaceScope.of("payments"));
        UsageReport fromPrometheus = read(cluster("sim-payments-reader"), Optional.of(sim.prometheusUrl()), NamespaceScope.of("payments"));
        assertThat(fromPrometheus.notes()).containsExactly(UsageReader.NODES_PROXY_FORBIDDEN);
        ClaimUsage summary = fromSummaries.of("payments", "ledger").orElseThrow().fullest().orElseThrow();
        ClaimUsage series = fromPrometheus.of("payments", "ledger").orElseThrow().fullest().orElseThrow();
        assertThat(series.claim()).isEqualTo(summary.claim());
        assertThat(series.usedPercent()).isCloseTo(summary.usedPercent(), org.assertj.core.data.Offset.offset(0.1))
                .isCloseTo(92.0, org.assertj.core.data.Offset.offset(0.2));
        assertThat(series.reservedBytes()).as("the reserve seen through available").isPositive();
        assertThat(fromPrometheus.of("payments", "ledger").orElseThrow().suggestions()).extracting(SuggestedSize::suggested)
                .containsExactly("14Gi");
    }

    @Test
    void a_node_that_hangs_is_named_and_the_read_ends_within_its_bound() {
        sim.faults().add(FaultRule.on("get", "nodes/proxy", "demo-node-0", Fault.hang()));
        sim.faults().add(FaultRule.on("get", "nodes/proxy", "demo-node-1", Fault.unreachable()));
        UsageReport r = read(cluster(null), Optional.empty(), NamespaceScope.all());
        assertThat(r.notes()).containsExactly("usage on node demo-node-0 unknown: it did not answer within 3s",
                "usage on node demo-node-1 unknown: error trying to reach service: dial tcp demo-node-1:10250: connect: connection refused");
        assertThat(r.fullestFirst()).as("the other nodes' claims").isNotEmpty();
    }

    @Test
    void the_quota_room_is_hard_minus_used_of_requests_storage() {
        UsageReport r = read(cluster(null), Optional.empty(), NamespaceScope.of("payments"));
        ObjectNode quota = sim.get("v1", "ResourceQuota", "payments", "storage");
        long hard = dev.stsresize.plan.Quantity.parse(quota.at("/status/hard/requests.storage").asText()).value().longValue();
        long used = dev.stsresize.plan.Quantity.parse(quota.at("/status/used/requests.storage").asText()).value().longValue();
        assertThat(r.quotaRoom("payments")).contains(hard - used);
        assertThat(r.of("payments", "ledger").orElseThrow().suggestions()).extracting(SuggestedSize::cappedByQuota).containsExactly(false);
    }

    @Test
    void quotas_forbidden_leave_the_suggestions_uncapped_and_say_so() {
        sim.load(yaml("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata: {name: usage-reader}
                rules:
                - {apiGroups: [''], resources: [pods], verbs: [list]}
                - {apiGroups: [''], resources: [nodes/proxy], verbs: [get]}
                - {apiGroups: [apps], resources: [statefulsets], verbs: [list]}
                """), yaml("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRoleBinding
                metadata: {name: usage-reader}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: usage-reader}
                subjects: [{kind: ServiceAccount, name: reader, namespace: payments}]
                """));
        sim.tokenFor("payments", "reader");
        UsageReport r = read(cluster("sim-payments-reader"), Optional.empty(), NamespaceScope.of("payments"));
        assertThat(r.notes()).containsExactly("storage quota unknown (cannot list resourcequotas); suggestions not capped");
        assertThat(r.quotaRoom("payments")).isEmpty();
        assertThat(r.of("payments", "ledger").orElseThrow().suggestions()).extracting(SuggestedSize::suggested).containsExactly("14Gi");
    }

    static ObjectNode yaml(String s) {
        try {
            return (ObjectNode) YAML.readTree(s);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void many_silent_nodes_are_counted_in_one_note_per_reason() {
        Map<String, String> silent = new java.util.TreeMap<>();
        for (int i = 0; i < 5; i++) {
            silent.put("node-" + i, "it did not answer within 5s");
        }
        silent.put("node-9", "error trying to reach service");
        assertThat(UsageReader.silentNotes(silent)).containsExactly(
                "usage on node node-9 unknown: error trying to reach service",
                "usage on 5 nodes unknown (node-0, node-1, node-2, …): they did not answer within 5s");
        assertThat(UsageReader.silentNotes(Map.of("node-0", "it did not answer within 5s")))
                .containsExactly("usage on node node-0 unknown: it did not answer within 5s");
    }

    @Test
    void a_prometheus_asked_directly_gets_no_credentials() throws Exception {
        List<String> authorizations = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            byte[] body = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}".getBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            UsageReport r = read(cluster(null), Optional.of("http://127.0.0.1:" + server.getAddress().getPort()), NamespaceScope.of("payments"));
            assertThat(r.notes()).isEmpty();
            assertThat(authorizations).hasSize(4).containsOnly("null");
        } finally {
            server.stop(0);
        }
    }

    /** ServiceAccount payments/reader (context "sim-payments-reader"): lists StatefulSets, pods and quotas, no nodes/proxy. */
    private void readerWithoutNodesProxy() {
        sim.load(yaml("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: Role
                metadata: {name: reader, namespace: payments}
                rules:
                - {apiGroups: [apps], resources: [statefulsets], verbs: [list]}
                - {apiGroups: [''], resources: [pods, resourcequotas], verbs: [list]}
                """), yaml("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata: {name: reader, namespace: payments}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
                subjects: [{kind: ServiceAccount, name: reader, namespace: payments}]
                """));
        sim.tokenFor("payments", "reader");
    }
}
