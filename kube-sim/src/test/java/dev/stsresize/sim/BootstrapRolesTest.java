package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ClusterRoles kube-apiserver v1.32 creates at start are served, aggregated, and bind as on a real
 * cluster: a namespace's admin may write core Events, Leases and Secrets but not events.k8s.io Events
 * nor anything cluster-scoped; view reads and never writes; discovery and health need no binding.
 */
class BootstrapRolesTest {
    SimCluster sim;

    @BeforeEach
    void start() {
        sim = SimCluster.start();
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    void bind(String clusterRole) {
        sim.load(Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: shop-" + clusterRole
                + ", namespace: shop}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: " + clusterRole + "}\n"
                + "subjects: [{kind: ServiceAccount, name: alice, namespace: shop}]\n"));
    }

    JsonNode review(SimClient c, String verb, String group, String resource, String sub) {
        String body = "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\",\"spec\":{\"resourceAttributes\":"
                + "{\"namespace\":\"shop\",\"verb\":\"" + verb + "\",\"group\":\"" + group + "\",\"resource\":\"" + resource
                + "\",\"subresource\":\"" + sub + "\"}}}";
        SimClient.Answer a = c.send("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "application/json", body);
        assertThat(a.code()).as(a.toString()).isEqualTo(201);
        return a.json().path("status");
    }

    boolean may(SimClient c, String verb, String group, String resource) {
        return review(c, verb, group, resource, "").path("allowed").asBoolean();
    }

    static List<String> rules(JsonNode role) {
        List<String> out = new ArrayList<>();
        for (JsonNode r : role.path("rules")) {
            out.add(r.path("apiGroups") + " " + r.path("resources") + " " + r.path("verbs"));
        }
        return out;
    }

    @Test
    void admin_edit_and_view_are_served_filled_as_the_aggregation_controller_leaves_them() {
        SimClient root = SimClient.admin(sim);
        JsonNode edit = root.get("/apis/rbac.authorization.k8s.io/v1/clusterroles/edit").json();
        assertThat(edit.at("/metadata/labels/kubernetes.io~1bootstrapping").asText()).isEqualTo("rbac-defaults");
        assertThat(edit.at("/metadata/labels/rbac.authorization.k8s.io~1aggregate-to-admin").asText()).isEqualTo("true");
        assertThat(edit.at("/aggregationRule/clusterRoleSelectors/0/matchLabels/rbac.authorization.k8s.io~1aggregate-to-edit").asText())
                .isEqualTo("true");
        assertThat(rules(edit)).contains(
                "[\"coordination.k8s.io\"] [\"leases\"] [\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"]",
                "[\"\"] [\"pods/eviction\"] [\"create\"]",
                // view's rules, aggregated into edit
                "[\"\"] [\"bindings\",\"events\",\"limitranges\",\"namespaces/status\",\"pods/log\",\"pods/status\",\"replicationcontrollers/status\","
                        + "\"resourcequotas\",\"resourcequotas/status\"] [\"get\",\"list\",\"watch\"]");
        assertThat(rules(edit)).noneMatch(r -> r.contains("events.k8s.io"));
        JsonNode admin = root.get("/apis/rbac.authorization.k8s.io/v1/clusterroles/admin").json();
        assertThat(rules(admin)).as("edit's rules (and so view's), then system:aggregate-to-admin's").containsAll(rules(edit))
                .contains("[\"authorization.k8s.io\"] [\"localsubjectaccessreviews\"] [\"create\"]");
        assertThat(rules(admin)).hasSize(rules(edit).size() + 2);
        JsonNode view = root.get("/apis/rbac.authorization.k8s.io/v1/clusterroles/view").json();
        assertThat(rules(view)).noneMatch(r -> r.contains("secrets")).allMatch(r -> r.endsWith("[\"get\",\"list\",\"watch\"]"));
        JsonNode bindings = root.get("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings").json();
        List<String> names = new ArrayList<>();
        bindings.path("items").forEach(b -> names.add(b.at("/metadata/name").asText() + " -> " + b.at("/subjects/0/name").asText()));
        assertThat(names).contains("cluster-admin -> system:masters", "system:basic-user -> system:authenticated",
                "system:discovery -> system:authenticated", "system:public-info-viewer -> system:authenticated");
    }

