package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.cluster.Cluster;
import dev.stsresize.testkit.Await;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The one pool of requests sent together ({@link Together}): what the assessment and the converge's
 * steps send at once, from any number of threads, never puts more than {@link Together#IN_FLIGHT}
 * requests on the wire, and a task that sends its own requests together cannot starve the pool.
 */
class TogetherLanesTest {
    private static final int LIMIT = Together.IN_FLIGHT;
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Test
    void tasks_together_answer_in_order_and_the_first_failure_is_thrown_as_it_was() {
        List<String> order = new ArrayList<>();
        List<Callable<String>> tasks = List.of(() -> "a", () -> "b", () -> "c");
        assertThat(Together.all(tasks, order::add)).containsExactly("a", "b", "c");
        assertThat(order).containsExactly("a", "b", "c");
        assertThat(Together.all(List.of(() -> "one"))).containsExactly("one");
        assertThat(Together.all(List.<Callable<String>>of())).isEmpty();

        List<String> told = new ArrayList<>();
        List<Callable<String>> failing = List.of(() -> "a", () -> {
            throw new IllegalArgumentException("b failed");
        }, () -> {
            throw new java.io.IOException("c failed");
        });
        assertThatThrownBy(() -> Together.all(failing, told::add)).isInstanceOf(IllegalArgumentException.class).hasMessage("b failed");
        assertThat(told).as("told in order up to the first failure").containsExactly("a");
        assertThatThrownBy(() -> Together.all(List.of(() -> "a", () -> {
            throw new java.io.IOException("checked");
        }))).isInstanceOf(IllegalStateException.class).hasRootCauseMessage("checked");
        assertThatThrownBy(() -> Together.all(List.of(() -> "a", () -> {
            throw new AssertionError("an error");
        }))).isInstanceOf(AssertionError.class).hasMessage("an error");
        assertThatThrownBy(() -> Together.all(List.of(() -> {
            throw new java.io.IOException("alone");
        }))).isInstanceOf(IllegalStateException.class).hasRootCauseMessage("alone");
    }

    @Test
    void two_callers_sending_together_at_once_share_the_one_limit_of_requests_in_flight() throws Exception {
        Counted cluster = new Counted(new MemoryCluster(), true);
        // the assessment's proofs and a converge step's reads, each twice as many as the limit, at the same time
        Thread assessment = caller(() -> Together.all(reads(cluster.port, 2 * LIMIT)));
        Thread step = caller(() -> Together.all(reads(cluster.port, 2 * LIMIT)));
        answeredOnceBothWaitForALane(cluster, assessment, step);
        assertThat(cluster.calls.get()).as("every request sent").isEqualTo(4 * LIMIT);
        assertThat(cluster.most.get()).as("requests in flight at once, both callers together").isLessThanOrEqualTo(LIMIT);
    }

    @Test
    void a_task_that_sends_its_own_requests_together_does_not_starve_the_pool() throws Exception {
        Counted cluster = new Counted(new MemoryCluster(), false);
        // every lane held by an outer task before any sends its own requests: a pool whose inner tasks
        // waited for a free lane (or a free thread of a fixed pool) would never move again
        CountDownLatch everyLaneHeld = new CountDownLatch(LIMIT);
        List<Callable<Integer>> outer = new ArrayList<>();
        for (int i = 0; i < 2 * LIMIT; i++) {
            outer.add(() -> {
                everyLaneHeld.countDown();
                everyLaneHeld.await();
                java.util.concurrent.Future<List<String>> started = Together.start(() -> Together.all(reads(cluster.port, 3)));
                int n = Together.all(reads(cluster.port, 2 * LIMIT)).size();
                return n + Together.join(started).size();
            });
        }
        List<Integer> answered = new ArrayList<>();
        Thread caller = caller(() -> answered.addAll(Together.all(outer)));
        Await.until("every outer task answered", DEADLINE, Duration.ofMillis(5), () -> !caller.isAlive());
        assertThat(answered).hasSize(2 * LIMIT).containsOnly(2 * LIMIT + 3);
        assertThat(cluster.most.get()).as("requests in flight at once, nested or not").isLessThanOrEqualTo(LIMIT);
    }

    @Test
    void a_caller_that_sent_requests_before_still_waits_for_a_lane_like_any_other() throws Exception {
        Counted earlier = new Counted(new MemoryCluster(), false);
        Counted cluster = new Counted(new MemoryCluster(), true);
        // each caller's first request ran on its own thread, in a lane it gave back when answered
        Thread assessment = caller(() -> {
            Together.all(reads(earlier.port, 1));
            Together.all(reads(cluster.port, 2 * LIMIT));
        });
        Thread step = caller(() -> {
            Together.all(reads(earlier.port, 1));
            Together.all(reads(cluster.port, 2 * LIMIT));
        });
        answeredOnceBothWaitForALane(cluster, assessment, step);
        assertThat(cluster.calls.get()).isEqualTo(4 * LIMIT);
        assertThat(cluster.most.get()).as("requests in flight at once").isLessThanOrEqualTo(LIMIT);
    }

    @Test
    void a_caller_interrupted_while_it_waits_for_an_answer_gets_the_answer_and_keeps_the_interrupt() {
        CountDownLatch running = new CountDownLatch(1);
        java.util.concurrent.Future<String> slow = Together.start(() -> {
            running.countDown();
            Thread.sleep(100);
            return "answered";
        });
        try {
            running.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        Thread.currentThread().interrupt();
        assertThat(Together.join(slow)).isEqualTo("answered");
        assertThat(Thread.interrupted()).as("the interrupt kept for the caller").isTrue();
    }

    /** {@code n} reads of pods that do not exist, each answering its pod's name. */
    private static List<Callable<String>> reads(Cluster cluster, int n) {
        List<Callable<String>> reads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String pod = "pod-" + i;
            reads.add(() -> cluster.getPod("default", pod).map(Objects::name).orElse(pod));
        }
        return reads;
    }

    private static Thread caller(Runnable r) {
        Thread t = new Thread(r, "test-caller");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * The port in memory, counting the calls in flight at once; when {@code held}, each call waits for
     * {@link #answer} before it is answered, so that every call the pool lets out is in flight together.
     */
    private static final class Counted {
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch answer = new CountDownLatch(1);
        final Cluster port;

        Counted(MemoryCluster memory, boolean held) {
            if (!held) {
                answer.countDown();
            }
            port = (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class}, (proxy, m, args) -> {
                calls.incrementAndGet();
                most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    answer.await();
                    return m.invoke(memory, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        }
    }

    /**
     * Holds every answer of {@code cluster} back until every lane is taken and both callers wait for one (or the limit is
     * passed), then answers and waits for both callers to end.
     */
    private static void answeredOnceBothWaitForALane(Counted cluster, Thread one, Thread other) throws InterruptedException {
        Await.until("every lane taken and both callers waiting for one (or more than " + LIMIT + " sent)", DEADLINE,
                Duration.ofMillis(2), () -> cluster.inFlight.get() > LIMIT
                        || cluster.inFlight.get() == LIMIT && Together.waitingForALane() == 2);
        cluster.answer.countDown();
        one.join();
        other.join();
    }
}
