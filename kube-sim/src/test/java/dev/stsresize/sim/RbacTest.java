package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ServiceAccount tokens authorised by Roles and RoleBindings in the store; SelfSubjectAccessReview agrees. */
class RbacTest {
    SimCluster sim;
    static final String CLAIM = "/api/v1/namespaces/prod/persistentvolumeclaims/data-db-0";
    static final String GROW = "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}";

    @BeforeEach
    void start() {
        sim = SimCluster.start();
        sim.load(Fixtures.storageClass("expandable", true));
        var claim = Fixtures.boundClaim("data-db-0", "expandable", "1Gi", "1Gi");
        claim.withObject("/metadata").put("namespace", "prod");
        sim.load(claim);
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    void role(String verbs) {
        sim.load(Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: resizer, namespace: prod}\n"
                        + "rules:\n- apiGroups: ['']\n  resources: [persistentvolumeclaims]\n  verbs: " + verbs + "\n"
                        + "- apiGroups: ['']\n  resources: [pods/eviction]\n  verbs: [create]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: resizer, namespace: prod}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: resizer}\n"
                        + "subjects: [{kind: ServiceAccount, name: stsresize, namespace: prod}]\n"));
    }

    JsonNode review(SimClient c, String verb, String resource, String sub) {
        String body = "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\",\"spec\":{\"resourceAttributes\":"
                + "{\"namespace\":\"prod\",\"verb\":\"" + verb + "\",\"group\":\"\",\"resource\":\"" + resource + "\",\"subresource\":\""
                + sub + "\"}}}";
        SimClient.Answer a = c.send("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "application/json", body);
        assertThat(a.code()).isEqualTo(201);
        return a.json().path("status");
    }

    @Test
    void a_role_without_patch_gets_the_real_403_and_the_access_review_says_no() {
        role("[get, list, watch]");
        SimClient sa = new SimClient(sim, sim.tokenFor("prod", "stsresize"));
        assertThat(sa.get(CLAIM).code()).isEqualTo(200);
        SimClient.Answer denied = sa.send("PATCH", CLAIM, "application/merge-patch+json", GROW);
        assertThat(denied.code()).isEqualTo(403);
        assertThat(denied.json()).isEqualTo(Reference.json("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"persistentvolumeclaims \\"data-db-0\\" is forbidden: User \\"system:serviceaccount:prod:stsresize\\" cannot patch resource \\"persistentvolumeclaims\\" in API group \\"\\" in the namespace \\"prod\\"",
                 "reason":"Forbidden","details":{"name":"data-db-0","kind":"persistentvolumeclaims"},"code":403}"""));
        assertThat(review(sa, "patch", "persistentvolumeclaims", "").path("allowed").asBoolean()).isFalse();
        assertThat(review(sa, "get", "persistentvolumeclaims", "").path("allowed").asBoolean()).isTrue();
        assertThat(sim.get("v1", "PersistentVolumeClaim", "prod", "data-db-0").at("/spec/resources/requests/storage").asText()).isEqualTo("1Gi");
    }

    @Test
    void the_same_role_with_patch_lets_the_claim_grow_and_names_the_binding_in_the_review() {
        role("[get, patch]");
        SimClient sa = new SimClient(sim, sim.tokenFor("prod", "stsresize"));
        assertThat(sa.send("PATCH", CLAIM, "application/merge-patch+json", GROW).code()).isEqualTo(200);
        JsonNode status = review(sa, "patch", "persistentvolumeclaims", "");
        assertThat(status.path("allowed").asBoolean()).isTrue();
        assertThat(status.path("reason").asText()).isEqualTo("RBAC: allowed by RoleBinding \"resizer/prod\" of Role \"resizer\" to ServiceAccount \"stsresize/prod\"");
    }

    @Test
    void subresources_are_authorised_by_their_own_name() {
        role("[get]");
        SimClient sa = new SimClient(sim, sim.tokenFor("prod", "stsresize"));
        assertThat(review(sa, "create", "pods", "eviction").path("allowed").asBoolean()).isTrue();
        assertThat(review(sa, "create", "pods", "").path("allowed").asBoolean()).isFalse();
        assertThat(review(sa, "update", "persistentvolumeclaims", "status").path("allowed").asBoolean()).isFalse();
    }

    @Test
    void other_namespaces_cluster_scoped_lists_and_unknown_tokens_are_refused() {
        role("['*']");
        SimClient sa = new SimClient(sim, sim.tokenFor("prod", "stsresize"));
        SimClient.Answer other = sa.get("/api/v1/namespaces/default/persistentvolumeclaims");
        assertThat(other.code()).isEqualTo(403);
        assertThat(other.message()).isEqualTo("persistentvolumeclaims is forbidden: User \"system:serviceaccount:prod:stsresize\" "
                + "cannot list resource \"persistentvolumeclaims\" in API group \"\" in the namespace \"default\"");
        SimClient.Answer classes = sa.get("/apis/storage.k8s.io/v1/storageclasses");
        assertThat(classes.message()).isEqualTo("storageclasses.storage.k8s.io is forbidden: User \"system:serviceaccount:prod:stsresize\" "
                + "cannot list resource \"storageclasses\" in API group \"storage.k8s.io\" at the cluster scope");
        SimClient.Answer stranger = new SimClient(sim, "not-a-token").get(CLAIM);
        assertThat(stranger.code()).isEqualTo(401);
        assertThat(SimClient.admin(sim).get("/apis/storage.k8s.io/v1/storageclasses").code()).as("the admin may").isEqualTo(200);
    }

    @Test
    void a_token_request_for_a_service_account_returns_the_token_that_acts_as_it() {
        role("[get]");
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: stsresize, namespace: prod}\n"));
        SimClient admin = SimClient.admin(sim);
        SimClient.Answer tr = admin.send("POST", "/api/v1/namespaces/prod/serviceaccounts/stsresize/token", "application/json",
                "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{}}");
        assertThat(tr.code()).isEqualTo(201);
        String token = tr.json().at("/status/token").asText();
        assertThat(token).as("TokenRequest issues a new token each time").isNotEqualTo(sim.tokenFor("prod", "stsresize"))
                .isNotEqualTo(admin.send("POST", "/api/v1/namespaces/prod/serviceaccounts/stsresize/token", "application/json", "{}")
                        .json().at("/status/token").asText());
        SimClient sa = new SimClient(sim, token);
        assertThat(sa.get(CLAIM).code()).isEqualTo(200);
        assertThat(sa.send("PATCH", CLAIM, "application/merge-patch+json", GROW).code()).isEqualTo(403);
        assertThat(admin.send("POST", "/api/v1/namespaces/prod/serviceaccounts/nobody/token", "application/json", "{}").code())
                .as("no token for a ServiceAccount that does not exist").isEqualTo(404);
    }

    @Test
    void kubectl_with_the_service_account_context_gets_the_same_403(@TempDir Path dir) {
        assumeTrue(Kubectl.available(), Kubectl.ABSENT);
        role("[get]");
        sim.tokenFor("prod", "stsresize");
        Path kc = dir.resolve("kubeconfig");
        sim.writeKubeconfig(kc);
        Kubectl k = new Kubectl(kc, dir);
        Kubectl.Result r = k.run(null, "--context", "sim-prod-stsresize", "patch", "pvc", "data-db-0", "--type=merge", "-p", GROW);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("Error from server (Forbidden): persistentvolumeclaims \"data-db-0\" is forbidden: User "
                + "\"system:serviceaccount:prod:stsresize\" cannot patch resource \"persistentvolumeclaims\" in API group \"\" in the "
                + "namespace \"prod\"\n");
        Kubectl.Result can = k.run(null, "--context", "sim-prod-stsresize", "auth", "can-i", "get", "pvc");
        assertThat(can.out()).as(can.toString()).isEqualTo("yes\n");
    }
}
