package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Quantity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run stopped right after each single write (lock, each claim patch, the orphan delete, the
 * re-apply, the release), as a crash would; then `resume` (odd) or a re-run of `apply` (even) from
 * another process finishes it with nothing lost: claims at target, pods with their UIDs, adopted.
 */
class CrashResumeTest {
    static final class Crash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crash(String what) {
            super("crashed right after: " + what);
        }
    }

    @TempDir Path home;

    @ParameterizedTest(name = "crash after write {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    void a_run_stopped_after_any_write_is_finished_by_resume_or_a_re_run(int crashAt) {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Map<String, String> podUids = new HashMap<>();
            for (int i = 0; i < 3; i++) {
                podUids.put("postgres-" + i, Harness.uid(h.pod("shop", "postgres-" + i)));
            }
            List<String> writes = new ArrayList<>();
            AtomicInteger n = new AtomicInteger();
            Checkpoint crash = w -> {
                writes.add(w);
                if (n.incrementAndGet() == crashAt) {
                    throw new Crash(w);
                }
            };
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            Converger first = h.converger(h.cluster(), "alice@laptop 1", GateAnswers.YES, crash);
            assertThatThrownBy(() -> first.converge(a.items().get(0), Harness.options(), true)).isInstanceOf(Crash.class);
            assertThat(writes).hasSize(crashAt);

            Path manifest = Commands.manifest(home, List.of(Demo.declared("postgres")));
            Commands.Run r = crashAt % 2 == 1
                    ? Commands.run(h, "resume", "--yes", "--timeout", "60s")
                    : Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "--timeout", "60s");
            assertThat(r.code()).as("after a crash after " + writes + "\n" + r.describe()).isZero();

            ObjectNode sts = h.sts("shop", "postgres");
            assertThat(sts).as("the StatefulSet exists").isNotNull();
            assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            assertThat(sts.at("/spec/replicas").asInt()).isEqualTo(3);
            for (int i = 0; i < 3; i++) {
                ObjectNode claim = h.claim("shop", "data-postgres-" + i);
                assertThat(Quantity.parse(claim.at("/spec/resources/requests/storage").asText())).isEqualByComparingTo(Quantity.parse("20Gi"));
                ObjectNode pod = h.pod("shop", "postgres-" + i);
                assertThat(Harness.uid(pod)).as("pod postgres-" + i + " not restarted").isEqualTo(podUids.get("postgres-" + i));
                String podName = "postgres-" + i;
                Harness.await(podName + " adopted by the re-created StatefulSet", () -> Harness.uid(h.sts("shop", "postgres"))
                        .equals(h.pod("shop", podName).at("/metadata/ownerReferences/0/uid").asText()));
            }
            assertThat(h.journal.all()).as("journal after the finish").isEmpty();
            ObjectNode lease = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
            assertThat(lease.at("/spec/holderIdentity").isMissingNode()).as("lease released: " + lease).isTrue();
        }
    }
}
