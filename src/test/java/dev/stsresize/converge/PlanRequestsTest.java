package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.http.RecordedRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code plan} asks of the server: 3 LISTs, one apply dry run per StatefulSet to recreate, and
 * the access reviews of the namespaces with work, each (namespace, verb) asked once — a number that
 * does not grow with the StatefulSets. And it says "blocked: forbidden" where apply would.
 */
class PlanRequestsTest {
    /** The distinct verbs a recreate needs in one namespace (claims 2, events 1, StatefulSets 5, pods 2, revisions 1, Leases 3, Secrets 4). */
    static final int REVIEWS_PER_NAMESPACE = 18;

    @TempDir Path home;

    @Test
    void plan_sends_four_lists_a_dry_run_per_recreate_and_reviews_per_namespace_not_per_statefulset() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            int before = h.sim.requests().size();
            Commands.Run r = Commands.run(h, "plan", "-A", "-f", Commands.manifest(home, DemoScenario.manifest()).toString());
            assertThat(r.code()).as(r.describe()).isEqualTo(2);
            List<RecordedRequest> all = List.copyOf(h.sim.requests().subList(before, h.sim.requests().size()));
            // the usage beside the plan (issue 15): one pod LIST and one ResourceQuota LIST for the scope, one summary per node
            List<RecordedRequest> usage = all.stream().filter(PlanRequestsTest::usage).toList();
            assertThat(usage).extracting(RecordedRequest::path).containsExactlyInAnyOrder("/api/v1/pods", "/api/v1/resourcequotas",
                    "/api/v1/nodes/demo-node-0/proxy/stats/summary", "/api/v1/nodes/demo-node-1/proxy/stats/summary",
                    "/api/v1/nodes/demo-node-2/proxy/stats/summary");
            assertThat(usage.stream().filter(q -> q.resource().equals("pods")).map(q -> q.query().get("labelSelector")))
                    .as("only the pods a StatefulSet controller labelled").containsExactly("statefulset.kubernetes.io/pod-name");
            List<RecordedRequest> sent = all.stream().filter(q -> !usage.contains(q)).toList();

            assertThat(sent.stream().filter(q -> q.method().equals("GET"))).as("LISTs: StatefulSets, claims, StorageClasses, CSIDrivers").hasSize(4);
            assertThat(sent.stream().filter(q -> q.dryRun())).as("apply dry runs")
                    .hasSize(4).allMatch(q -> q.method().equals("PATCH") && q.path().contains("/statefulsets/"));
            List<RecordedRequest> reviews = sent.stream().filter(q -> q.path().contains("selfsubjectaccessreviews")).toList();
            // analytics (clickhouse, kafka) and shop (elasticsearch, minio, postgres) have work; legacy has none
            assertThat(reviews).as("access reviews").hasSize(2 * REVIEWS_PER_NAMESPACE);
            assertThat(sent).as("nothing else").hasSize(4 + 4 + reviews.size());
            assertThat(h.writes()).as("writes").isEmpty();
        }
    }

    /** A request of the usage read beside the plan: pods and quotas LISTs, kubelet summaries. */
    static boolean usage(RecordedRequest q) {
        return q.resource().equals("pods") && q.verb().equals("list") || q.resource().equals("resourcequotas") || q.resource().equals("nodes/proxy");
    }

    @Test
    void plan_says_blocked_forbidden_where_a_verb_is_missing_and_writes_nothing() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            h.sim.load(PermissionsAndLocksTest.role("shop",
                    "{apiGroups: [apps], resources: [statefulsets], verbs: [get, list, watch, create, patch]}",
                    "{apiGroups: [''], resources: [persistentvolumeclaims], verbs: [get, list, watch, patch]}",
                    "{apiGroups: [''], resources: [pods], verbs: [get, list, watch]}",
                    "{apiGroups: [apps], resources: [controllerrevisions], verbs: [list]}",
                    "{apiGroups: [events.k8s.io], resources: [events], verbs: [create]}",
                    "{apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, create, update]}",
                    "{apiGroups: [''], resources: [secrets], verbs: [get, create, update, delete]}").toArray(ObjectNode[]::new));
            h.sim.tokenFor("shop", "stsresize");
            Commands.Run r = Commands.run(h, "plan", "-n", "shop", "--context", "sim-shop-stsresize", "-o", "json",
                    "-f", Commands.manifest(home, List.of(Demo.declared("postgres"))).toString());
            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(r.out()).contains("\"verdict\": \"blocked\"", "\"reason\": \"forbidden\"",
                    "you cannot delete statefulsets.apps in namespace shop");
            assertThat(h.writes()).as("writes").isEmpty();
            Set<String> methods = h.sim.requests().stream().map(RecordedRequest::method).collect(Collectors.toSet());
            assertThat(methods).doesNotContain("DELETE", "PUT");
        }
    }
}
