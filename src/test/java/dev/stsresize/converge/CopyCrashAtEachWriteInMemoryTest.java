package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static dev.stsresize.converge.CopyWorld.STS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A copy whose process dies right after any one of its writes keeps its data: {@code resume} finishes it with each claim
 * at the target on a new volume, the old volumes kept, every delete proven, and no copy made twice — wherever the crash
 * fell.
 */
class CopyCrashAtEachWriteInMemoryTest extends OnCopyWorld {
    /** The writes of a whole copy of the two pods, in order, each a checkpoint where the process may die. */
    static final List<String> WRITES = List.of("lock web",
            "reclaim policy Retain old-0", "reclaim policy Retain old-1", "orphan-delete statefulset web",
            "evict web-1", "create claim stsresize-copy-data-web-1", "copy pod stsresize-copy-data-web-1", "reclaim policy Retain new-1",
            "delete copy pod stsresize-copy-data-web-1", "delete claim stsresize-copy-data-web-1", "delete claim data-web-1",
            "re-point new-1", "create claim data-web-1", "re-apply statefulset web", "orphan-delete statefulset web",
            "evict web-0", "create claim stsresize-copy-data-web-0", "copy pod stsresize-copy-data-web-0", "reclaim policy Retain new-0",
            "delete copy pod stsresize-copy-data-web-0", "delete claim stsresize-copy-data-web-0", "delete claim data-web-0",
            "re-point new-0", "create claim data-web-0", "re-apply statefulset web",
            "reclaim policy Delete new-0", "reclaim policy Delete new-1", "release web");

    static java.util.stream.IntStream crashes() {
        return java.util.stream.IntStream.range(1, WRITES.size());
    }

    @Test
    void every_write_of_the_copy_is_a_point_where_the_process_may_die() {
        StatefulSetResult r = run();
        List<String> named = c.checkpoints.stream().map(w -> {
            for (StatefulSetResult.ClaimResult claim : r.claims()) {
                String ordinal = claim.name().substring(claim.name().length() - 1);
                w = w.replace(claim.copied().previousVolume(), "old-" + ordinal).replace(claim.copied().volume(), "new-" + ordinal);
            }
            return w;
        }).toList();
        assertThat(named).isEqualTo(WRITES);
    }

    @ParameterizedTest(name = "dies after write {0}")
    @MethodSource("crashes")
    void a_copy_that_dies_after_any_write_is_finished_by_resume_with_its_data_kept(int write) {
        c.diesAfter = write;
        assertThatThrownBy(this::run).hasMessageStartingWith("the process dies after: ");

        StatefulSetResult r = c.resume();

        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        for (int i = 0; i < 2; i++) {
            assertThat(c.claimOf(i).at("/status/capacity/storage").asText()).isEqualTo(CopyWorld.SIZE);
        }
        for (StatefulSetResult.ClaimResult claim : r.claims()) {
            assertThat(c.volume(claim.copied().previousVolume()).orElseThrow().at("/status/phase").asText()).isEqualTo("Released");
            assertThat(r.detail()).contains(claim.copied().previousVolume());
        }
        String died = WRITES.get(write - 1);
        boolean proofLost = died.startsWith("delete copy pod") || died.startsWith("delete claim stsresize-copy-");
        assertThat(c.sent("createCopyPod")).as("a claim copied again only where its proof went with its copy pod")
                .hasSize(proofLost ? 3 : 2);
        assertThat(c.w.journal.read(NS, STS)).isEmpty();
        c.assertSafe();
    }
}
