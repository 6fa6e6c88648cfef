package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Calls EVERY method of the port, with and without dry run, and reads what went out: the only
 * DELETEs the product can send are an orphan delete of a StatefulSet with a UID precondition and the
 * delete of a run's own record Secret ({@code stsresize-…}) with a UID precondition.
 */
class DeleteInvariantTest {
    @TempDir Path home;

    @Test
    void everyDeleteThePortCanSendOrphansAStatefulSetWithAUidPreconditionAndNoneTouchesAClaim() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.onAnything(Answer.json(200, "{\"kind\":\"Anything\",\"metadata\":{\"name\":\"x\"}}"));
            Cluster cluster = new KubeCluster(Kubeconfigs.connect(Kubeconfigs.tokenConfig(home, server.url(), "t"), home));

            for (Method method : Cluster.class.getMethods()) {
                for (boolean flag : new boolean[] {false, true}) {
                    Object[] args = arguments(method, flag);
                    Object result = method.invoke(cluster, args);
                    if (result instanceof ObjectWatch w) {
                        w.close();
                    }
                }
            }

            assertThat(server.requests()).extracting(Recorded::method).contains("GET", "PATCH", "POST", "PUT", "DELETE");
            assertThat(server.requests()).noneMatch(r -> r.path().contains("/persistentvolumeclaims") && !r.method().matches("GET|PATCH"));
            for (Recorded r : server.requests()) {
                if (r.method().equals("DELETE") && r.path().startsWith("/api/v1/namespaces/")) {
                    assertThat(r.path()).matches("/api/v1/namespaces/[^/]+/secrets/stsresize-[^/]+");
                    assertThat(TreeMapper.MAPPER.readTree(r.body()).at("/preconditions/uid").asText()).isNotEmpty();
                } else if (r.method().equals("DELETE")) {
                    assertThat(r.path()).matches("/apis/apps/v1/namespaces/[^/]+/statefulsets/[^/]+");
                    JsonNode body = TreeMapper.MAPPER.readTree(r.body());
                    assertThat(body.path("propagationPolicy").asText()).isEqualTo("Orphan");
                    assertThat(body.at("/preconditions/uid").asText()).isNotEmpty();
                }
            }
        }
    }

    @Test
    void thePortHasExactlyTwoDeletesTheOrphanDeleteAndTheRecordSecretsDelete() {
        assertThat(Arrays.stream(Cluster.class.getMethods()).map(Method::getName)
                .filter(n -> n.toLowerCase().contains("delete") || n.toLowerCase().contains("remove")))
                .containsExactlyInAnyOrder("deleteStatefulSetOrphan", "deleteRecordSecret");
    }

    @Test
    void theRecordSecretsDeleteRefusesAnyOtherSecret() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.onAnything(Answer.json(200, "{}"));
            Cluster cluster = new KubeCluster(Kubeconfigs.connect(Kubeconfigs.tokenConfig(home, server.url(), "t"), home));
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
                args[i] = o;
            } else {
                throw new AssertionError("no argument for " + types[i] + " of " + method);
            }
        }
        if (method.getName().equals("deleteRecordSecret")) {
            args[1] = "stsresize-x"; // the only Secret name it accepts (theRecordSecretsDeleteRefusesAnyOtherSecret)
        }
        return args;
    }
}
