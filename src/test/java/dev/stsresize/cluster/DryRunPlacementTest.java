package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Recorded;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls EVERY method of the port and reads each request as kube-apiserver reads it: a dry run asked
 * for must be one where the server looks for it for that verb, and one not asked for must not be.
 * The port's convention: a method's LAST boolean parameter is its dryRun.
 */
class DryRunPlacementTest {
    @TempDir Path home;

    @Test
    void everyDryRunIsWhereKubeApiserverReadsItForThatVerbAndNoOtherRequestIsOne() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            Cluster cluster = DeleteInvariantTest.answeringAnything(server, home);
            TreeSet<String> withDryRun = new TreeSet<>();

            for (Method method : Cluster.class.getMethods()) {
                int dryRunAt = lastBoolean(method);
                for (boolean dry : new boolean[] {false, true}) {
                    if (dry && dryRunAt < 0) {
                        continue;
                    }
                    Object[] args = DeleteInvariantTest.arguments(method, false);
                    if (dryRunAt >= 0) {
                        args[dryRunAt] = dry;
                    }
                    int before = server.requests().size();
                    Object result = method.invoke(cluster, args);
                    if (result instanceof ObjectWatch w) {
                        w.close();
                    }
                    List<Recorded> writes = new ArrayList<>(server.requests().subList(before, server.requests().size()));
                    writes.removeIf(r -> r.method().equals("GET"));
                    String call = method.getName() + (dry ? " with dryRun" : "");
                    for (Recorded r : writes) {
                        assertThat(readAsDryRun(r)).as(call + ": " + r.method() + " " + r.path() + "?" + r.query() + " " + r.body())
                                .isEqualTo(dry);
                        assertThat(dryRunIgnoredByTheServer(r)).as(call + ": a dryRun where the server never reads it, "
                                + r.method() + " " + r.path() + "?" + r.query() + " " + r.body()).isFalse();
                    }
                    if (dry) {
                        assertThat(writes).as(call + " sends a write").isNotEmpty();
                        withDryRun.add(method.getName());
                    }
                }
            }
            assertThat(withDryRun).containsExactly("applyStatefulSet", "createClaim", "createCopyPod", "createStatefulSet",
                    "deleteStatefulSetOrphan", "evictPod", "patchClaimStorage", "patchVolumeReclaimPolicy", "pointVolumeAtClaim");
        }
    }

    /**
     * The server's rule, per handler in staging/src/k8s.io/apiserver/pkg/endpoints/handlers: delete.go
     * decodes DeleteOptions from the body when there is one and then never reads the query, and from
     * the query only when the body is empty; create.go, update.go and patch.go decode their options
     * from the query only; an eviction (pkg/registry/core/pod/storage/eviction.go, propagateDryRun)
     * takes the CreateOptions' dryRun (the query), or its own deleteOptions' when that sets one.
     */
    static boolean readAsDryRun(Recorded r) throws IOException {
        boolean query = queryDryRun(r);
        if (r.method().equals("DELETE")) {
            return hasBody(r) ? allIn(body(r).path("dryRun")) : query;
        }
        if (r.path().endsWith("/eviction")) {
            JsonNode own = body(r).path("deleteOptions").path("dryRun");
            return own.isEmpty() ? query : allIn(own);
        }
        return query;
    }

    /** A dryRun sent where the handler does not look: the query of a DELETE with a body, the body of a create/update/patch. */
    static boolean dryRunIgnoredByTheServer(Recorded r) throws IOException {
        if (r.method().equals("DELETE")) {
            return hasBody(r) && queryDryRun(r);
        }
        return hasBody(r) && !r.path().endsWith("/eviction") && body(r).has("dryRun");
    }

    private static boolean queryDryRun(Recorded r) {
        return r.query() != null && Arrays.asList(r.query().split("&")).contains("dryRun=All");
    }

    private static boolean allIn(JsonNode dryRun) {
        return dryRun.size() == 1 && "All".equals(dryRun.get(0).asText());
    }

    private static boolean hasBody(Recorded r) {
        return r.body() != null && !r.body().isEmpty();
    }

    private static JsonNode body(Recorded r) throws IOException {
        return hasBody(r) ? TreeMapper.MAPPER.readTree(r.body()) : TreeMapper.MAPPER.createObjectNode();
    }

    private static int lastBoolean(Method m) {
        Class<?>[] types = m.getParameterTypes();
        for (int i = types.length - 1; i >= 0; i--) {
            if (types[i] == boolean.class) {
                return i;
            }
        }
        return -1;
    }
}
