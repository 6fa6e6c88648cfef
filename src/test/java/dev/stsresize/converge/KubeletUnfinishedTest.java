package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * "The kubelet has not finished" is one rule: the wait for the file systems and the later look at a
 * run's result ({@link Converger#reread}) read a claim alike, whatever its node resize status says.
 */
class KubeletUnfinishedTest {
    @TempDir Path home;

    @ParameterizedTest(name = "status {0}, FileSystemResizePending {1}: kubelet unfinished {2}")
    @CsvSource({"'', false, false", "NodeResizePending, false, true", "NodeResizeInProgress, false, true",
            "NodeResizeInfeasible, false, true", "ControllerResizeInProgress, false, false", "'', true, true"})
    void the_wait_and_the_result_read_a_claim_alike(String status, boolean fsPending, boolean unfinished) {
        ObjectNode claim = Objects.MAPPER.createObjectNode();
        claim.putObject("metadata").put("name", "data-db-0").put("namespace", "ns");
        claim.putObject("spec").putObject("resources").putObject("requests").put("storage", "20Gi");
        ObjectNode st = claim.putObject("status");
        st.putObject("capacity").put("storage", "20Gi");
        if (!status.isEmpty()) {
            st.putObject("allocatedResourceStatuses").put("storage", status);
        }
        if (fsPending) {
            st.putArray("conditions").addObject().put("type", "FileSystemResizePending").put("status", "True");
        }
        assertThat(FileSystems.kubeletUnfinished(claim)).isEqualTo(unfinished);

        Cluster cluster = (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (p, m, args) -> switch (m.getName()) {
                    case "getClaim" -> Optional.of(claim);
                    case "getPod" -> Optional.empty();
                    default -> throw new UnsupportedOperationException(m.getName());
                });
        Converger converger = new Converger(cluster, Clock.systemUTC(), new Journal(home), "alice@laptop 1", "https://x", GateAnswers.YES,
                Progress.NONE, Checkpoint.NONE);
        StatefulSetResult.ClaimResult left = new StatefulSetResult.ClaimResult("data-db-0", "10Gi", "20Gi", "10Gi")
                .withFileSystem(FileSystem.PENDING, -1);
        StatefulSetResult r = converger.reread(new StatefulSetResult("ns", "db", Outcome.CONVERGED, "", "done", List.of(left), List.of(),
                List.of()));
        assertThat(r.claims().get(0).fileSystem()).as("the result read again").isEqualTo(unfinished ? FileSystem.PENDING : FileSystem.GROWN);
    }
}
