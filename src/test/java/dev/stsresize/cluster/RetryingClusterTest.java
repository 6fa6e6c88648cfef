package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryingClusterTest {
    static final RetryPolicy POLICY =
            new RetryPolicy(5, Duration.ofMillis(100), Duration.ofMillis(400), Duration.ofSeconds(30));

    final List<Duration> waits = new ArrayList<>();
    final AtomicInteger calls = new AtomicInteger();

    /** A Cluster whose every method fails with {@code failure} {@code times} times, then answers {@code answer}. */
    Cluster failing(int times, RuntimeException failure, Object answer) {
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (proxy, method, args) -> {
                    if (calls.incrementAndGet() <= times) {
                        throw failure;
                    }
                    return answer;
                });
    }

    Cluster retrying(Cluster flaky) {
        return new RetryingCluster(flaky, POLICY, waits::add);
    }

    static ClusterException status(int code, Duration retryAfter) {
        return new ClusterException(code, "", "server says " + code, retryAfter, "GET statefulsets default/db", null);
    }

    static ServerUnreachable dropped() {
        return new ServerUnreachable("cannot reach …", new ConnectException("Connection reset"), true);
    }

    @Test
    void a429WaitsExactlyTheServersRetryAfter() {
        ObjectList list = new ObjectList(List.of(), "1");
        Cluster c = retrying(failing(2, status(429, Duration.ofSeconds(3)), list));

        assertThat(c.listStatefulSets(NamespaceScope.all())).isSameAs(list);
        assertThat(waits).containsExactly(Duration.ofSeconds(3), Duration.ofSeconds(3));
    }

    @Test
    void aHugeRetryAfterIsCapped() {
        Cluster c = retrying(failing(1, status(429, Duration.ofHours(2)), new ObjectList(List.of(), "")));
        c.listClaims(NamespaceScope.all());
        assertThat(waits).containsExactly(Duration.ofSeconds(30));
    }

    @Test
    void serverErrorsBackOffExponentiallyUpToTheCap() {
        Optional<ObjectNode> absent = Optional.empty();
        Cluster c = retrying(failing(4, status(503, null), absent));

        assertThat(c.getStatefulSet("default", "db")).isEmpty();
        assertThat(waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
                Duration.ofMillis(400));
    }

    static ServerUnreachable refused() {
        return new ServerUnreachable("cannot reach …: connection refused", new ConnectException("Connection refused"), true, true);
    }

    @Test
    void aConnectionRefusedBeforeTheServerEverAnsweredFailsAtOnce() {
        Cluster c = retrying(failing(1, refused(), new ObjectList(List.of(), "1")));

        assertThatThrownBy(() -> c.listStatefulSets(NamespaceScope.all())).isInstanceOf(ServerUnreachable.class)
                .hasMessageContaining("connection refused");
        assertThat(calls).as("kubectl does not retry a refused first connection either").hasValue(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void aConnectionRefusedAfterTheServerAnsweredIsARestartAndIsRiddenOut() {
        ObjectList list = new ObjectList(List.of(), "1");
        AtomicInteger n = new AtomicInteger();
        Cluster flaky = (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (proxy, method, args) -> {
                    int call = n.incrementAndGet();
                    if (call == 2 || call == 3) {
                        throw refused(); // the API server restarting mid-run
                    }
                    return list;
                });
        Cluster c = retrying(flaky);

        assertThat(c.listStatefulSets(NamespaceScope.all())).isSameAs(list);
        assertThat(c.listClaims(NamespaceScope.all())).isSameAs(list);
        assertThat(waits).hasSize(2);
    }

    @Test
    void anErrorAnswerCountsAsAnswered() {
        AtomicInteger n = new AtomicInteger();
        Cluster flaky = (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (proxy, method, args) -> {
                    int call = n.incrementAndGet();
                    if (call == 1) {
                        throw status(403, null);
                    }
                    if (call == 2) {
                        throw refused();
                    }
                    return Optional.empty();
                });
        Cluster c = retrying(flaky);

        assertThatThrownBy(() -> c.listStatefulSets(NamespaceScope.all())).isInstanceOf(ClusterException.class);
        assertThat(c.getStatefulSet("default", "db")).isEmpty();
        assertThat(waits).hasSize(1);
    }

    @Test
    void droppedConnectionsAreRetried() {
        ObjectNode applied = TreeMapper.MAPPER.createObjectNode().put("kind", "StatefulSet");
        Cluster c = retrying(failing(2, dropped(), applied));

        assertThat(c.applyStatefulSet(applied, "kubectl", true, false)).isSameAs(applied);
        assertThat(calls).hasValue(3);
    }

    @Test
    void anUnknownHostOrUntrustedCertificateIsNotRetried() {
        ServerUnreachable permanent = new ServerUnreachable("cannot reach …",
                new java.net.UnknownHostException("kube.example.invalid"), false);
        Cluster c = retrying(failing(1, permanent, null));

        assertThatThrownBy(() -> c.listStatefulSets(NamespaceScope.all())).isSameAs(permanent);
        assertThat(calls).hasValue(1);
    }

    @Test
    void retriesAreBoundedAndTheLastFailureSurfaces() {
        ClusterException unavailable = status(503, null);
        Cluster c = retrying(failing(100, unavailable, null));

        assertThatThrownBy(() -> c.patchClaimStorage("default", "data-db-0", "2Gi", false)).isSameAs(unavailable);
        assertThat(calls).hasValue(POLICY.maxAttempts());
        assertThat(waits).hasSize(POLICY.maxAttempts() - 1);
    }

    @Test
    void aConflictIsNeverRetriedTheCallerReReads() {
        ClusterException conflict = status(409, null);
        Cluster c = retrying(failing(1, conflict, Optional.empty()));

        assertThatThrownBy(() -> c.deleteStatefulSetOrphan("default", "db", "uid", false)).isSameAs(conflict);
        assertThat(calls).hasValue(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void otherClientErrorsAreNotRetried() {
        for (int code : new int[] {400, 403, 404, 410, 422}) {
            calls.set(0);
            ClusterException e = status(code, null);
            Cluster c = retrying(failing(1, e, null));
            assertThatThrownBy(() -> c.createStatefulSet(TreeMapper.MAPPER.createObjectNode(), false)).isSameAs(e);
            assertThat(calls).as("HTTP %d", code).hasValue(1);
        }
        assertThat(waits).isEmpty();
    }

    @Test
    void aBugIsNotRetried() {
        IllegalArgumentException bug = new IllegalArgumentException("namespace is required here");
        Cluster c = retrying(failing(1, bug, null));
        assertThatThrownBy(() -> c.getPod("", "x")).isSameAs(bug);
        assertThat(calls).hasValue(1);
    }

    @Test
    void everyMethodOfThePortGoesThroughTheRetry() throws Exception {
        // a method added to Cluster but forgotten here would call through once and fail the count
        for (var method : Cluster.class.getMethods()) {
            if (NOT_RETRIED.contains(method.getName())) {
                continue;
            }
            calls.set(0);
            Object answer = answerFor(method.getReturnType());
            Cluster c = retrying(failing(1, status(503, null), answer));
            Object[] args = new Object[method.getParameterCount()];
            for (int i = 0; i < args.length; i++) {
                args[i] = defaultFor(method.getParameterTypes()[i]);
            }
            try {
                method.invoke(c, args);
            } catch (InvocationTargetException e) {
                throw new AssertionError(method.getName() + " was not retried", e.getCause());
            }
            assertThat(calls).as(method.getName()).hasValue(2);
        }
    }

    /** Bounded by their caller's deadline (usage): a node or Prometheus that did not answer is said, not asked again. */
    static final java.util.Set<String> NOT_RETRIED = java.util.Set.of("nodeSummary", "serviceProxyGet");

    @Test
    void theUsageReadsAreNotRetriedTheirCallerBoundsTheTime() throws Exception {
        for (var method : Cluster.class.getMethods()) {
            if (!NOT_RETRIED.contains(method.getName())) {
                continue;
            }
            calls.set(0);
            Cluster c = retrying(failing(1, status(503, null), null));
            Object[] args = new Object[method.getParameterCount()];
            for (int i = 0; i < args.length; i++) {
                args[i] = defaultFor(method.getParameterTypes()[i]);
            }
            assertThatThrownBy(() -> method.invoke(c, args)).isInstanceOf(InvocationTargetException.class)
                    .cause().isInstanceOf(ClusterException.class);
            assertThat(calls).as(method.getName()).hasValue(1);
        }
        assertThat(waits).isEmpty();
    }

    static Object answerFor(Class<?> type) {
        if (type == Optional.class) {
            return Optional.empty();
        }
        return null;
    }

    static Object defaultFor(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 1;
        }
        if (type == String.class) {
            return "x";
        }
        if (type == NamespaceScope.class) {
            return NamespaceScope.all();
        }
        if (type == WatchedKind.class) {
            return WatchedKind.POD;
        }
        if (type == ObjectNode.class) {
            return TreeMapper.MAPPER.createObjectNode();
        }
        return null;
    }
}
