package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.FakeApiServer.Recorded;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls EVERY method of the port, with and without dry run, and reads what went out ({@link RequestLogRules}): no
 * DELETE of a PersistentVolume; the StatefulSet's orphan delete with a UID precondition; the deletes of a claim (a
 * copy's source or its destination, for a {@link ClaimDeleteAllowed} only), of a copy pod and of a run's own record
 * Secret, each with a UID precondition; no PATCH that removes a PV's claimRef.
 */
class DeleteInvariantTest {
    @TempDir Path home;

    @Test
    void everyDeleteThePortCanSendCarriesAUidPreconditionAndNoneTouchesAPersistentVolume() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            Cluster cluster = answeringAnything(server, home);

            for (Method method : Cluster.class.getMethods()) {
                for (boolean flag : new boolean[] {false, true}) {
                    Object[] args = arguments(method, flag);
                    Object result = method.invoke(cluster, args);
                    if (result instanceof ObjectWatch w) {
                        w.close();
                    }
                }
            }

            // the claim delete with the other token there is: the copy's destination (the run's temporary claim)
            cluster.deleteClaim(ClaimDeleteAllowedTest.destinationAllowedIn("x"));

            assertThat(server.requests()).extracting(Recorded::method).contains("GET", "PATCH", "POST", "PUT", "DELETE");
            assertThat(server.requests()).extracting(r -> r.method() + " " + r.path())
                    .contains("DELETE /api/v1/namespaces/x/persistentvolumeclaims/data-db-1",
                            "DELETE /api/v1/namespaces/x/persistentvolumeclaims/stsresize-data-db-1", "DELETE /api/v1/namespaces/x/pods/stsresize-copy-x",
                            "PATCH /api/v1/persistentvolumes/x");
            assertThat(server.requests()).noneMatch(r -> r.path().contains("/persistentvolumes") && !r.method().matches("GET|PATCH"));
            assertThat(server.requests()).extracting(RequestLogRules::violation).containsOnlyNulls();
        }
    }

    @Test
    void negativeControlsAPvDeleteAClaimDeleteWithoutUidAndAClaimRefRemovalAreEachCaught() {
        assertThat(RequestLogRules.violation("DELETE", "/api/v1/persistentvolumes/pv-1", "{\"preconditions\":{\"uid\":\"u\"}}"))
                .contains("never deletes");
        assertThat(RequestLogRules.violation("DELETE", "/api/v1/persistentvolumes", "")).contains("never deletes");
        assertThat(RequestLogRules.violation("DELETE", "/api/v1/namespaces/x/persistentvolumeclaims/data-db-1", "{\"kind\":\"DeleteOptions\"}"))
                .contains("without a UID precondition");
        assertThat(RequestLogRules.violation("DELETE", "/api/v1/namespaces/x/persistentvolumeclaims/data-db-1", "")).contains("without a UID");
        assertThat(RequestLogRules.violation("DELETE", "/api/v1/namespaces/x/pods/stsresize-copy-x", "")).contains("without a UID");
        assertThat(RequestLogRules.violation("DELETE", "/api/v1/namespaces/x/pods/db-0", "{\"preconditions\":{\"uid\":\"u\"}}"))
                .contains("DELETE of");
        assertThat(RequestLogRules.violation("DELETE", "/api/v1/namespaces/x/persistentvolumeclaims", "{\"preconditions\":{\"uid\":\"u\"}}"))
                .as("a collection delete").contains("DELETE of");
        assertThat(RequestLogRules.violation("PATCH", "/api/v1/persistentvolumes/pv-1", "{\"spec\":{\"claimRef\":null}}")).contains("claimRef");
        assertThat(RequestLogRules.violation("PATCH", "/api/v1/persistentvolumes/pv-1", "[{\"op\":\"remove\",\"path\":\"/spec/claimRef\"}]"))
                .contains("claimRef");
        assertThat(RequestLogRules.violation("DELETE", "/api/v1/namespaces/x/persistentvolumeclaims/data-db-1", "{\"preconditions\":{\"uid\":\"u\"}}"))
                .isNull();
    }

    @Test
    void thePortHasNoPvDeleteAndItsClaimDeleteTakesOnlyAToken() throws Exception {
        assertThat(Arrays.stream(Cluster.class.getMethods()).map(Method::getName)
                .filter(n -> n.toLowerCase().contains("delete") || n.toLowerCase().contains("remove")))
                .containsExactlyInAnyOrder("deleteStatefulSetOrphan", "deleteRecordSecret", "deleteCopyPod", "deleteClaim");
        assertThat(Cluster.class.getMethod("deleteClaim", ClaimDeleteAllowed.class).getParameterCount()).isEqualTo(1);
    }

    /** What the fake answers for the copy pod the port's delete reads first: the plugin's own, of UID "x". */
    /** The port over a server that answers every request with an object, and the copy pod's requests as a copy pod's. */
    static Cluster answeringAnything(FakeApiServer server, Path home) throws java.io.IOException {
        server.onAnything(Answer.json(200, "{\"kind\":\"Anything\",\"metadata\":{\"name\":\"x\"}}"));
        answerTheCopyPod(server);
        return Kubeconfigs.tokenCluster(home, server.url(), "t");
    }

    static void answerTheCopyPod(FakeApiServer server) {
        server.on("GET", "/api/v1/namespaces/x/pods/stsresize-copy-x", Answer.json(200, "{\"metadata\":{\"name\":\"stsresize-copy-x\","
                + "\"namespace\":\"x\",\"uid\":\"x\",\"labels\":{\"app.kubernetes.io/managed-by\":\"kubectl-stsresize\","
                + "\"stsresize.dev/copy-of\":\"x\"}}}"));
    }

    @Test
    void theRecordSecretsDeleteRefusesAnyOtherSecret() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.onAnything(Answer.json(200, "{}"));
            Cluster cluster = Kubeconfigs.tokenCluster(home, server.url(), "t");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> cluster.deleteRecordSecret("x", "db-credentials", "u"))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(server.requests()).isEmpty();
        }
    }

    static Object[] arguments(Method method, boolean flag) {
        Object[] args = new Object[method.getParameterCount()];
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < args.length; i++) {
            if (types[i] == boolean.class) {
                args[i] = flag;
            } else if (types[i] == int.class) {
                args[i] = 1;
            } else if (types[i] == String.class) {
                args[i] = "x";
            } else if (types[i] == NamespaceScope.class) {
                args[i] = flag ? NamespaceScope.all() : NamespaceScope.of("x");
            } else if (types[i] == WatchedKind.class) {
                args[i] = WatchedKind.STATEFUL_SET;
            } else if (types[i] == java.time.Duration.class) {
                args[i] = java.time.Duration.ofSeconds(5);
            } else if (types[i] == java.util.Map.class) {
                args[i] = java.util.Map.of("query", "x");
            } else if (types[i] == ResourceAccess.class) {
                args[i] = new ResourceAccess("get", "", "pods", "", "x", "");
            } else if (types[i] == ObjectNode.class) {
                ObjectNode o = TreeMapper.MAPPER.createObjectNode();
                o.putObject("metadata").put("namespace", "x").put("name", "x").put("resourceVersion", "1");
                if (method.getName().equals("createCopyPod")) {
                    ((ObjectNode) o.get("metadata")).putObject("labels").put(CopyPodLog.MANAGED_BY_LABEL, CopyPodLog.MANAGED_BY)
                            .put(CopyPodLog.COPY_OF_LABEL, "x");
                }
                args[i] = o;
            } else if (types[i] == ClaimDeleteAllowed.class) {
                args[i] = ClaimDeleteAllowedTest.allowedIn("x");
            } else {
                throw new AssertionError("no argument for " + types[i] + " of " + method);
            }
        }
        if (method.getName().equals("patchVolumeReclaimPolicy")) {
            args[1] = "Retain"; // a reclaim policy's only values are Retain, Delete and Recycle
        }
        if (method.getName().equals("deleteCopyPod")) {
            args[1] = "stsresize-copy-x"; // the only pods it deletes, read first (answerTheCopyPod)
        }
        if (method.getName().equals("deleteRecordSecret")) {
            args[1] = "stsresize-x"; // the only Secret name it accepts (theRecordSecretsDeleteRefusesAnyOtherSecret)
        }
        return args;
    }
}
