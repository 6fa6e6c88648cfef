package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.sim.demo.DemoScenario;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built launcher in a real terminal: tmux, 100x30, the demo's manifest and snapshot. Keys go in by
 * send-keys, the screen comes out by capture-pane. After quitting, the shell's own line must be back
 * and the tty in canonical mode with echo: the terminal was restored.
 */
class UiTmuxIT {
    private static final Path LAUNCHER = Paths.get(System.getProperty("stsresize.launcher", "target/kubectl-stsresize")).toAbsolutePath();
    private final String socket = "stsresize-it-" + UUID.randomUUID().toString().substring(0, 8);
    @TempDir Path dir;
    private Path manifest;
    private Path snapshot;

    @BeforeEach
    void files() throws IOException {
        assumeTrue(onPath("tmux"), "tmux is not installed: the end-to-end terminal test needs it (apt-get install tmux)");
        assumeTrue(Files.isExecutable(LAUNCHER), "the launcher " + LAUNCHER + " is not built: run mvn package first");
        manifest = write("manifest.yaml", DemoScenario.manifest());
        snapshot = write("live.yaml", DemoScenario.cluster());
    }

    @AfterEach
    void killServer() throws Exception {
        tmux("kill-server");
    }

    @Test
    void opensTheDiffOfAGrowRowAndQuitsRestoringTheTerminal() throws Exception {
        start(LAUNCHER + " ui -f " + manifest + " --live " + snapshot);
        awaitPane("StatefulSets[9]");
        // rows by name: clickhouse, kafka, etcd, mysql, ledger, elasticsearch, minio, postgres, redis
        for (int i = 0; i < 7; i++) {
            tmux("send-keys", "-t", "ui", "j");
        }
        tmux("send-keys", "-t", "ui", "Enter");
        // waiting for every line, not the first: capture-pane may catch the screen half drawn
        awaitPane("diff shop/postgres", "template data  10Gi → 20Gi",
                "data-postgres-0  10Gi     10Gi      20Gi    Bound    grow",
                "StorageClass fast-online  allowVolumeExpansion ✓ true",
                "kubectl patch pvc data-postgres-0 -n shop --type merge --field-manager=kubectl-stsresize \\");
        tmux("send-keys", "-t", "ui", "q");
        String after = awaitExit();
        assertThat(after).as("the alternate screen is gone").doesNotContain("diff shop/postgres");
        assertThat(after).as("the tty is back in canonical mode with echo").contains("TTY icanon echo");
    }

    @Test
    void readsKeysFromTheTerminalWhenTheManifestComesOnStdinAndCtrlCRestoresIt() throws Exception {
        start("cat " + manifest + " | " + LAUNCHER + " -f - --live " + snapshot + " -A");
        awaitPane("StatefulSets[9]", "manifest: stdin", "shop/postgres", "shop/redis");
        tmux("send-keys", "-t", "ui", "/", "redis");
        awaitPane("/redis");
        tmux("send-keys", "-t", "ui", "C-c");
        String after = awaitExit();
        assertThat(after).contains("TTY icanon echo");
    }

    /**
     * The whole wizard against the simulated cluster: demo opens the UI on it; to the postgres row, its
     * diff, the wizard through both gates (y, then the name typed), and the summary that reports each
     * pod adopted by the new StatefulSet with its UID unchanged, read back from the cluster.
     */
    @Test
    void demoConvergesAGrowRowThroughBothGatesToAVerifiedSummary() throws Exception {
        start(LAUNCHER + " demo --speed fast --dir " + dir.resolve("demo"));
        awaitPane("StatefulSets[9]", "context: sim", "shop/postgres");
        for (int i = 0; i < 7; i++) { // to shop/postgres, the 8th row
            tmux("send-keys", "-t", "ui", "j");
        }
        tmux("send-keys", "-t", "ui", "Enter");
        awaitPane("diff shop/postgres", "template data  10Gi → 20Gi", "kubectl patch pvc data-postgres-0 -n shop");
        tmux("send-keys", "-t", "ui", "Enter");
        awaitPane("resize shop/postgres", "Grow 3 claims of shop/postgres to 20Gi?", "data-postgres-2  10Gi");
        tmux("send-keys", "-t", "ui", "y");
        awaitPane("Type the StatefulSet's name to orphan-delete it", "data-postgres-0  20Gi     20Gi      20Gi    ✓ grown");
        tmux("send-keys", "-t", "ui", "-l", "postgres");
        tmux("send-keys", "-t", "ui", "Enter");
        String summary = awaitPane("Converged: verified from the objects read back",
                "✓ pod postgres-0  UID", "✓ pod postgres-2  UID", "✓ claim data-postgres-2  10Gi → 20Gi  capacity 20Gi");
        for (String pod : List.of("postgres-0", "postgres-1", "postgres-2")) {
            assertThat(summary).as("the summary's line of " + pod).containsPattern("✓ pod " + pod + "  UID [0-9a-f]{8} unchanged  owner the new StatefulSet");
        }
        assertThat(summary).contains("(re-created)");
        tmux("send-keys", "-t", "ui", "q");
        String after = awaitExit();
        assertThat(after).contains("TTY icanon echo");
        assertThat(after).as("demo says what became of its cluster").contains("The UI closed; the simulated cluster is stopped");
    }

