package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cluster.Cluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A far API server costs a converge its round trips: the requests of a step that no rule orders are
 * sent together, and the Events wait for nothing. Checked without a clock: the port holds each claim
 * read (or patch) until the StatefulSet's three are in flight at once, and an Event until the orphan
 * delete was sent; a run that sends them one after another finds nobody to meet and says so.
 */
class RequestsTogetherTest {
    @TempDir Path home;

    /** How long a held call waits for the others before it gives up (and the test fails): never reached when they come together. */
    private static final long MEET_SECONDS = 5;

    @Test
    void a_statefulsets_claims_are_read_together_and_patched_together() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
            Map<String, AtomicInteger> most = new ConcurrentHashMap<>();
            List<String> alone = new CopyOnWriteArrayList<>();
            Set<String> held = Set.of("getClaim", "patchClaimStorage");
            Map<String, CountDownLatch> meet = new ConcurrentHashMap<>(Map.of("getClaim", new CountDownLatch(3),
                    "patchClaimStorage", new CountDownLatch(3)));
            Cluster cluster = proxy(h.cluster(), (method, call) -> {
                String name = method;
                AtomicInteger now = inFlight.computeIfAbsent(name, k -> new AtomicInteger());
                int n = now.incrementAndGet();
                most.computeIfAbsent(name, k -> new AtomicInteger()).accumulateAndGet(n, Math::max);
                try {
                    CountDownLatch m = meet.get(name);
                    if (held.contains(name) && m != null && m.getCount() > 0) {
                        m.countDown();
                        if (!m.await(MEET_SECONDS, TimeUnit.SECONDS)) {
                            alone.add(name);
                        }
                    }
                    return call.call();
                } finally {
                    now.decrementAndGet();
                }
            });
            StatefulSetResult r = converge(h, cluster);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(alone).as("calls that waited in vain for the StatefulSet's other claims").isEmpty();
            assertThat(most.get("getClaim").get()).as("claims read at once").isGreaterThanOrEqualTo(3);
            assertThat(most.get("patchClaimStorage").get()).as("claims patched at once").isEqualTo(3);
        }
    }

    @Test
    void an_event_unanswered_holds_up_no_write_of_the_run() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            CountDownLatch deleteSent = new CountDownLatch(1);
            AtomicInteger eventsBeforeTheDelete = new AtomicInteger();
            List<String> heldUp = new CopyOnWriteArrayList<>();
            Cluster cluster = proxy(h.cluster(), (method, call) -> {
                if (method.equals("deleteStatefulSetOrphan")) {
                    deleteSent.countDown();
                }
                if (method.equals("createEvent") && deleteSent.getCount() > 0) {
                    eventsBeforeTheDelete.incrementAndGet();
                    // the first Events (the claims' patches) are answered only once the run has gone on to its delete
                    if (!deleteSent.await(MEET_SECONDS, TimeUnit.SECONDS)) {
                        heldUp.add("an Event held the run up until it was answered");
                    }
                }
                return call.call();
            });
            StatefulSetResult r = converge(h, cluster);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(eventsBeforeTheDelete.get()).as("Events sent before the delete").isPositive();
            assertThat(heldUp).isEmpty();
            assertThat(h.writes().stream().filter(w -> w.method().equals("POST") && w.path().endsWith("/events")).count())
                    .as("every Event written by the run's end").isEqualTo(5);
        }
    }

    private static StatefulSetResult converge(Harness h, Cluster cluster) {
        Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                Assessor.Depth.APPLY, false, Optional.empty());
        return h.converger(cluster, "alice@laptop 1", GateAnswers.YES, Checkpoint.NONE).converge(a.items().get(0), Harness.options(), true);
    }

    private interface Around {
        Object call(String method, java.util.concurrent.Callable<Object> call) throws Exception;
    }

    private static Cluster proxy(Cluster real, Around around) {
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (p, method, args) -> around.call(method.getName(), () -> {
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw (Exception) e.getCause();
                    }
                }));
    }
}
