package dev.stsresize.converge;

import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ConnectionSettings;
import dev.stsresize.cluster.KubeClients;
import dev.stsresize.cluster.KubeCluster;
import dev.stsresize.cluster.RetryingCluster;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.source.ClusterDecisions;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * For {@link LatencyBenchmark}, in a JVM of its own: what the UI's list waits for, the
 * {@link ClusterDecisions#load} that {@code ui} runs before its first list, timed from the connection
 * to the decisions. Prints {@code FIRST_SCREEN <ms> <decisions>}. Arguments: kubeconfig, manifest.
 */
public final class FirstScreen {
    private FirstScreen() {}

    public static void main(String[] args) throws Exception {
        Path home = Files.createTempDirectory("first-screen");
        long start = System.nanoTime();
        ConnectionSettings s = ConnectionSettings.defaults().withKubeconfig(Path.of(args[0]));
        var conn = KubeClients.connect(s, new ClientEnvironment(Map.of(), home, home.resolve("no-sa"), false), "bench",
                new PrintWriter(new StringWriter()));
        Cluster cluster = new RetryingCluster(new KubeCluster(conn));
        ClusterDecisions source = new ClusterDecisions(cluster, new ByteArrayInputStream(new byte[0]), List.of(args[1]), false,
                "default", false, true, "bench", "", new Journal(home.resolve("journal")));
        Loaded loaded = source.load();
        System.out.println("FIRST_SCREEN " + (System.nanoTime() - start) / 1_000_000 + " " + loaded.decisions().size());
        System.exit(0);
    }
}
