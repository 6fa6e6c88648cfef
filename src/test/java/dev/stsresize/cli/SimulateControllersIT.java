package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stsresize.testkit.TestObjects;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real launcher: `simulate` runs the controllers by default, so a loaded StatefulSet gets its claims and pods. */
@Tag("slow")
class SimulateControllersIT {
    @TempDir
    Path dir;

    @Test
    void simulate_runs_the_controllers_so_a_loaded_statefulset_gets_a_bound_claim_and_a_ready_pod() throws Exception {
        Path state = dir.resolve("state.yaml");
        Files.writeString(state, """
                apiVersion: storage.k8s.io/v1
                kind: StorageClass
                metadata: {name: fast}
                provisioner: sim.csi.example
                allowVolumeExpansion: true
                ---
                """ + TestObjects.db("prod", "fast", "1Gi", "postgres:16", 1));
        Process p = new ProcessBuilder(SimulateCommandIT.launcher().toString(), "simulate", "--state", state.toString(),
                "--kubeconfig-out", dir.resolve("kc").toString(), "--speed", "fast")
                .redirectError(dir.resolve("stderr").toFile()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String url = out.readLine().substring("ready ".length());
            HttpClient http = dev.stsresize.testkit.KubeconfigTls.httpClient(dir.resolve("kc"));
            String admin = "Bearer " + dev.stsresize.testkit.KubeconfigTls.firstToken(dir.resolve("kc"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            JsonNode sts = null;
            while (System.nanoTime() < deadline) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/apis/apps/v1/namespaces/prod/statefulsets/db"))
                        .header("Authorization", admin).build(), HttpResponse.BodyHandlers.ofString());
                sts = new ObjectMapper().readTree(r.body());
                if (sts.at("/status/readyReplicas").asInt() == 1) {
                    break;
                }
                Thread.sleep(50);
            }
            assertThat(sts.at("/status/readyReplicas").asInt()).as("status of db: " + sts.path("status")).isEqualTo(1);
            HttpResponse<String> claim = http.send(HttpRequest.newBuilder(URI.create(url
                    + "/api/v1/namespaces/prod/persistentvolumeclaims/data-db-0")).header("Authorization", admin).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(new ObjectMapper().readTree(claim.body()).at("/status/phase").asText()).isEqualTo("Bound");
        } finally {
            new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Files.readString(dir.resolve("stderr"))).as("no noise on stderr").isEmpty();
    }
}
