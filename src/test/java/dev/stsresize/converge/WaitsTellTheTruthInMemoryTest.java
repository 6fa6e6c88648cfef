package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * What a wait's ticks say: the time left counts down to the run's deadline (the file systems' wait goes one
 * stretch at a time, and a stretch's end is not the deadline), and a wait never names a claim that has grown
 * meanwhile.
 */
class WaitsTellTheTruthInMemoryTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final Heard heard = new Heard();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, heard, new StopRequest());

    private ObjectNode claim(String name, boolean fileSystemPending) {
        ObjectNode c = MemoryCluster.json(ClaimGrowerTest.claim(name, "20Gi", "20Gi"));
        if (fileSystemPending) {
            ((ObjectNode) c.path("status")).putArray("conditions").addObject().put("type", "FileSystemResizePending").put("status", "True");
        }
        return cluster.put(c);
    }

    private void pod(String pod, String claim) {
        cluster.put("{'kind':'Pod','metadata':{'name':'" + pod + "','namespace':'shop'},"
                + "'spec':{'nodeName':'n1','volumes':[{'name':'data','persistentVolumeClaim':{'claimName':'" + claim + "'}}]},"
                + "'status':{'phase':'Running'}}");
    }

    @Test
    void the_file_systems_wait_counts_down_to_its_deadline_across_stretches_never_a_stretchs_window() {
        pod("db-0", "data-db-0");
        claim("data-db-0", true);
        Instant start = cluster.time.instant();
        Duration fsTimeout = Duration.ofMinutes(2);
        new FileSystems(cluster, waiter, cluster.time).follow("shop", "db", Map.of("data-db-0", "20Gi"), start.plus(fsTimeout),
                new StopRequest(), List::of);

        List<WaitTick> ticks = heard.ticks;
        assertThat(ticks.size()).as("the wait spans many stretches of %s", Waiter.TICK).isGreaterThan(5);
        assertThat(ticks.get(0).left()).as("the first tick: what is left of --fs-timeout").isGreaterThan(fsTimeout.minus(Waiter.TICK));
        for (int i = 1; i < ticks.size(); i++) {
            WaitTick before = ticks.get(i - 1);
            WaitTick now = ticks.get(i);
            assertThat(now.left()).as("tick %d: left counts down (%s then %s)", i, before.left(), now.left()).isLessThanOrEqualTo(before.left());
            assertThat(now.elapsed()).as("tick %d: elapsed counts up (%s then %s)", i, before.elapsed(), now.elapsed())
                    .isGreaterThanOrEqualTo(before.elapsed());
            assertThat(now.elapsed().plus(now.left())).as("tick %d: elapsed and left add up to the deadline", i)
                    .isEqualTo(fsTimeout);
        }
    }

    @Test
    void a_claim_grown_during_an_earlier_claims_wait_is_read_again_and_never_named_by_a_wait() {
        pod("db-0", "data-db-0");
        pod("db-1", "data-db-1");
        claim("data-db-0", true);
        claim("data-db-1", true);
        AtomicBoolean grown = new AtomicBoolean();
        Map<String, String> targets = new LinkedHashMap<>();
        targets.put("data-db-0", "20Gi");
        targets.put("data-db-1", "20Gi");
        Map<String, FileSystems.Checked> out = new FileSystems(cluster, waiter, cluster.time).follow("shop", "db", targets,
                cluster.time.instant().plus(Duration.ofSeconds(30)), new StopRequest(), () -> {
                    // the kubelet grows the second claim's file system while the run waits for the first one's
                    if (grown.compareAndSet(false, true)) {
                        claim("data-db-1", false);
                    }
                    return List.of();
                });

        assertThat(out.get("data-db-1").state()).isEqualTo(FileSystem.GROWN);
        assertThat(heard.ticks).as("ticks").isNotEmpty()
                .noneMatch(t -> t.what().contains("data-db-1"));
    }
}
