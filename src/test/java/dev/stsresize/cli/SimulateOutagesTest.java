package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate --faults} with {@code down:}: a bad outage, or one with no controllers to take down,
 * is one error paragraph naming the file and the fix, before the server starts (no kubeconfig written).
 */
class SimulateOutagesTest {
    @TempDir Path dir;

    private PlanCommandTest.Run simulate(String faults, String... more) throws Exception {
        Path state = dir.resolve("state.yaml");
        Files.writeString(state, "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n");
        Path file = dir.resolve("faults.yaml");
        Files.writeString(file, faults);
        String[] args = {"simulate", "--state", state.toString(), "--kubeconfig-out", dir.resolve("kubeconfig").toString(),
            "--faults", file.toString()};
        String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.Arrays.stream(more)).toArray(String[]::new);
        return PlanCommandTest.run(all);
    }

    @Test
    void an_outage_without_controllers_is_refused_before_the_server_starts() throws Exception {
        PlanCommandTest.Run r = simulate("down: [{component: kube-controller-manager, forSeconds: 60}]\n", "--no-controllers");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).as(r.describe()).startsWith("error: ").contains("takes kube-controller-manager down, but --no-controllers"
                + " runs none: remove --no-controllers, or the down: list.");
        assertThat(dir.resolve("kubeconfig")).doesNotExist();
    }

    @Test
    void an_unknown_component_names_the_entry_and_the_components() throws Exception {
        PlanCommandTest.Run r = simulate("down: [{component: etcd, forSeconds: 60}]\n");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).as(r.describe()).contains("down[0] has component \"etcd\"; use one of csi-resizer, kube-controller-manager,"
                + " kubelet. Fix --faults");
        assertThat(dir.resolve("kubeconfig")).doesNotExist();
    }

    @Test
    void the_example_outage_is_read_as_docs_commands_says() {
        assertThat(dev.stsresize.sim.fault.FaultFile.outages(Path.of("examples", "controller-manager-down.yaml"))).containsExactly(
                new dev.stsresize.sim.fault.FaultFile.Outage("kube-controller-manager", java.time.Duration.ofSeconds(20),
                        java.time.Duration.ofSeconds(120)));
    }
}