    /**
     * Issue 15's flow: the demo's payments/ledger shown filling (92 %, red), e with its suggested size accepted,
     * the file's diff, y writes only that quantity, the diff of the new decision, the wizard, verified.
     */
    @Test
    void demoEditsTheFillingStatefulSetsManifestAndConvergesIt() throws Exception {
        Path demo = dir.resolve("demo");
        start(LAUNCHER + " demo --speed fast --dir " + demo, 120, 35);
        awaitPane("StatefulSets[9]", "context: sim", "payments/ledger", "USED", "92%");
        String coloured = tmux("capture-pane", "-e", "-p", "-t", "ui");
        assertThat(coloured).as("92 % is shown red").contains("\u001b[31m92%");
        String before = Files.readString(demo.resolve("manifest.yaml"));
        for (int i = 0; i < 4; i++) { // to payments/ledger, the 5th row
            tmux("send-keys", "-t", "ui", "j");
        }
        tmux("send-keys", "-t", "ui", "e");
        awaitPane("edit sizes [payments/ledger]", "payments/ledger data  10Gi -> [14Gi_]", "suggested: data-ledger-0 9");
        tmux("send-keys", "-t", "ui", "Enter");
        awaitPane("the manifest's diff [payments/ledger]", "-          storage: 10Gi", "+          storage: 14Gi");
        tmux("send-keys", "-t", "ui", "y");
        awaitPane("diff payments/ledger", "payments/ledger   GROW", "template data  10Gi → 14Gi", "manifest written (ledger data 10Gi → 14Gi)");
        String after = Files.readString(demo.resolve("manifest.yaml"));
        List<String> a = before.lines().toList();
        List<String> b = after.lines().toList();
        assertThat(b).hasSameSizeAs(a);
        List<Integer> changed = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equals(b.get(i))) {
                changed.add(i);
            }
        }
        assertThat(changed).as("one line of the file changed").hasSize(1);
        assertThat(b.get(changed.get(0))).isEqualTo(a.get(changed.get(0)).replace("10Gi", "14Gi"));
        tmux("send-keys", "-t", "ui", "Enter");
        awaitPane("resize payments/ledger", "Grow 3 claims of payments/ledger to 14Gi?");
        tmux("send-keys", "-t", "ui", "y");
        awaitPane("Type the StatefulSet's name to orphan-delete it");
        tmux("send-keys", "-t", "ui", "-l", "ledger");
        tmux("send-keys", "-t", "ui", "Enter");
        String summary = awaitPane("Converged: verified from the objects read back", "✓ claim data-ledger-2  10Gi → 14Gi  capacity 14Gi");
        assertThat(summary).containsPattern("✓ pod ledger-0  UID [0-9a-f]{8} unchanged  owner the new StatefulSet");
        tmux("send-keys", "-t", "ui", "q");
        assertThat(awaitExit()).contains("TTY icanon echo");
    }

    /**
     * An offline resize (clickhouse's class grows file systems only when the pod restarts): after the
     * adoption the summary says each file system waits, and p restarts the pods one at a time by
     * eviction; each pod comes back with a new UID, still owned by the new StatefulSet, and each claim
     * reaches its capacity, read back from the cluster.
     */
    @Test
    void demoRestartsThePodsOfAnOfflineResizeAfterTheAdoption() throws Exception {
        start(LAUNCHER + " demo --speed fast --dir " + dir.resolve("demo"), 120, 35);
        awaitPane("StatefulSets[9]", "context: sim", "analytics/clickhouse");
        tmux("send-keys", "-t", "ui", "a");
        awaitPane("resize analytics/clickhouse", "Grow 2 claims of analytics/clickhouse to 100Gi?");
        tmux("send-keys", "-t", "ui", "y");
        awaitPane("Type the StatefulSet's name to orphan-delete it", "file system pending");
        tmux("send-keys", "-t", "ui", "-l", "clickhouse");
        tmux("send-keys", "-t", "ui", "Enter");
        String adopted = awaitPane("Converged: verified from the objects read back",
                "claim data-clickhouse-0  50Gi → 100Gi  capacity 50Gi  file system waits for a restart of pod clickhouse-0",
                "The pods cannot use all of the new space yet",
                "p restarts those pods one at a time by eviction");
        assertThat(adopted).containsPattern("✓ pod clickhouse-1  UID [0-9a-f]{8} unchanged  owner the new StatefulSet");
        tmux("send-keys", "-t", "ui", "p");
        String restarted = awaitPane("✓ claim data-clickhouse-0  50Gi → 100Gi  capacity 100Gi",
                "✓ claim data-clickhouse-1  50Gi → 100Gi  capacity 100Gi");
        for (String pod : List.of("clickhouse-0", "clickhouse-1")) {
            assertThat(restarted).as("the summary's line of " + pod)
                    .containsPattern("✓ pod " + pod + "  restarted for its file system \\(UID ([0-9a-f]{8}) → (?!\\1)[0-9a-f]{8}\\)  owner the new StatefulSet");
        }
        tmux("send-keys", "-t", "ui", "q");
        assertThat(awaitExit()).contains("TTY icanon echo");
    }

    /**
     * A cluster whose RBAC forbids {@code nodes/proxy} (as many do): the simulated cluster answers the
     * kubelet summaries 403 with kube-apiserver's text, by a fault file. The UI lists and diffs as ever,
     * and says "usage unknown (cannot get nodes/proxy)" in the list's title and the diff, never as an error.
     */
    @Test
    void aClusterThatForbidsNodesProxyListsAndDiffsAndSaysUsageIsUnknown() throws Exception {
        Path faults = dir.resolve("faults.yaml");
        Files.writeString(faults, """
                faults:
                - verb: get
                  resource: nodes/proxy
                  status: 403
                  reason: Forbidden
                  message: 'nodes "node-1" is forbidden: User "alice" cannot get resource "nodes/proxy" in API group "" at the cluster scope'
                """);
        Path kubeconfig = dir.resolve("kubeconfig");
        Path simOut = dir.resolve("sim.out");
        Process sim = new ProcessBuilder(LAUNCHER.toString(), "simulate", "--state", snapshot.toString(), "--faults", faults.toString(),
                "--kubeconfig-out", kubeconfig.toString()).redirectErrorStream(true).redirectOutput(simOut.toFile()).start();
        try {
            Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
            while (!Files.readString(simOut).contains("ready ") && sim.isAlive() && Instant.now().isBefore(deadline)) {
                Thread.sleep(100);
            }
            assertThat(Files.readString(simOut)).as("the simulated cluster started").contains("ready ");
            start(LAUNCHER + " --kubeconfig " + kubeconfig + " -f " + manifest + " -A");
            String list = awaitPane("StatefulSets[9] usage unknown (cannot get nodes/proxy)", "shop/postgres", "payments/ledger");
            assertThat(list).as("no usage columns without usage").doesNotContain("FILLS IN").doesNotContainIgnoringCase("error");
            for (int i = 0; i < 7; i++) {
                tmux("send-keys", "-t", "ui", "j");
            }
            tmux("send-keys", "-t", "ui", "Enter");
            String diff = awaitPane("diff shop/postgres", "usage unknown (cannot get nodes/proxy)", "data-postgres-0");
            assertThat(diff).doesNotContain("usage usage");
            tmux("send-keys", "-t", "ui", "q");
            assertThat(awaitExit()).contains("TTY icanon echo");
        } finally {
            sim.destroy();
            sim.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * A real terminal resized under the UI, big to small and back, and Ctrl-L after text written behind
     * its back: each time the whole screen is there again — the header, the list's column header, every
     * row's whole name, the box's corners, a footer of whole hints — and nothing of what was there before.
     */
    @Test
    void aResizeFromBigToSmallAndBackAndCtrlLRedrawTheWholeScreen() throws Exception {
        start(LAUNCHER + " ui -f " + manifest + " --live " + snapshot + " -A", 250, 70);
        awaitWhole(250, 70);
        for (int[] size : new int[][] {{120, 40}, {250, 70}, {60, 20}, {80, 24}, {250, 70}, {60, 20}, {100, 30}}) {
            tmux("resize-window", "-t", "ui", "-x", String.valueOf(size[0]), "-y", String.valueOf(size[1]));
            awaitWhole(size[0], size[1]);
        }
        String tty = tmux("display-message", "-p", "-t", "ui", "#{pane_tty}").strip();
        Files.writeString(Path.of(tty), "\u001b[1;1HGARBAGE-BEHIND-THE-UI\u001b[9;5HGARBAGE-BEHIND-THE-UI");
        awaitPane("GARBAGE-BEHIND-THE-UI");
        tmux("send-keys", "-t", "ui", "C-l");
        awaitPane(pane -> !pane.contains("GARBAGE") && pane.startsWith(" stsresize │ context:"), "the screen drawn again without the garbage");
        tmux("send-keys", "-t", "ui", "q");
        assertThat(awaitExit()).contains("TTY icanon echo");
    }

    /** The pane at {@code columns}x{@code rows} with the header, the list's column header, every name, both box corners and the footer's hints. */
    private void awaitWhole(int columns, int rows) throws Exception {
        List<String> names = List.of("analytics/clickhouse", "analytics/kafka", "legacy/etcd", "legacy/mysql", "payments/ledger",
                "shop/elasticsearch", "shop/minio", "shop/postgres", "shop/redis");
        awaitPane(pane -> {
            List<String> lines = pane.lines().toList();
            return lines.size() >= rows && lines.get(0).startsWith(" stsresize │ context:") && lines.get(3).contains("NAMESPACE/NAME")
                    && lines.get(2).startsWith("┌") && lines.get(2).length() == columns && lines.get(rows - 3).startsWith("└")
                    && lines.get(rows - 3).length() == columns && lines.get(rows - 1).startsWith(" <enter> diff  <a> apply")
                    && lines.get(rows - 1).contains("<q> quit") && !lines.get(rows - 1).contains("…")
                    && names.stream().allMatch(n -> pane.contains("│ " + n + " "));
        }, "the whole screen at " + columns + "x" + rows);
    }

    private void start(String command) throws Exception {
        start(command, 100, 30);
    }

    private void start(String command, int columns, int rows) throws Exception {
        // report how the program ended and how it left the tty, then wait to be captured
        String script = "export LANG=C.UTF-8 TERM=xterm-256color; " + command + "; echo EXITED $?; "
                + "echo TTY $(stty -a | tr ' ;' '\\n\\n' | grep -x -e '-\\?icanon' -e '-\\?echo' | tr '\\n' ' '); echo END-OF-RUN; sleep 60";
        tmux("new-session", "-d", "-s", "ui", "-x", String.valueOf(columns), "-y", String.valueOf(rows), "sh", "-c", script);
    }

    /**
     * The pane once the shell has printed its last line, END-OF-RUN, after EXITED and the tty line: every
     * line asserted on after the exit comes before it, so none is raced (waiting for "EXITED" alone flaked
     * under load, the tty line being printed after it).
     */
    private String awaitExit() throws Exception {
        return awaitPane(pane -> pane.contains("EXITED 0") && pane.contains("END-OF-RUN"), "EXITED 0 and END-OF-RUN");
    }

    /** The pane once it shows every one of {@code texts}. */
    private String awaitPane(String... texts) throws Exception {
        return awaitPane(pane -> java.util.Arrays.stream(texts).allMatch(pane::contains), java.util.Arrays.toString(texts));
    }

    private String awaitPane(java.util.function.Predicate<String> shown, String what) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        String pane = "";
        while (Instant.now().isBefore(deadline)) {
            pane = tmux("capture-pane", "-p", "-t", "ui");
            if (shown.test(pane)) {
                return pane;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(what + " never all appeared; the pane:\n" + pane);
    }

    private String tmux(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new String(out, StandardCharsets.UTF_8);
    }

    private Path write(String name, List<ObjectNode> objects) throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        StringBuilder b = new StringBuilder();
        for (ObjectNode o : objects) {
            b.append(yaml.writeValueAsString(o));
        }
        Path file = dir.resolve(name);
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private static boolean onPath(String tool) {
        return dev.stsresize.testkit.Processes.onPath(tool);
    }
}
