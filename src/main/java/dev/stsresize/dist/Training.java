package dev.stsresize.dist;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stsresize.cli.Cli;
import dev.stsresize.cli.QuickAnswers;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The training run behind the class-data-sharing archive (AOT cache on JDK 25+) that the launcher
 * builds on first use: the commands an operator runs, on the real code path, so the archive holds
 * the classes they load: offline, and live against a simulated cluster in a child JVM. Prints
 * nothing; writes only a temporary directory it removes. When the simulated cluster does not start
 * within a minute, the live part is skipped, not failed.
 */
public final class Training {
    private Training() {}

    private static final String CLUSTER = "--simulated-cluster";

    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals(CLUSTER)) {
            cluster(Path.of(args[1]));
            return;
        }
        Path dir = Files.createTempDirectory("stsresize-training");
        try {
            Path manifest = write(dir.resolve("manifest.yaml"), DemoScenario.manifest());
            Path live = write(dir.resolve("live.yaml"), DemoScenario.cluster());
            Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), KUBECONFIG);
            String m = manifest.toString();
            String l = live.toString();
            // as Main answers them off a terminal (cli.QuickAnswers), then through picocli as on one,
            // where picocli colours the help and fits it to the width
            QuickAnswers.answer(new String[] {"--help"}, new PrintWriter(new StringWriter()), Map.of(), false);
            QuickAnswers.answer(new String[] {"version"}, new PrintWriter(new StringWriter()), Map.of(), false);
            run("--help");
            run("version");
            run("plan", "--help");
            for (String output : List.of("table", "json", "yaml")) {
                run("plan", "-f", m, "--live", l, "-A", "-o", output);
            }
            run("__complete", "pl");
            run("__complete", "plan", "--");
            run("__complete", "plan", "-o", "");
            run("__complete", "--kubeconfig", kubeconfig.toString(), "plan", "--context", "");
            run("completion", "bash");
            live(dir, m);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * A live plan as an operator runs it: the demo's cluster, simulated in a child JVM (see
     * {@link #cluster}) and reached over HTTP by client-java, so the archive holds the client's
     * classes (client-java, OkHttp, Kotlin) and none of the simulator's.
     */
    private static void live(Path dir, String manifest) throws IOException {
        Path kubeconfig = dir.resolve("sim.kubeconfig");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process sim = new ProcessBuilder(java.toString(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Training.class.getName(), CLUSTER, kubeconfig.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            if (!ready(sim)) {
                return;
            }
            String k = kubeconfig.toString();
            for (String output : List.of("table", "json", "yaml")) {
                run("plan", "--kubeconfig", k, "-f", manifest, "-o", output);
            }
            run("plan", "--kubeconfig", k, "-f", manifest, "-A");
            run("__complete", "--kubeconfig", k, "plan", "-n", "");
        } finally {
            sim.getOutputStream().close(); // the child's cue to stop
            try {
                if (!sim.waitFor(10, TimeUnit.SECONDS)) {
                    sim.destroyForcibly();
                }
            } catch (InterruptedException e) {
                sim.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The child: the demo's cluster on a free port, its kubeconfig written, one line {@code ready},
     * then served until stdin closes, which it does when the training ends or dies in any way
     * (a pipe closes even on SIGKILL), so no simulated cluster outlives its training.
     */
    private static void cluster(Path kubeconfig) throws IOException {
        try (SimCluster sim = SimCluster.start()) {
            sim.load(DemoScenario.cluster().toArray(new ObjectNode[0]));
            sim.writeKubeconfig(kubeconfig);
            System.out.println("ready");
            System.out.flush();
            System.in.transferTo(OutputStream.nullOutputStream());
        }
        System.exit(0);
    }

    /** Waits (at most a minute) for the child's one line, {@code ready}. */
    private static boolean ready(Process sim) {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return new BufferedReader(new InputStreamReader(sim.getInputStream(), StandardCharsets.UTF_8)).readLine();
            } catch (IOException e) {
                return null;
            }
        });
        try {
            return "ready".equals(line.get(1, TimeUnit.MINUTES));
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            current-context: training
            contexts:
            - name: training
              context: {cluster: training, user: training}
            clusters:
            - name: training
              cluster: {server: https://127.0.0.1:6443}
            users:
            - name: training
              user: {token: training}
            """;

    private static void run(String... args) {
        PrintWriter sink = new PrintWriter(new StringWriter());
        new Cli(sink, sink, new ByteArrayInputStream(new byte[0]), Map.of(), false).run(args);
    }

    private static Path write(Path file, List<ObjectNode> items) throws IOException {
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        list.put("apiVersion", "v1").put("kind", "List");
        list.putArray("items").addAll(items);
        return Files.writeString(file, new YAMLMapper().writeValueAsString(list));
    }
}
