package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A resizer's failure that is a known limit of the claim's CSI driver ends the wait at its first word, with the
 * remedy; the driver is read from the claim's provisioner annotation or else from the resizer's Event; a word that is
 * no failure (a read-only mount) is said, not counted; the claims as their patches answered are the wait's first tick.
 */
class ResizeSignalsDriverLimitsTest {
    private static final String RATE = "rpc error: code = Internal desc = Could not resize volume \"vol-1\": VolumeModificationRateExceeded:"
            + " You've reached the maximum modification rate per volume limit.";

    private final MemoryCluster cluster = new MemoryCluster();
    private final List<ProgressEvent> said = new ArrayList<>();

    ResizeSignalsDriverLimitsTest() {
        cluster.put(ClaimGrowerTest.claim("data-db-0", "20Gi", "10Gi"));
    }

    private ResizeSignals signals() {
        return new ResizeSignals(cluster, cluster.time, said::add, "shop", "db", Map.of("data-db-0", "20Gi"), Map.of("data-db-0", "10Gi"),
                Map.of());
    }

    private void provisioner(String driver) {
        cluster.edit("PersistentVolumeClaim", "shop", "data-db-0", c -> Objects.child(Objects.child(c, "metadata"), "annotations")
                .put("volume.kubernetes.io/storage-provisioner", driver));
    }

    /** One VolumeResizeFailed about data-db-0, with {@code extra} fields (who reported it). */
    private void failed(String name, String message, int count, String extra) {
        ObjectNode e = MemoryCluster.json("{'kind':'Event','metadata':{'name':'" + name + "','namespace':'shop'},'involvedObject':{'kind':"
                + "'PersistentVolumeClaim','name':'data-db-0','uid':'u-data-db-0'},'reason':'VolumeResizeFailed','type':'Warning',"
                + "'count':" + count + extra + "}");
        e.put("message", message);
        cluster.put(e);
    }

    private static String endedBy(String words) {
        return "the resizer failed to expand claim data-db-0 (VolumeResizeFailed): " + words + ". ";
    }

    @Test
    void a_known_limit_of_the_claims_driver_ends_the_wait_at_its_first_word_with_its_remedy() {
        provisioner("ebs.csi.aws.com");
        failed("e1", RATE, 1, "");
        ResizeSignals s = signals();
        s.read();
        assertThat(s.failure("data-db-0")).startsWith(endedBy(RATE.substring(0, RATE.length() - 1)))
                .contains("EBS modifies a volume again only after its previous modification has completed");
    }

    @Test
    void the_driver_is_the_resizers_own_when_the_claim_names_no_provisioner() {
        failed("e1", RATE, 1, ",'source':{'component':'external-resizer ebs.csi.aws.com'}");
        ResizeSignals s = signals();
        s.read();
        assertThat(s.failure("data-db-0")).startsWith(endedBy(RATE.substring(0, RATE.length() - 1)));
    }

    @Test
    void an_event_that_names_its_reporter_only_as_reporting_component_gives_the_driver_too() {
        failed("e1", "VolumeModificationRateExceeded", 1, ",'reportingComponent':'external-resizer ebs.csi.aws.com'");
        ResizeSignals s = signals();
        s.read();
        assertThat(s.failure("data-db-0")).startsWith(endedBy("VolumeModificationRateExceeded"));
    }

    @Test
    void another_drivers_limit_is_one_failure_among_those_that_end_the_wait() {
        provisioner("pd.csi.storage.gke.io");
        failed("e1", RATE, 1, "");
        ResizeSignals s = signals();
        s.read();
        assertThat(s.failure("data-db-0")).isEmpty();
        failed("e1", RATE, ResizeSignals.FAILURES_THAT_END, "");
        s.read();
        assertThat(s.failure("data-db-0")).isEqualTo("the resizer failed 5 times to expand claim data-db-0 (VolumeResizeFailed): " + RATE);
    }

    @Test
    void a_read_only_mounts_word_is_said_with_why_it_is_no_failure_and_never_ends_the_wait() {
        failed("e1", "requested read-only file system", 9, "");
        ResizeSignals s = signals();
        ClaimGrower.ClaimStatus c = s.read().get(0);
        assertThat(s.failure("data-db-0")).isEmpty();
        assertThat(c.latest()).startsWith("VolumeResizeFailed ×9: requested read-only file system (FileSystemResizeFailed on a read-only"
                + " mount is the kubelet");
    }

    @Test
    void the_claims_as_their_patches_answered_are_the_first_tick_without_a_read_and_a_status_at_work_is_a_sign_of_a_resizer() {
        ObjectNode answered = cluster.get("PersistentVolumeClaim", "shop", "data-db-0").orElseThrow();
        Objects.child(Objects.child(answered, "status"), "allocatedResourceStatuses").put("storage", "ControllerResizeInProgress");
        ResizeSignals s = signals();
        List<ClaimGrower.ClaimStatus> first = s.answered(Map.of("data-db-0", answered));
        assertThat(cluster.reads()).isEmpty();
        assertThat(first).singleElement().satisfies(c -> {
            assertThat(c.state()).isEqualTo(ClaimGrower.State.WAITING);
            assertThat(c.from()).isEqualTo("10Gi");
            assertThat(c.capacity()).isEqualTo("10Gi");
        });
        assertThat(s.last()).isEqualTo(first);
        cluster.time.advance(Duration.ofMinutes(2));
        s.read();
        assertThat(said).as("its resizer was seen at work: no 'no sign of a resizer'").isEmpty();
    }

    @Test
    void a_claim_absent_from_the_patches_answers_is_gone() {
        assertThat(signals().answered(Map.of())).singleElement().satisfies(c -> assertThat(c.state()).isEqualTo(ClaimGrower.State.GONE));
    }
}
