package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.node.VolumeContents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The copy migration stopped right after each single write of its first ordinal (lock; each old volume set to Retain;
 * the orphan delete; the eviction; the temporary claim; the copy pod; the new volume set to Retain; the copy pod's,
 * the temporary claim's and the original claim's deletes; the re-point; the claim re-created; the re-apply), and after
 * the second ordinal's re-apply, the reclaim and the release, as a {@code kill -9} would: {@code resume} from another
 * process finishes it with nothing lost — every claim under its name at the target, holding what it held, the old
 * volumes kept.
 */
class CopyCrashResumeTest {
    @TempDir Path home;

    @ParameterizedTest(name = "crash after write {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 26, 27, 28})
    void a_copy_stopped_after_any_write_is_finished_by_resume_with_nothing_lost(int crashAt) {
        try (Harness h = Harness.start(home, DemoScenario.copyCluster())) {
            Map<String, VolumeContents.Content> before = CopyMigrationTest.contentsBefore(h);
            Map<String, String> oldVolumes = new HashMap<>();
            before.keySet().forEach(c -> oldVolumes.put(c, h.claim(CopyMigrationTest.NS, c).at("/spec/volumeName").asText()));
            List<String> writes = new ArrayList<>();
            AtomicInteger n = new AtomicInteger();
            Checkpoint crash = w -> {
                writes.add(w);
                if (n.incrementAndGet() == crashAt) {
                    throw new CrashResumeTest.Crash(w);
                }
            };
            Converger first = h.converger(h.cluster(), "alice@laptop 1", GateAnswers.YES, crash);
            assertThatThrownBy(() -> first.converge(CopyMigrationTest.copyOf(h), CopyMigrationTest.copyOptions(), true))
                    .isInstanceOf(CrashResumeTest.Crash.class);

            Commands.Run r = Commands.run(h, "resume", "--yes", "--timeout", "60s");
            assertThat(r.code()).as("after a crash after " + writes + "\n" + r.describe()).isZero();

            for (String claim : before.keySet()) {
                ObjectNode c = h.claim(CopyMigrationTest.NS, claim);
                assertThat(c).as(claim + " exists after " + writes).isNotNull();
                String pv = c.at("/spec/volumeName").asText();
                assertThat(c.at("/status/capacity/storage").asText()).as(claim).isEqualTo("2Gi");
                assertThat(h.sim.volumeContents().of(pv, () -> -1L).manifestSha256()).as(claim + " holds what it held")
                        .isEqualTo(before.get(claim).manifestSha256());
                ObjectNode old = h.get("v1", "PersistentVolume", "", oldVolumes.get(claim));
                assertThat(old).as("old volume of " + claim + " kept").isNotNull();
                assertThat(old.at("/spec/persistentVolumeReclaimPolicy").asText()).isEqualTo("Retain");
            }
            ObjectNode sts = h.sts(CopyMigrationTest.NS, CopyMigrationTest.STS);
            assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
            assertThat(CopyMigrationTest.deletesOf(h, "persistentvolumes")).isEmpty();
            assertThat(h.journal.all()).as("journal after the finish").isEmpty();
        }
    }
}
