package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.testkit.Processes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl's typed clients send protobuf bodies (create namespace, serviceaccount, role, rolebinding, token): the
 * simulator of the shipped jar, which holds only the classes its code references, must decode them as the test class
 * path's does. Then the namespace-admin rehearsal of docs/commands.md, run line by line as written.
 */
@Tag("slow")
class SimulateProtobufIT {
    private static final String REHEARSAL = "Rehearse as a namespace admin";
    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    static Path dir;
    static Process sim;
    static Path kubeconfig;

    @BeforeAll
    static void simulate() throws IOException {
        assumeTrue(Processes.onPath("kubectl"), "kubectl is not on PATH");
        kubeconfig = dir.resolve("kc");
        sim = new ProcessBuilder(SimulateCommandIT.launcher().toString(), "simulate", "--state", "examples/live-snapshot.yaml",
                "--kubeconfig-out", kubeconfig.toString(), "--log", dir.resolve("log.jsonl").toString())
                .redirectError(dir.resolve("stderr").toFile()).start();
        String ready = new BufferedReader(new InputStreamReader(sim.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(ready).as("simulate's first line; stderr: " + Files.readString(dir.resolve("stderr"))).startsWith("ready ");
    }

    @AfterAll
    static void stop() throws Exception {
        if (sim != null) {
            new ProcessBuilder("kill", "-TERM", Long.toString(sim.pid())).start().waitFor();
            assertThat(sim.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readString(dir.resolve("stderr"))).as("simulate's stderr").isEmpty();
        }
    }

    @Test
    void kubectls_protobuf_creates_are_stored_and_read_back_and_the_token_acts_as_its_serviceaccount() throws Exception {
        assertThat(kubectl("create", "namespace", "team").out()).isEqualTo("namespace/team created\n");
        assertThat(kubectl("create", "serviceaccount", "robot", "-n", "team").out()).isEqualTo("serviceaccount/robot created\n");
        assertThat(kubectl("create", "role", "pod-reader", "--verb=get", "--resource=pods", "-n", "team").out())
                .isEqualTo("role.rbac.authorization.k8s.io/pod-reader created\n");
        assertThat(kubectl("create", "rolebinding", "robot-reads-pods", "--role=pod-reader", "--serviceaccount=team:robot", "-n", "team")
                .out()).isEqualTo("rolebinding.rbac.authorization.k8s.io/robot-reads-pods created\n");
        String token = kubectl("create", "token", "robot", "-n", "team").out().trim();
        assertThat(token).isNotEmpty();

        assertThat(readBack("serviceaccount", "robot").at("/metadata/uid").asText()).isNotEmpty();
        assertThat(readBack("role", "pod-reader").at("/rules")).isEqualTo(YAML.readTree("[{apiGroups: [''], resources: [pods], verbs: [get]}]"));
        JsonNode binding = readBack("rolebinding", "robot-reads-pods");
        assertThat(binding.at("/roleRef")).isEqualTo(YAML.readTree("{apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader}"));
        assertThat(binding.at("/subjects")).isEqualTo(YAML.readTree("[{kind: ServiceAccount, name: robot, namespace: team}]"));
        assertThat(kubectl("--context", "sim-token", "--token", token, "auth", "can-i", "get", "pods", "-n", "team").out()).isEqualTo("yes\n");
        Processes.Result list = run(List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--context", "sim-token", "--token", token,
                "auth", "can-i", "list", "pods", "-n", "team"));
        assertThat(list.out()).as("the role grants get only").isEqualTo("no\n");

        List<String> protobufCreates = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("log.jsonl"))) {
            JsonNode r = new ObjectMapper().readTree(line);
            if (r.path("contentType").asText().startsWith(PROTOBUF) && r.path("namespace").asText().equals("team")) {
                protobufCreates.add(r.path("resource").asText() + " " + r.path("status").asInt());
            }
        }
        assertThat(protobufCreates).as("kubectl sent these as protobuf, and each was created")
                .contains("serviceaccounts 201", "roles 201", "rolebindings 201", "serviceaccounts/token 201");
    }

    @Test
    void the_namespace_admin_rehearsal_of_docs_commands_md_runs_as_written() throws Exception {
        String docs = Files.readString(Path.of("docs/commands.md"));
        int at = docs.indexOf(REHEARSAL);
        assertThat(at).as("docs/commands.md says how to " + REHEARSAL).isNotNegative();
        Matcher fence = Pattern.compile("\n```sh\n(.*?)\n```\n", Pattern.DOTALL).matcher(docs);
        assertThat(fence.find(at)).isTrue();
        List<String> lines = fence.group(1).lines().toList();
        assertThat(lines.get(0)).as("the simulator's kubeconfig, as simulate's example writes it")
                .isEqualTo("export KUBECONFIG=/tmp/sim.kubeconfig");
        // `kubectl stsresize` is the launcher under test, found on PATH as kubectl finds its plugins
        Map<String, String> env = Map.of("KUBECONFIG", kubeconfig.toString(),
                "PATH", SimulateCommandIT.launcher().toAbsolutePath().getParent() + ":" + System.getenv("PATH"));
        for (String line : lines.subList(1, lines.size() - 1)) {
            Processes.Result r = Processes.run(env, Path.of("."), Duration.ofSeconds(60), "bash", "-c", line);
            assertThat(r.code()).as(line + "\n" + r.err()).isZero();
        }
        String plan = lines.get(lines.size() - 1);
        Processes.Result r = Processes.run(env, Path.of("."), Duration.ofSeconds(120), "bash", "-c", plan);
        assertThat(r.code()).as("redis is refused on purpose: " + plan + "\n" + r.err()).isEqualTo(2);
        assertThat(r.out()).contains("shop/postgres  GROW", "4 StatefulSets: 1 grow, 1 grow-claims, 1 up-to-date, 1 refused");
        assertThat(r.err()).as("edit holds every required verb").doesNotContain("blocked")
                .contains("(context \"sim-token\"", "User \"system:serviceaccount:shop:alice\" cannot list resource \"storageclasses\"");
    }

    private static JsonNode readBack(String resource, String name) throws IOException, InterruptedException {
        return YAML.readTree(kubectl("get", resource, name, "-n", "team", "-o", "yaml").out());
    }

    private static Processes.Result kubectl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        cmd.addAll(List.of(args));
        Processes.Result r = run(cmd);
        assertThat(r.code()).as(String.join(" ", args) + "\n" + r.err()).isZero();
        return r;
    }

    private static Processes.Result run(List<String> cmd) throws IOException, InterruptedException {
        return Processes.run(Map.of(), Path.of("."), Duration.ofSeconds(60), cmd.toArray(String[]::new));
    }
}
