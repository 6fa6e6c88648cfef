package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cli.Cli;
import dev.stsresize.testkit.Processes;
import dev.stsresize.sim.demo.DemoScenario;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With KUBECONFIG unset and $HOME not the passwd entry's home (sudo, containers, CI runners), the plugin reads the
 * kubeconfig kubectl reads, says which cluster before anything else, and keeps its journal under that same home.
 */
class SameClusterAsKubectlTest {
    @TempDir Path home;
    @TempDir Path passwdHome;

    @Test
    void plan_and_apply_reach_the_cluster_of_HOME_and_say_so_before_any_write() throws IOException {
        try (Harness h = Harness.start(home.resolve("sim"), DemoScenario.cluster())) {
            Path kubeHome = home.resolve("h");
            Files.createDirectories(kubeHome.resolve(".kube"));
            Files.copy(h.kubeconfig(), kubeHome.resolve(".kube").resolve("config"));
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            // where the passwd entry's home would lead: a kubeconfig of a server nobody listens on
            Files.createDirectories(passwdHome.resolve(".kube"));
            Files.writeString(passwdHome.resolve(".kube").resolve("config"), """
                    apiVersion: v1
                    kind: Config
                    current-context: elsewhere
                    clusters: [{name: elsewhere, cluster: {server: "https://127.0.0.1:9"}}]
                    users: [{name: u, user: {token: t}}]
                    contexts: [{name: elsewhere, context: {cluster: elsewhere, user: u}}]
                    """);
            Map<String, String> env = Map.of("HOME", kubeHome.toString());
            String before = System.getProperty("user.home");
            System.setProperty("user.home", passwdHome.toString());
            try {
                Commands.Run plan = run(env, "plan", "-f", manifest.toString());
                assertThat(plan.code()).as(plan.describe()).isEqualTo(0);
                assertThat(plan.err()).as(plan.describe()).startsWith("cluster: " + h.sim.url())
                        .contains("context \"sim\" of " + kubeHome.resolve(".kube").resolve("config"));

                Commands.Run apply = run(env, "apply", "--yes", "-f", manifest.toString());
                assertThat(apply.code()).as(apply.describe()).isEqualTo(0);
                assertThat(apply.err()).as(apply.describe()).startsWith("cluster: " + h.sim.url());
                assertThat(kubeHome.resolve(".local/state/kubectl-stsresize")).as("the journal's folder under $HOME").isDirectory();
                assertThat(passwdHome.resolve(".local")).doesNotExist();
            } finally {
                System.setProperty("user.home", before);
            }
        }
    }

    @Test
    void the_cluster_named_is_the_one_kubectl_reaches_with_the_same_environment() throws Exception {
        Assumptions.assumeTrue(Processes.onPath("kubectl"), "kubectl is not on PATH");
        try (Harness h = Harness.start(home.resolve("sim"), DemoScenario.cluster())) {
            Path kubeHome = home.resolve("h");
            Files.createDirectories(kubeHome.resolve(".kube"));
            Files.copy(h.kubeconfig(), kubeHome.resolve(".kube").resolve("config"));
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            Processes.Result kubectl = Processes.run(Map.of("HOME", kubeHome.toString(), "KUBECONFIG", ""), home, Duration.ofSeconds(30),
                    "kubectl", "config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}");
            assertThat(kubectl.code()).as(kubectl.err()).isZero();
            Commands.Run plan = run(Map.of("HOME", kubeHome.toString()), "plan", "-f", manifest.toString());
            assertThat(plan.err()).as(plan.describe()).startsWith("cluster: " + kubectl.out().trim() + " (");
        }
    }

    private static Commands.Run run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new Cli(new PrintWriter(out), new PrintWriter(err), new ByteArrayInputStream(new byte[0]), env, false,
                Optional::empty, Checkpoint.NONE).run(args);
        return new Commands.Run(code, out.toString(), err.toString());
    }
}
