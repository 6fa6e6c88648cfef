package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan} and {@code usage} with the claims' usage: against the demo, whose payments/ledger is 92 % full;
 * with nodes/proxy forbidden and a node that does not answer the verdicts and exit codes are those of
 * {@code --no-usage}, and one note says what is unknown.
 */
class PlanUsageTest {
    @TempDir Path home;

    /** The demo manifest's payments/ledger alone. */
    Path ledgerManifest() {
        return Commands.manifest(home, DemoScenario.manifest().stream()
                .filter(o -> o.at("/metadata/name").asText().equals("ledger")).toList());
    }

    static JsonNode item(JsonNode doc, String name) {
        for (JsonNode i : doc.path("items")) {
            if (i.path("name").asText().equals(name)) {
                return i;
            }
        }
        throw new AssertionError("no item " + name + " in " + doc);
    }

    @Test
    void plan_json_carries_every_known_claims_usage_whatever_the_verdict_and_the_ledgers_suggestion() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = Commands.manifest(home, DemoScenario.manifest());
            Commands.Run run = Commands.run(h, "plan", "-f", manifest.toString(), "-A", "-o", "json");
            assertThat(run.code()).as(run.describe()).isEqualTo(2); // redis and mysql are refused, as without usage
            JsonNode doc = Harness.YAML.readTree(run.out());
            JsonNode ledger = item(doc, "ledger");
            assertThat(ledger.path("verdict").asText()).isEqualTo("up-to-date");
            assertThat(ledger.path("usage")).hasSize(3);
            JsonNode c0 = ledger.path("usage").get(0);
            assertThat(c0.path("claim").asText()).isEqualTo("data-ledger-0");
            // the alert's measure, 1 − available ÷ capacity, and the bytes it comes from
            assertThat(1 - c0.path("availableBytes").asDouble() / c0.path("capacityBytes").asDouble()).isBetween(0.91, 0.95);
            assertThat(c0.path("usedPercent").asDouble()).isBetween(91.0, 95.0);
            assertThat(c0.path("usedBytes").asLong()).isPositive();
            assertThat(c0.path("sharedFileSystem").asBoolean()).isFalse();
            assertThat(c0.has("fillsInSeconds")).as("no rate without Prometheus").isFalse();
            assertThat(ledger.path("suggestedSizes")).hasSize(1);
            assertThat(ledger.at("/suggestedSizes/0/suggested").asText()).isEqualTo("14Gi");
            assertThat(ledger.at("/suggestedSizes/0/template").asText()).isEqualTo("data");
            JsonNode redis = item(doc, "redis");
            assertThat(redis.path("verdict").asText()).isEqualTo("refused");
            assertThat(redis.path("usage")).as("a refused StatefulSet's usage too").isNotEmpty();
            assertThat(redis.path("claims")).as("claims keeps its meaning").isNotEmpty();
            assertThat(run.err()).doesNotContain("note: usage");
        }
    }

    @Test
    void plan_with_prometheus_in_the_cluster_says_when_the_ledger_fills_and_the_table_shows_it() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = ledgerManifest();
            Commands.Run run = Commands.run(h, "plan", "-f", manifest.toString(), "-n", "payments",
                    "--prometheus", "http://prometheus-k8s.monitoring.svc:9090");
            assertThat(run.code()).as(run.describe()).isZero();
            assertThat(run.out()).as(run.describe()).containsPattern("used 9[12] % \\(data-ledger-0: \\d+Mi of 10Gi available\\), fills in [234]h; "
                    + "suggest data 10Gi → 14Gi");
            assertThat(run.err()).as(run.describe()).doesNotContain("note:");
        }
    }

    @Test
    void plan_all_namespaces_sends_the_usage_lists_and_prometheus_queries_while_the_manifest_is_still_being_read() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            String manifest = java.nio.file.Files.readString(ledgerManifest());
            java.io.PipedOutputStream feed = new java.io.PipedOutputStream();
            java.io.PipedInputStream stdin = new java.io.PipedInputStream(feed, 1 << 16);
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            int before = h.sim.requests().size();
            java.util.concurrent.CompletableFuture<Integer> code = java.util.concurrent.CompletableFuture.supplyAsync(() -> new dev.stsresize.cli.Cli(
                    new java.io.PrintWriter(out), new java.io.PrintWriter(err), stdin, h.env(), false, java.util.Optional::empty,
                    Checkpoint.NONE).run("plan", "-A", "-f", "-", "-o", "json", "--prometheus", "http://prometheus-k8s.monitoring.svc:9090",
                            "--kubeconfig", h.kubeconfig().toString()));
            // the manifest is held back until the usage's LISTs and Prometheus' queries have reached the server (a bounded wait)
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            java.util.List<dev.stsresize.sim.http.RecordedRequest> seen = java.util.List.of();
            while (!(has(seen, "pods", "list") && has(seen, "resourcequotas", "list") && has(seen, "services/proxy", "get"))) {
                assertThat(System.nanoTime()).as("usage's requests before the manifest; seen: %s", seen).isLessThan(deadline);
                assertThat(code).as("the plan waits for its manifest").isNotDone();
                Thread.sleep(20);
                java.util.List<dev.stsresize.sim.http.RecordedRequest> all = h.sim.requests();
                seen = java.util.List.copyOf(all.subList(before, all.size()));
            }
            assertThat(seen).as("the summaries need the manifest's names").noneMatch(q -> q.resource().equals("nodes/proxy"));
            feed.write(manifest.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            feed.close();
            int exit = code.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(exit).as(out + "\n" + err).isZero();
            JsonNode ledger = item(Harness.YAML.readTree(out.toString()), "ledger");
            assertThat(ledger.path("usage")).hasSize(3);
            assertThat(ledger.at("/usage/0/fillsInSeconds").asDouble()).as("Prometheus' rate, asked before the manifest").isPositive();
            assertThat(ledger.at("/suggestedSizes/0/suggested").asText()).isEqualTo("14Gi");
            assertThat(err.toString()).doesNotContain("note:");
            java.util.List<dev.stsresize.sim.http.RecordedRequest> all = h.sim.requests();
            assertThat(all.subList(before, all.size()).stream().filter(q -> q.resource().equals("pods") && q.verb().equals("list")))
                    .as("one pod LIST, as before").hasSize(1);
        }
    }

    private static boolean has(java.util.List<dev.stsresize.sim.http.RecordedRequest> requests, String resource, String verb) {
        return requests.stream().anyMatch(q -> q.resource().equals(resource) && q.verb().equals(verb));
    }

    @Test
    void no_usage_reads_no_summary_and_writes_no_usage_field() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = Commands.manifest(home, DemoScenario.manifest());
            Commands.Run run = Commands.run(h, "plan", "-f", manifest.toString(), "-A", "-o", "json", "--no-usage");
            JsonNode doc = Harness.YAML.readTree(run.out());
            assertThat(item(doc, "ledger").has("usage")).isFalse();
            assertThat(item(doc, "ledger").has("suggestedSizes")).isFalse();
            assertThat(h.sim.requests()).noneMatch(r -> r.path().contains("/proxy/"));
        }
    }

    @Test
    void nodes_proxy_forbidden_is_one_note_and_the_same_verdicts_and_exit_code() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            String context = ServiceAccountRole.signIn(h, "payments",
                    "{apiGroups: [apps], resources: [statefulsets, controllerrevisions], verbs: [get, list, watch, create, patch, delete]}",
                    ServiceAccountRole.CLAIMS, "{apiGroups: [''], resources: [pods, resourcequotas], verbs: [get, list, watch]}",
                    ServiceAccountRole.EVENTS, ServiceAccountRole.LEASES, ServiceAccountRole.SECRETS);
            Path manifest = ledgerManifest();
            Commands.Run with = Commands.run(h, "plan", "-f", manifest.toString(), "-n", "payments", "--context", context);
            Commands.Run without = Commands.run(h, "plan", "-f", manifest.toString(), "-n", "payments", "--context", context,
                    "--no-usage");
            assertThat(with.code()).as(with.describe()).isEqualTo(without.code());
            assertThat(with.out()).as(with.describe()).isEqualTo(without.out());
            assertThat(with.err().lines().filter(l -> l.contains("nodes/proxy")))
                    .containsExactly("note: usage unknown (cannot get nodes/proxy)");
        }
    }

    @Test
    void a_node_that_does_not_answer_is_named_and_the_plan_goes_on() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            h.sim.faults().add(FaultRule.on("get", "nodes/proxy", null, Fault.hang()));
            Path manifest = ledgerManifest();
            Commands.Run run = Commands.run(h, "plan", "-f", manifest.toString(), "-n", "payments", "--usage-timeout", "1s");
            assertThat(run.code()).as(run.describe()).isZero();
            assertThat(run.err()).as(run.describe()).containsPattern("note: usage on node demo-node-\\d unknown: it did not answer within 1s");
            assertThat(run.out()).contains("payments/ledger  UP TO DATE").doesNotContain("used ");
        }
    }

    @Test
    void usage_lists_every_statefulset_fullest_first_with_the_set_size_line_that_applies_the_suggestion() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = ledgerManifest();
            Commands.Run run = Commands.run(h, "usage", "-A", "-f", manifest.toString());
            assertThat(run.code()).as(run.describe()).isZero();
            java.util.List<String> lines = run.out().lines().toList();
            assertThat(lines.get(0)).startsWith("NAMESPACE/NAME").contains("USED", "AVAILABLE", "FILLS IN", "SUGGEST");
            assertThat(lines.get(1)).startsWith("payments/ledger").contains("data-ledger-0", "data 10Gi → 14Gi");
            // -f reads the manifest: the report covers its StatefulSets; without -f, every one in scope
            assertThat(lines).filteredOn(l -> l.matches("^[a-z]+/[a-z]+ .*")).hasSize(1);
            Commands.Run all = Commands.run(h, "usage", "-A");
            assertThat(all.out().lines().filter(l -> l.matches("^[a-z]+/[a-z]+ .*"))).as(all.describe()).hasSize(9);
            assertThat(all.out()).contains("set-size -f MANIFEST");
            Commands.Run missing = Commands.run(h, "usage", "-A", "-f", manifest + ".absent");
            assertThat(missing.code()).as(missing.describe()).isEqualTo(1);
            assertThat(missing.err()).startsWith("error: ");
            String setSize = "kubectl stsresize set-size -f " + manifest + " payments/ledger data=14Gi";
            assertThat(lines).contains("  " + setSize);

            // the printed line, run as printed, edits the manifest; the plan then grows the ledger
            String[] args = setSize.substring("kubectl stsresize ".length()).split(" ");
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            int code = new dev.stsresize.cli.Cli(new java.io.PrintWriter(out), new java.io.PrintWriter(err),
                    new java.io.ByteArrayInputStream(new byte[0]), h.env(), false, java.util.Optional::empty, Checkpoint.NONE).run(args);
            assertThat(code).as(out + "\n" + err).isZero();
            assertThat(out.toString()).contains("+", "14Gi");
            Commands.Run plan = Commands.run(h, "plan", "-f", manifest.toString(), "-n", "payments");
            assertThat(plan.out()).as(plan.describe()).contains("payments/ledger  GROW", "template data: 10Gi → 14Gi");
            assertThat(plan.out()).as("the manifest now meets the suggestion").doesNotContain("suggest data");

            Commands.Run json = Commands.run(h, "usage", "-n", "payments", "-o", "json");
            JsonNode doc = Harness.YAML.readTree(json.out());
            assertThat(doc.path("kind").asText()).isEqualTo("Usage");
            assertThat(doc.at("/items/0/name").asText()).isEqualTo("ledger");
            assertThat(doc.at("/items/0/setSize").asText()).isEqualTo("kubectl stsresize set-size -f MANIFEST payments/ledger data=14Gi");
        }
    }

    @Test
    void usage_of_a_manifest_outside_the_contexts_namespace_lists_only_the_manifests_namespace() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = ledgerManifest();
            int before = h.sim.requests().size();
            Commands.Run run = Commands.run(h, "usage", "-f", manifest.toString());
            assertThat(run.code()).as(run.describe()).isZero();
            assertThat(run.out()).as(run.describe()).contains("payments/ledger");
            java.util.List<String> lists = h.sim.requests().subList(before, h.sim.requests().size()).stream()
                    .filter(r -> r.method().equals("GET") && r.path().endsWith("/statefulsets")).map(r -> r.path()).toList();
            // a namespace admin of payments may LIST there and nowhere else: no cluster-wide LIST
            assertThat(lists).as(run.describe()).containsExactly("/apis/apps/v1/namespaces/payments/statefulsets");
        }
    }
}
