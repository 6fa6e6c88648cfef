package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.FakeApiServer.Recorded;
import dev.stsresize.converge.Write;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The orphan delete's standalone kubectl command ({@link Write#kubectl()}), pasted into POSIX sh (dash
 * where /bin/sh is dash) and run by the real kubectl, sends the request the port sends: same method,
 * path and query, the same DeleteOptions. Skipped, saying why, without kubectl on PATH.
 */
class KubectlEquivalentTest {
    @TempDir Path home;

    @Test
    void theOrphanDeletesCommandRunsInShAndSendsWhatThePortSends() throws Exception {
        assumeTrue(onPath("kubectl"), "kubectl is not on PATH: this test runs the real kubectl");
        try (FakeApiServer server = FakeApiServer.http()) {
            server.onAnything(Answer.json(200, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\"}"));
            Path kubeconfig = Kubeconfigs.tokenConfig(home, server.url(), "t");
            new KubeCluster(Kubeconfigs.connect(kubeconfig, home)).deleteStatefulSetOrphan("shop", "postgres", "77c9c2f7-0cea-330f-afe3-b8c357b2a7da", false);
            Recorded byThePort = server.last();

            Write.OrphanDelete write = new Write.OrphanDelete("shop", "postgres", "77c9c2f7-0cea-330f-afe3-b8c357b2a7da");
            int before = server.requests().size();
            ProcessBuilder sh = new ProcessBuilder("sh", "-c", write.kubectl()).redirectErrorStream(true);
            sh.environment().put("KUBECONFIG", kubeconfig.toString());
            sh.environment().put("HOME", home.toString());
            Process p = sh.start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kubectl finished").isTrue();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as("sh -c " + write.kubectl() + "\n" + output).isZero();

            Recorded byKubectl = server.requests().subList(before, server.requests().size()).stream()
                    .filter(r -> r.method().equals("DELETE")).findFirst().orElseThrow(() -> new AssertionError("no DELETE sent:\n" + output));
            assertThat(byKubectl.path()).isEqualTo(byThePort.path()).isEqualTo("/apis/apps/v1/namespaces/shop/statefulsets/postgres");
            assertThat(byKubectl.query()).isEqualTo(byThePort.query());
            assertThat(TreeMapper.MAPPER.readTree(byKubectl.body())).isEqualTo(TreeMapper.MAPPER.readTree(byThePort.body()));
            assertThat(byKubectl.body()).as("the options as shown, byte for byte").isEqualTo(write.options() + "\n");
        }
    }

    private static boolean onPath(String tool) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
    }
}
