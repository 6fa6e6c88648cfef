package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SelfSubjectRulesReview (what {@code kubectl auth can-i --list} asks) lists the rules RBAC holds for
 * the user in one namespace, as pkg/registry/authorization/selfsubjectrulesreview/rest.go answers.
 */
class RulesReviewTest {
    static final String PATH = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
    SimCluster sim;

    @BeforeEach
    void start() {
        sim = SimCluster.start();
        sim.load(Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: resizer, namespace: prod}\n"
                        + "rules:\n- apiGroups: ['']\n  resources: [persistentvolumeclaims]\n  verbs: [get, patch]\n"
                        + "- apiGroups: ['']\n  resources: [pods/eviction]\n  verbs: [create]\n  resourceNames: [db-0]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: resizer, namespace: prod}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: resizer}\n"
                        + "subjects: [{kind: ServiceAccount, name: stsresize, namespace: prod}]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: gone, namespace: prod}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: missing}\n"
                        + "subjects: [{kind: ServiceAccount, name: stsresize, namespace: prod}]\n"));
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    JsonNode rules(SimClient c, String namespace) {
        SimClient.Answer a = c.send("POST", PATH, "application/json",
                "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectRulesReview\",\"spec\":{\"namespace\":\"" + namespace + "\"}}");
        assertThat(a.code()).as(a.json().toString()).isEqualTo(201);
        return a.json();
    }

    @Test
    void lists_the_namespace_role_after_the_cluster_roles_every_user_holds_and_names_a_missing_role() {
        SimClient sa = new SimClient(sim, sim.tokenFor("prod", "stsresize"));
        JsonNode review = rules(sa, "prod");
        assertThat(review.path("kind").asText()).isEqualTo("SelfSubjectRulesReview");
        assertThat(review.path("spec").isEmpty()).as("rest.go answers a new object: the spec comes back empty").isTrue();
        JsonNode status = review.path("status");
        assertThat(status.path("incomplete").asBoolean(true)).isFalse();
        assertThat(status.path("evaluationError").asText()).isEqualTo("role.rbac.authorization.k8s.io \"missing\" not found");
        // system:basic-user (bound to system:authenticated) comes first: ClusterRoleBindings before RoleBindings
        assertThat(status.path("resourceRules").toString()).contains("\"resources\":[\"selfsubjectaccessreviews\",\"selfsubjectrulesreviews\"]");
        JsonNode last = status.path("resourceRules").get(status.path("resourceRules").size() - 1);
        assertThat(last.toString()).isEqualTo("{\"verbs\":[\"create\"],\"apiGroups\":[\"\"],\"resources\":[\"pods/eviction\"],\"resourceNames\":[\"db-0\"]}");
        assertThat(status.path("resourceRules").toString()).contains("{\"verbs\":[\"get\",\"patch\"],\"apiGroups\":[\"\"],\"resources\":[\"persistentvolumeclaims\"]}");
        assertThat(status.path("nonResourceRules").toString()).contains("/version");
    }

    @Test
    void another_namespace_has_only_the_cluster_wide_rules() {
        SimClient sa = new SimClient(sim, sim.tokenFor("prod", "stsresize"));
        assertThat(rules(sa, "other").path("status").path("resourceRules").toString()).doesNotContain("persistentvolumeclaims");
        assertThat(rules(sa, "other").path("status").has("evaluationError")).isFalse();
    }

    @Test
    void the_admin_holds_cluster_admin_through_its_binding_to_system_masters() {
        SimClient admin = new SimClient(sim, sim.adminToken());
        assertThat(rules(admin, "prod").path("status").path("resourceRules").toString())
                .contains("{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"]}");
    }

    @Test
    void a_review_without_a_namespace_is_a_bad_request() {
        SimClient.Answer a = new SimClient(sim, sim.adminToken()).send("POST", PATH, "application/json",
                "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectRulesReview\",\"spec\":{}}");
        assertThat(a.code()).isEqualTo(400);
        assertThat(a.json().path("message").asText()).isEqualTo("no namespace on request");
    }
}