    @Test
    void a_namespace_admin_may_write_core_events_leases_and_secrets_but_not_events_k8s_io_events() {
        bind("admin");
        SimClient alice = new SimClient(sim, sim.tokenFor("shop", "alice"));
        assertThat(may(alice, "create", "events.k8s.io", "events")).isFalse();
        assertThat(may(alice, "create", "", "events")).isTrue();
        for (String verb : List.of("get", "create", "update")) {
            assertThat(may(alice, verb, "coordination.k8s.io", "leases")).as(verb + " leases").isTrue();
        }
        for (String verb : List.of("get", "create", "update", "delete")) {
            assertThat(may(alice, verb, "", "secrets")).as(verb + " secrets").isTrue();
        }
        for (String verb : List.of("get", "watch", "create", "patch", "delete")) {
            assertThat(may(alice, verb, "apps", "statefulsets")).as(verb + " statefulsets").isTrue();
        }
        assertThat(may(alice, "patch", "", "persistentvolumeclaims")).isTrue();
        assertThat(may(alice, "list", "apps", "controllerrevisions")).isTrue();
        assertThat(review(alice, "create", "", "pods", "eviction").path("allowed").asBoolean()).isTrue();
        assertThat(review(alice, "patch", "", "persistentvolumeclaims", "").path("reason").asText())
                .isEqualTo("RBAC: allowed by RoleBinding \"shop-admin/shop\" of ClusterRole \"admin\" to ServiceAccount \"alice/shop\"");
        SimClient.Answer classes = alice.get("/apis/storage.k8s.io/v1/storageclasses");
        assertThat(classes.code()).as("nothing cluster-scoped").isEqualTo(403);
        SimClient.Answer denied = alice.send("POST", "/apis/events.k8s.io/v1/namespaces/shop/events", "application/json",
                "{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"generateName\":\"x-\"}}");
        assertThat(denied.code()).isEqualTo(403);
        assertThat(denied.message()).isEqualTo("events.events.k8s.io is forbidden: User \"system:serviceaccount:shop:alice\" cannot create "
                + "resource \"events\" in API group \"events.k8s.io\" in the namespace \"shop\"");
    }

    @Test
    void view_reads_but_writes_nothing_and_reads_no_secret() {
        bind("view");
        SimClient alice = new SimClient(sim, sim.tokenFor("shop", "alice"));
        assertThat(may(alice, "list", "apps", "statefulsets")).isTrue();
        assertThat(may(alice, "patch", "", "persistentvolumeclaims")).isFalse();
        assertThat(may(alice, "get", "", "secrets")).isFalse();
        assertThat(may(alice, "create", "", "events")).isFalse();
    }

    @Test
    void discovery_and_health_come_from_the_bootstrap_bindings_and_only_for_get() {
        SimClient alice = new SimClient(sim, sim.tokenFor("shop", "alice"));
        assertThat(alice.get("/apis").code()).isEqualTo(200);
        assertThat(alice.get("/version").code()).isEqualTo(200);
        SimClient.Answer posted = alice.send("POST", "/version", "application/json", "{}");
        assertThat(posted.code()).as("system:discovery grants get only").isEqualTo(403);
        assertThat(posted.message()).isEqualTo("forbidden: User \"system:serviceaccount:shop:alice\" cannot post path \"/version\"");
        String body = "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\",\"spec\":{\"nonResourceAttributes\":"
                + "{\"verb\":\"get\",\"path\":\"/apis/apps/v1\"}}}";
        JsonNode status = alice.send("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "application/json", body).json()
                .path("status");
        assertThat(status.path("allowed").asBoolean()).isTrue();
        assertThat(status.path("reason").asText()).isEqualTo("RBAC: allowed by ClusterRoleBinding \"system:discovery\" of ClusterRole "
                + "\"system:discovery\" to Group \"system:authenticated\"");
    }

    @Test
    void a_saved_state_leaves_the_bootstrap_policy_out_as_every_start_creates_it_again() {
        bind("edit");
        List<ObjectNode> saved = sim.snapshot();
        assertThat(saved).noneMatch(o -> o.path("kind").asText().startsWith("ClusterRole"));
        assertThat(saved).anyMatch(o -> o.path("kind").asText().equals("RoleBinding"));
    }

    @Test
    void kubectl_binds_admin_in_a_namespace_and_can_i_answers_as_a_real_cluster(@TempDir Path dir) {
        assumeTrue(Kubectl.available(), Kubectl.ABSENT);
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n"));
        sim.tokenFor("shop", "alice");
        Path kc = dir.resolve("kubeconfig");
        sim.writeKubeconfig(kc);
        Kubectl k = new Kubectl(kc, dir);
        Kubectl.Result bound = k.run(null, "create", "rolebinding", "shop-admin", "--clusterrole=admin", "--serviceaccount=shop:alice",
                "-n", "shop");
        assertThat(bound.exit()).as(bound.toString()).isZero();
        Kubectl.Result events = k.run(null, "--context", "sim-shop-alice", "auth", "can-i", "create", "events.events.k8s.io");
        assertThat(events.out()).as(events.toString()).isEqualTo("no\n");
        Kubectl.Result core = k.run(null, "--context", "sim-shop-alice", "auth", "can-i", "create", "events");
        assertThat(core.out()).as(core.toString()).isEqualTo("yes\n");
        Kubectl.Result leases = k.run(null, "--context", "sim-shop-alice", "auth", "can-i", "update", "leases.coordination.k8s.io");
        assertThat(leases.out()).as(leases.toString()).isEqualTo("yes\n");
    }
}
