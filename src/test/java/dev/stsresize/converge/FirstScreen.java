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
 * {@link ClusterDecisions#loadFirst} that {@code ui} runs before its first list (a build without it: its
 * whole {@code load}), timed from the connection to the list drawn on a virtual terminal, then the
 * proofs that fill it in. Prints {@code FIRST_SCREEN <ms> <decisions> <calls> <calls in sequence>
 * <ms to proofs in> <calls> <calls in sequence> <decisions>}: the calls through the {@code Cluster}
 * port, and the longest chain of them each sent after the one before it was answered (the round trips
 * on the critical path, counted without a clock's noise), up to the list drawn, then up to the proofs
 * in. Arguments: kubeconfig, manifest.
 */
public final class FirstScreen {
    private FirstScreen() {}

    /**
     * The most calls of which each started after the one before it ended: the round trips on the
     * critical path. With a latency added to every request, calls sent together overlap, and one sent
     * after another's answer does not.
     */
    static int longestChain(List<long[]> calls) {
        List<long[]> sorted = new java.util.ArrayList<>(calls);
        sorted.sort(java.util.Comparator.comparingLong(c -> c[1]));
        int[] chain = new int[sorted.size()];
        int best = 0;
        for (int i = 0; i < sorted.size(); i++) {
            chain[i] = 1;
            for (int j = 0; j < i; j++) {
                if (sorted.get(j)[1] <= sorted.get(i)[0]) {
                    chain[i] = Math.max(chain[i], chain[j] + 1);
                }
            }
            best = Math.max(best, chain[i]);
        }
        return best;
    }

    /** The first list drawn as the UI draws it (Update, then the frame on a virtual terminal of 120 × 40). */
    private static void drawn(Loaded listed) throws java.io.IOException {
        var vt = new com.googlecode.lanterna.terminal.virtual.DefaultVirtualTerminal(new com.googlecode.lanterna.TerminalSize(120, 40));
        var screen = new com.googlecode.lanterna.screen.TerminalScreen(vt);
        screen.startScreen();
        var state = dev.stsresize.tui.Update.apply(dev.stsresize.tui.UiState.initial(120, 40), new dev.stsresize.tui.UiEvent.DecisionsLoaded(listed))
                .state();
        new dev.stsresize.tui.terminal.TerminalFrame(new dev.stsresize.tui.terminal.Theme(false), dev.stsresize.tui.Glyphs.UNICODE)
                .draw(state, screen.newTextGraphics());
        screen.refresh();
    }

    public static void main(String[] args) throws Exception {
        Path home = Files.createTempDirectory("first-screen");
        long start = System.nanoTime();
        ConnectionSettings s = ConnectionSettings.defaults().withKubeconfig(Path.of(args[0]));
        var conn = KubeClients.connect(s, new ClientEnvironment(Map.of(), home, home.resolve("no-sa"), false), "bench",
                new PrintWriter(new StringWriter()));
        Cluster real = new RetryingCluster(new KubeCluster(conn));
        // every call through the port, with when it started and ended
        List<long[]> calls = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Cluster cluster = TimedCluster.of(real, calls);
        ClusterDecisions source = new ClusterDecisions(cluster, new ByteArrayInputStream(new byte[0]), List.of(args[1]), false,
                "default", false, true, "bench", "", new Journal(home.resolve("journal")));
        // the list as ui draws it first: a build without loadFirst draws after its whole load
        java.lang.reflect.Method first;
        try {
            first = ClusterDecisions.class.getMethod("loadFirst");
        } catch (NoSuchMethodException before) {
            first = ClusterDecisions.class.getMethod("load");
        }
        Loaded listed = (Loaded) first.invoke(source);
        drawn(listed);
        long listedAt = System.nanoTime();
        int listCalls = calls.size();
        int listChain = longestChain(calls);
        Loaded proved = first.getName().equals("load") ? listed : (Loaded) ClusterDecisions.class.getMethod("prove").invoke(source);
        long provedAt = System.nanoTime();
        System.out.println("FIRST_SCREEN " + (listedAt - start) / 1_000_000 + " " + listed.decisions().size() + " " + listCalls + " "
                + listChain + " " + (provedAt - start) / 1_000_000 + " " + calls.size() + " " + longestChain(calls) + " "
                + proved.decisions().size());
        System.exit(0);
    }
}
