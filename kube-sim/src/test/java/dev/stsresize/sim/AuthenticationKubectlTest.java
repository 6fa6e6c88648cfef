package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tried as a new user would, with the real kubectl over TLS: who am I allowed to be, and a token of my own. */
class AuthenticationKubectlTest {
    @TempDir
    Path dir;
    SimCluster sim;
    Kubectl kubectl;

    @BeforeEach
    void start() {
        assumeTrue(Kubectl.available(), Kubectl.ABSENT);
        sim = SimCluster.start();
        sim.load(Fixtures.storageClass("expandable", true));
        var claim = Fixtures.boundClaim("data-db-0", "expandable", "1Gi", "1Gi");
        claim.withObject("/metadata").put("namespace", "prod");
        sim.load(claim, Fixtures.yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: robot, namespace: prod}\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: reader, namespace: prod}\n"
                        + "rules: [{apiGroups: [''], resources: [persistentvolumeclaims], verbs: [get, list]}]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: reader, namespace: prod}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}\n"
                        + "subjects: [{kind: ServiceAccount, name: robot, namespace: prod}]\n"));
        sim.tokenFor("prod", "robot");
        kubectl = Kubectl.admin(sim, dir);
    }

    @AfterEach
    void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    @Test
    void auth_can_i_as_a_service_account_answers_for_it() {
        Kubectl.Result list = kubectl.run(null, "auth", "can-i", "list", "pvc", "-n", "prod", "--as", "system:serviceaccount:prod:robot");
        assertThat(list.out()).as(list.toString()).isEqualTo("yes\n");
        Kubectl.Result delete = kubectl.run(null, "auth", "can-i", "delete", "pvc", "-n", "prod", "--as", "system:serviceaccount:prod:robot");
        assertThat(delete.out()).as(delete.toString()).isEqualTo("no\n");
        assertThat(delete.exit()).isEqualTo(1);
    }

    @Test
    void a_service_account_may_not_impersonate_without_the_verb() {
        // --raw: a typed get would first run discovery as alice, which kubectl reports as "Forbidden: unknown"
        Kubectl.Result r = kubectl.run(null, "--context", "sim-prod-robot", "get", "--raw", "/api/v1/namespaces/prod/persistentvolumeclaims",
                "--as", "alice");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("Error from server (Forbidden): users \"alice\" is forbidden: User \"system:serviceaccount:prod:robot\" "
                + "cannot impersonate resource \"users\" in API group \"\" at the cluster scope\n");
    }

    @Test
    void create_token_then_a_request_with_it_acts_as_the_service_account() {
        Kubectl.Result token = kubectl.run(null, "create", "token", "robot", "-n", "prod", "--duration", "15m");
        assertThat(token.exit()).as(token.toString()).isZero();
        String t = token.out().trim();
        Kubectl.Result get = kubectl.run(null, "--context", "sim-token", "--token", t, "get", "pvc", "-n", "prod", "-o", "name");
        assertThat(get.out()).as(get.toString()).isEqualTo("persistentvolumeclaim/data-db-0\n");
        Kubectl.Result pods = kubectl.run(null, "--context", "sim-token", "--token", t, "get", "pods", "-n", "prod");
        assertThat(pods.err()).isEqualTo("Error from server (Forbidden): pods is forbidden: User \"system:serviceaccount:prod:robot\" "
                + "cannot list resource \"pods\" in API group \"\" in the namespace \"prod\"\n");
        Kubectl.Result bad = kubectl.run(null, "--context", "sim-token", "--token", "sim-nobody", "get", "pvc", "-n", "prod");
        assertThat(bad.err()).as("a token nobody issued").contains("error: You must be logged in to the server (Unauthorized)");
    }
}
