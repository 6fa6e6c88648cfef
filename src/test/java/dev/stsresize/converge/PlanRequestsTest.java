package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.RulesReview;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Optional;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code plan} asks of the server: 4 LISTs, one apply dry run per StatefulSet to recreate, and
 * one rules review per namespace with work — a number that grows neither with the StatefulSets nor
 * with the verbs. Where the rules review is refused or incomplete, the access reviews of those
 * namespaces, each (namespace, verb) asked once, with the same verdicts. And it says "blocked:
 * forbidden" where apply would.
 */
class PlanRequestsTest {
    /** The distinct verbs a recreate needs in one namespace (claims 3, events 1, StatefulSets 5, pods 2, revisions 1, Leases 3, Secrets 4): the access reviews where rules reviews are refused. */
    static final int REVIEWS_PER_NAMESPACE = 19;

    @TempDir Path home;

    @Test
    void plan_sends_four_lists_a_dry_run_per_recreate_and_one_rules_review_per_namespace() {
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
            List<RecordedRequest> reviews = sent.stream().filter(q -> q.path().contains("selfsubjectrulesreviews")).toList();
            // analytics (clickhouse, kafka) and shop (elasticsearch, minio, postgres) have work; legacy has none
            assertThat(reviews).as("rules reviews: one per namespace with work").hasSize(2);
            assertThat(sent).as("nothing else (no access review: the rules answer every verb)").hasSize(4 + 4 + 2);
            assertThat(h.writes()).as("writes").isEmpty();
        }
    }

    @Test
    void where_rules_reviews_are_refused_each_verb_is_an_access_review_asked_once_per_namespace() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            h.sim.faults().add(FaultRule.on("create", "selfsubjectrulesreviews", null,
                    Fault.status(403, "Forbidden", "selfsubjectrulesreviews.authorization.k8s.io is forbidden")));
            int before = h.sim.requests().size();
            Commands.Run r = Commands.run(h, "plan", "-A", "-f", Commands.manifest(home, DemoScenario.manifest()).toString());
            assertThat(r.code()).as(r.describe()).isEqualTo(2);
            List<RecordedRequest> sent = h.sim.requests().subList(before, h.sim.requests().size()).stream().filter(q -> !usage(q)).toList();
            assertThat(sent.stream().filter(q -> q.path().contains("selfsubjectaccessreviews"))).as("access reviews")
                    .hasSize(2 * REVIEWS_PER_NAMESPACE);
            assertThat(sent.stream().filter(q -> q.dryRun())).as("apply dry runs").hasSize(4);
            assertThat(h.writes()).as("writes").isEmpty();
        }
    }

    @Test
    void a_plan_under_a_narrow_role_says_the_same_from_the_rules_review_as_from_access_reviews() {
        String withRules = planUnderANarrowRole(false);
        String withAccessReviews = planUnderANarrowRole(true);
        assertThat(withRules).contains("you cannot delete statefulsets.apps, create pods/eviction in namespace shop")
                .contains("the run's lock and record are kept in the local journal only")
                .isEqualTo(withAccessReviews);
    }

    @Test
    void where_the_rules_review_is_incomplete_access_reviews_decide() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Cluster real = h.cluster(ServiceAccountRole.signIn(h, "shop", ServiceAccountRole.ALL_BUT_DELETE));
            // as a webhook authorizer answers: no rules listed, and says so
            Cluster webhook = (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("selfSubjectRulesReview")) {
                            return new RulesReview(List.of(), true, "webhook authorizer does not support user rule resolution");
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            int before = h.sim.requests().size();
            Assessment a = new Assessor(webhook, Progress.NONE).assess(List.of(Demo.declared("postgres")), false, Assessor.Depth.PLAN,
                    false, Optional.empty());
            String detail = a.items().get(0).decision().detail();
            assertThat(detail).as("only what the access reviews refuse").contains("you cannot delete statefulsets.apps in namespace shop")
                    .doesNotContain("patch persistentvolumeclaims");
            assertThat(h.sim.requests().subList(before, h.sim.requests().size()).stream()
                    .filter(q -> q.path().contains("selfsubjectaccessreviews"))).hasSize(REVIEWS_PER_NAMESPACE);
        }
    }

    /** plan -o json of postgres under a Role without delete, eviction, Leases or Secrets; rules reviews refused when asked. */
    private String planUnderANarrowRole(boolean refuseRules) {
        try (Harness h = Harness.start(home.resolve(refuseRules ? "sar" : "rules"), Demo.cluster())) {
            ServiceAccountRole.signIn(h, "shop", ServiceAccountRole.STATEFULSETS_BUT_DELETE, ServiceAccountRole.CLAIMS, ServiceAccountRole.PODS,
                    ServiceAccountRole.REVISIONS, "{apiGroups: [''], resources: [events], verbs: [create]}");
            if (refuseRules) {
                h.sim.faults().add(FaultRule.on("create", "selfsubjectrulesreviews", null,
                        Fault.status(403, "Forbidden", "selfsubjectrulesreviews.authorization.k8s.io is forbidden")));
            }
            Commands.Run r = Commands.run(h, "apply", "--dry-run=server", "--restart-pods-for-resize", "-n", "shop", "--context", "sim-shop-stsresize",
                    "-o", "json", "-f", Commands.manifest(home, List.of(Demo.declared("postgres"))).toString());
            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(h.sim.requests().stream().filter(q -> q.path().contains("selfsubjectaccessreviews")))
                    .as("access reviews").hasSize(refuseRules ? REVIEWS_PER_NAMESPACE + 2 : 0);
            assertThat(h.writes()).as("writes").isEmpty();
            return r.out();
        }
    }

    /** A request of the usage read beside the plan: pods and quotas LISTs, kubelet summaries. */
    static boolean usage(RecordedRequest q) {
        return q.resource().equals("pods") && q.verb().equals("list") || q.resource().equals("resourcequotas") || q.resource().equals("nodes/proxy");
    }

    @Test
    void plan_says_blocked_forbidden_where_a_verb_is_missing_and_writes_nothing() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            String context = ServiceAccountRole.signIn(h, "shop", ServiceAccountRole.ALL_BUT_DELETE);
            Commands.Run r = Commands.run(h, "plan", "-n", "shop", "--context", context, "-o", "json",
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
