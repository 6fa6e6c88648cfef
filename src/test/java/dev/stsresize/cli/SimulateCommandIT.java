package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real launcher: `simulate` loads state, writes a kubeconfig, says ready once, serves, and saves on SIGTERM. */
@Tag("slow")
class SimulateCommandIT {
    @TempDir
    Path dir;

    static Path launcher() {
        return Path.of(System.getProperty("stsresize.launcher", "target/kubectl-stsresize"));
    }

    @Test
    void simulate_prints_ready_once_serves_the_state_and_saves_it_on_sigterm() throws Exception {
        Path state = dir.resolve("state.yaml");
        Files.writeString(state, """
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata: {name: data-db-0, namespace: prod}
                spec: {storageClassName: fast, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1024Mi}}}
                status: {phase: Bound, capacity: {storage: 1Gi}}
                ---
                {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "stsresize", "namespace": "prod"}}
                """);
        Path kubeconfig = dir.resolve("kc");
        Path saved = dir.resolve("saved.yaml");
        Path log = dir.resolve("log.jsonl");
        Process p = new ProcessBuilder(launcher().toString(), "simulate", "--state", state.toString(), "--kubeconfig-out",
                kubeconfig.toString(), "--save", saved.toString(), "--log", log.toString())
                .redirectError(dir.resolve("stderr").toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String ready = out.readLine();
        assertThat(ready).matches("ready https://127\\.0\\.0\\.1:\\d+");
        String url = ready.substring("ready ".length());
        assertThat(Files.readString(kubeconfig)).contains("server: " + url, "current-context: sim", "namespace: default",
                "- name: sim-prod-stsresize", "user: \"system:serviceaccount:prod:stsresize\"");
        String token = Files.readAllLines(kubeconfig).stream().filter(l -> l.trim().startsWith("token:")).findFirst().orElseThrow()
                .trim().substring("token:".length()).trim();
        HttpResponse<String> claim = dev.stsresize.testkit.KubeconfigTls.httpClient(kubeconfig).send(HttpRequest.newBuilder(
                URI.create(url + "/api/v1/namespaces/prod/persistentvolumeclaims/data-db-0")).header("Authorization", "Bearer " + token)
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(claim.statusCode()).isEqualTo(200);
        JsonNode body = new ObjectMapper().readTree(claim.body());
        assertThat(body.at("/spec/resources/requests/storage").asText()).isEqualTo("1Gi");
        assertThat(body.at("/status/phase").asText()).as("status taken as given").isEqualTo("Bound");
        // SIGTERM by kill(1): Process.destroy() would also close our end of its stdout
        assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor()).isZero();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(out.readLine()).as("exactly one line on stdout").isNull();
        assertThat(Files.readString(dir.resolve("stderr"))).as("no noise on stderr").isEmpty();
        JsonNode savedList = new ObjectMapper(new YAMLFactory()).readTree(saved.toFile());
        assertThat(savedList.path("kind").asText()).isEqualTo("List");
        assertThat(savedList.path("items").findValuesAsText("name")).contains("data-db-0", "prod", "default");
        assertThat(Files.readAllLines(log)).hasSize(1);
        assertThat(kubeconfig).as("the admin kubeconfig, once the simulator stopped").doesNotExist();
    }

    @Test
    void simulate_leaves_its_kubeconfig_behind_only_when_asked() throws Exception {
        Path kubeconfig = dir.resolve("kc");
        Process p = new ProcessBuilder(launcher().toString(), "simulate", "--kubeconfig-out", kubeconfig.toString(), "--keep-kubeconfig")
                .redirectError(dir.resolve("stderr").toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).startsWith("ready ");
        assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor()).isZero();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kubeconfig).as("--keep-kubeconfig").exists();
    }

    @Test
    void a_kind_the_simulator_does_not_serve_is_named_in_the_refusal() throws IOException, InterruptedException {
        Path state = dir.resolve("cm.yaml");
        Files.writeString(state, "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: settings, namespace: prod}\n");
        Process p = new ProcessBuilder(launcher().toString(), "simulate", "--state", state.toString(), "--kubeconfig-out",
                dir.resolve("kc").toString()).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(stderr).startsWith("error: the state holds HorizontalPodAutoscaler prod/settings (autoscaling/v2), a kind the "
                + "simulated cluster does not serve;");
        assertThat(stderr.lines().count()).isEqualTo(1);
    }

    @Test
    void a_port_in_use_is_named_with_the_fix() throws IOException, InterruptedException {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            Process p = new ProcessBuilder(launcher().toString(), "simulate", "--port", Integer.toString(taken.getLocalPort()),
                    "--kubeconfig-out", dir.resolve("kc").toString()).start();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(stderr).isEqualTo(1);
            assertThat(stderr).isEqualTo("error: port " + taken.getLocalPort() + " on 127.0.0.1 is already in use; choose another with"
                    + " --port, or 0 to pick a free one.\n");
        }
    }

    @Test
    void a_bad_state_file_fails_with_one_paragraph_and_nothing_on_stdout() throws IOException, InterruptedException {
        Path state = dir.resolve("bad.yaml");
        Files.writeString(state, "kind: Pod\n");
        Process p = new ProcessBuilder(launcher().toString(), "simulate", "--state", state.toString(), "--kubeconfig-out",
                dir.resolve("kc").toString()).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(stderr).isEqualTo(1);
        assertThat(stdout).isEmpty();
        assertThat(stderr).isEqualTo("error: state file " + state + ", document 1, lacks apiVersion, kind or metadata.name; "
                + "every object needs all three.\n");
        assertThat(Files.exists(dir.resolve("kc"))).as("no kubeconfig for a cluster that never started").isFalse();
    }

    /** Issue 14: faults from the command line, felt by the real kubectl (and its client-go retry on Retry-After). */
    @Test
    void simulate_injects_the_faults_of_a_file() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.stsresize.testkit.Processes.onPath("kubectl"), "kubectl is not on PATH");
        Path state = dir.resolve("state.yaml");
        Files.writeString(state, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: default}\ndata: {a: b}\n");
        Path faults = dir.resolve("faults.yaml");
        Files.writeString(faults, """
                faults:
                - {verb: get, resource: configmaps, name: settings, nth: 1, status: 429, retryAfterSeconds: 1}
                - {verb: list, resource: configmaps, status: 503, message: "etcd is down", times: 1}
                """);
        Path kubeconfig = dir.resolve("kc");
        Path log = dir.resolve("log.jsonl");
        Process p = new ProcessBuilder(launcher().toString(), "simulate", "--state", state.toString(), "--kubeconfig-out",
                kubeconfig.toString(), "--faults", faults.toString(), "--log", log.toString())
                .redirectError(dir.resolve("stderr").toFile()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).startsWith("ready ");
            Process got = new ProcessBuilder("kubectl", "--kubeconfig", kubeconfig.toString(), "get", "cm", "settings", "-o",
                    "jsonpath={.data.a}").redirectErrorStream(true).start();
            assertThat(got.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(got.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).as("retried after the 429").isEqualTo("b");
            Process listed = new ProcessBuilder("kubectl", "--kubeconfig", kubeconfig.toString(), "get", "cm").start();
            assertThat(listed.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(listed.exitValue()).isEqualTo(1);
            assertThat(new String(listed.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                    .contains("Error from server (ServiceUnavailable): etcd is down");
            List<String> codes = Files.readAllLines(log).stream().map(l -> {
                try {
                    JsonNode j = new ObjectMapper().readTree(l);
                    return j.path("method").asText() + " " + j.path("status").asInt();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
            assertThat(codes).contains("GET 429", "GET 503");
        } finally {
            new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void a_bad_fault_file_is_refused_before_the_server_starts() throws IOException, InterruptedException {
        Path faults = dir.resolve("faults.yaml");
        Files.writeString(faults, "faults:\n- {verb: get, staus: 503}\n");
        Process p = new ProcessBuilder(launcher().toString(), "simulate", "--faults", faults.toString(), "--kubeconfig-out",
                dir.resolve("kc").toString()).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(stderr).isEqualTo(1);
        assertThat(stderr).startsWith("error: fault rule " + faults + ", faults[0] has an unknown field \"staus\"");
        assertThat(Files.exists(dir.resolve("kc"))).isFalse();
    }
}
