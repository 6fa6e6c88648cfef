package dev.stsresize.dist;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stsresize.cli.Cli;
import dev.stsresize.sim.demo.DemoScenario;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The training run behind the class-data-sharing archive (AOT cache on JDK 25+) that the launcher
 * builds on first use: the commands an operator runs, on the real code path, so the archive holds
 * the classes they load. Prints nothing; writes only a temporary directory it removes.
 */
public final class Training {
    private Training() {}

    public static void main(String[] args) throws IOException {
        Path dir = Files.createTempDirectory("stsresize-training");
        try {
            Path manifest = write(dir.resolve("manifest.yaml"), DemoScenario.manifest());
            Path live = write(dir.resolve("live.yaml"), DemoScenario.cluster());
            Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), KUBECONFIG);
            String m = manifest.toString();
            String l = live.toString();
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
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
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
