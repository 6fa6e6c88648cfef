package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order the requests sent together must keep, checked without a clock's noise: every Lease write is held
 * {@link #HELD_MILLIS} before it goes, so a write sent beside it, not after its answer, starts first. The
 * record's Secret is written only under a Lease that is ours (after the Lease's create was answered), and each
 * phase is answered before the write it protects: growing before the claims' patches, deleting before the
 * orphan delete, reapplying before the re-apply (their dry runs may go beside).
 */
class PhaseBeforeWriteTest {
    private static final long HELD_MILLIS = 150;

    @TempDir Path home;

    @Test
    void each_phase_is_answered_before_the_write_it_protects_and_the_secret_is_written_under_our_lease() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            AtomicLong tick = new AtomicLong();
            Map<String, Long> answered = new ConcurrentHashMap<>();
            Map<String, Long> sent = new ConcurrentHashMap<>();
            Cluster real = h.cluster();
            Cluster cluster = (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                    (p, method, args) -> {
                        String m = method.getName();
                        String write = switch (m) {
                            case "patchClaimStorage", "deleteStatefulSetOrphan", "applyStatefulSet" -> (Boolean) args[args.length - 1]
                                    ? null : m;
                            case "createSecret" -> m;
                            default -> null;
                        };
                        if (write != null) {
                            sent.putIfAbsent(write, tick.incrementAndGet());
                        }
                        if (m.equals("createLease") || m.equals("updateLease")) {
                            Thread.sleep(HELD_MILLIS);
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        } finally {
                            if (m.equals("createLease")) {
                                answered.putIfAbsent("lease", tick.incrementAndGet());
                            } else if (m.equals("updateLease")) {
                                String phase = ((ObjectNode) args[0]).path("metadata").path("annotations").path(LeaseLock.PHASE).asText();
                                answered.putIfAbsent(phase, tick.incrementAndGet());
                            }
                        }
                    });
            Assessment a = new Assessor(real, Progress.NONE).assess(List.of(Demo.declared("postgres")), false, Assessor.Depth.APPLY, false,
                    Optional.empty());
            StatefulSetResult r = h.converger(cluster, "alice@laptop 1", GateAnswers.YES, Checkpoint.NONE)
                    .converge(a.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(answered.get("lease")).as("the Lease ours before the record's Secret is written").isLessThan(sent.get("createSecret"));
            assertThat(answered.get(Phase.GROW.recorded())).as("growing, before the patches").isLessThan(sent.get("patchClaimStorage"));
            assertThat(answered.get(Phase.ORPHAN_DELETE.recorded())).as("deleting, before the orphan delete")
                    .isLessThan(sent.get("deleteStatefulSetOrphan"));
            assertThat(answered.get(Phase.REAPPLY.recorded())).as("reapplying, before the re-apply").isLessThan(sent.get("applyStatefulSet"));
        }
    }
}
