package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.controller.Timings;
import dev.stsresize.sim.registry.WriteOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run follows each claim to the file system its pod writes to. On a real node the kubelet grew all
 * three file systems online seconds after the plugin had ended "converged" with advice to restart the
 * pods; here the simulated kubelet takes seconds too ({@link #SLOW_KUBELET}), longer than the run up to
 * its verification. Negative controls (seen red): {@code Convergence} going from VERIFY straight to its
 * end, past the file systems' step → the first test (three restart warnings, no
 * {@code fileSystem}); {@code FileSystems.check} answering PENDING where the kubelet refused
 * ({@code NodeResizeError}) → the offline test (pending after --fs-timeout, not waits-for-restart).
 */
class FileSystemsTest {
    /** The fast pace, but the kubelet grows a mounted file system 6 s after the resizer: after the run's verification. */
    static final Timings SLOW_KUBELET = FileSystemResizeWarningTest.SLOW_KUBELET;
    /** A kubelet that never gets to it within any test. */
    static final Timings SILENT_KUBELET = new Timings(0, 2, 1, 2, 2, 5, 2, 3, 600_000, 5);
    static final long GI20 = 20L << 30;

    @TempDir Path home;

    private static JsonNode doc(Commands.Run r) throws Exception {
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void an_online_expansion_is_followed_until_the_kubelet_grew_each_file_system_and_no_restart_is_advised() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster(), SLOW_KUBELET)) {
            Path manifest = Commands.manifest(home, List.of(Demo.declared("postgres")));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "-o", "json", "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isZero();
            JsonNode item = doc(r).at("/items/0");
            assertThat(item.path("outcome").asText()).isEqualTo("converged");
            assertThat(item.path("detail").asText()).as(r.describe()).contains("3 file systems grown: the pods can write to the new space");
            assertThat(item.path("warnings")).as(r.describe()).isEmpty();
            for (JsonNode c : item.path("claims")) {
                assertThat(c.path("fileSystem").asText()).as(c.toString()).isEqualTo("grown");
                assertThat(c.path("fileSystemBytes").asLong()).as("the kubelet's summary: " + c).isEqualTo(GI20);
                assertThat(c.path("capacity").asText()).isEqualTo("20Gi");
            }
            assertThat(r.err()).as("the wait said what it waits for").contains("[file-systems] shop/postgres: following each claim to its"
                    + " file system (up to --fs-timeout 2m0s)");
            assertThat(r.err()).doesNotContain("restart the pod");
            assertThat(item.path("pods")).allSatisfy(p -> assertThat(p.path("restarted").asBoolean()).isFalse());
        }
    }

    @Test
    void a_driver_that_grows_only_unpublished_volumes_leaves_each_file_system_waiting_for_a_restart_named_per_claim() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = Commands.manifest(home, List.of(Demo.declared("clickhouse")));
            Commands.Run json = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "-o", "json", "--timeout", "60s");
            assertThat(json.code()).as("converged, the restart named: " + json.describe()).isZero();
            JsonNode item = doc(json).at("/items/0");
            assertThat(item.path("detail").asText()).as(json.describe()).contains("file systems: 2 wait for a pod restart: the pods cannot"
                    + " use all of the new space yet");
            for (JsonNode c : item.path("claims")) {
                assertThat(c.path("fileSystem").asText()).as(c.toString()).isEqualTo("waits-for-restart");
                assertThat(c.has("fileSystemBytes")).as("the kubelet reported nothing grown: " + c).isFalse();
            }
            assertThat(item.path("warnings")).hasSize(2).allSatisfy(w -> assertThat(w.asText())
                    .contains("the kubelet cannot grow it while the pod runs", "apply --restart-pods-for-resize"));
        }
    }

    @Test
    void the_text_result_says_each_claims_file_system() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = Commands.manifest(home, List.of(Demo.declared("clickhouse"), Demo.declared("postgres")));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isZero();
            assertThat(r.out()).as(r.describe())
                    .contains("  claim data-clickhouse-0: 50Gi -> 100Gi, capacity 50Gi, file system waits-for-restart\n")
                    .contains("  claim data-postgres-2: 10Gi -> 20Gi, capacity 20Gi, file system grown (20Gi reported by the kubelet)\n")
                    .contains("shop/postgres: converged - ").contains("; 3 file systems grown: the pods can write to the new space");
        }
    }

    @Test
    void pods_restarted_for_their_file_systems_are_said_as_restarted_with_their_new_uids() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            String before0 = Harness.uid(h.pod("analytics", "clickhouse-0"));
            Path manifest = Commands.manifest(home, List.of(Demo.declared("clickhouse")));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "-o", "json", "--timeout", "60s",
                    "--restart-pods-for-resize");
            assertThat(r.code()).as(r.describe()).isZero();
            JsonNode item = doc(r).at("/items/0");
            assertThat(item.path("detail").asText()).as(r.describe())
                    .contains("2 of 2 pod(s) restarted by this run for their file systems (clickhouse-0, clickhouse-1)")
                    .doesNotContain("with unchanged UIDs")
                    .contains("2 file systems grown: the pods can write to the new space");
            JsonNode pod0 = item.at("/pods/0");
            assertThat(pod0.path("name").asText()).isEqualTo("clickhouse-0");
            assertThat(pod0.path("restarted").asBoolean()).isTrue();
            assertThat(pod0.path("uidBefore").asText()).isEqualTo(before0);
            assertThat(pod0.path("uidAfter").asText()).isEqualTo(Harness.uid(h.pod("analytics", "clickhouse-0"))).isNotEqualTo(before0);
            for (JsonNode c : item.path("claims")) {
                assertThat(c.path("fileSystem").asText()).as(c.toString()).isEqualTo("grown");
            }
            assertThat(item.path("warnings")).as(r.describe()).isEmpty();
        }
    }

    @Test
    void the_wait_for_the_kubelet_is_bounded_by_fs_timeout_and_ends_pending_not_failed() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster(), SILENT_KUBELET)) {
            Path manifest = Commands.manifest(home, List.of(Demo.declared("postgres")));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "-o", "json", "--timeout", "60s",
                    "--fs-timeout", "1s");
            assertThat(r.code()).as("converged: the objects are; the kubelet keeps working. " + r.describe()).isZero();
            JsonNode item = doc(r).at("/items/0");
            assertThat(item.path("outcome").asText()).isEqualTo("converged");
            assertThat(item.path("detail").asText()).contains("file systems: 3 still growing");
            for (JsonNode c : item.path("claims")) {
                assertThat(c.path("fileSystem").asText()).as(c.toString()).isEqualTo("pending");
            }
            assertThat(item.path("warnings")).hasSize(3).allSatisfy(w -> assertThat(w.asText())
                    .contains("the kubelet had not grown it when the run stopped following it")
                    .doesNotContain("cannot grow it while the pod runs"));
            assertThat(h.journal.all()).as("released: nothing to resume").isEmpty();
        }
    }

    @Test
    void a_recreate_whose_claims_were_grown_before_the_run_follows_no_file_system_and_says_nothing_of_them() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            var claims = h.sim.catalog().byResource("", "persistentvolumeclaims").orElseThrow();
            for (int i = 0; i < 3; i++) {
                String name = "data-postgres-" + i;
                ObjectNode c = h.claim("shop", name);
                ((ObjectNode) c.path("spec").path("resources").path("requests")).put("storage", "20Gi");
                h.sim.registry().update(claims, "shop", name, "", c, WriteOptions.by("test"));
                Harness.await(name + " grown", () -> h.claim("shop", name).at("/status/capacity/storage").asText().equals("20Gi"));
            }
            Path manifest = Commands.manifest(home, List.of(Demo.declared("postgres")));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "-o", "json", "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isZero();
            JsonNode item = doc(r).at("/items/0");
            assertThat(item.path("outcome").asText()).as(r.describe()).isEqualTo("converged");
            assertThat(item.path("detail").asText()).as("no empty file-system sentence").doesNotEndWith("; ").doesNotEndWith(";")
                    .doesNotContain("file system");
        }
    }

    @Test
    void a_converged_set_with_fewer_ready_replicas_than_before_is_warned_about() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = Commands.manifest(home, List.of(Demo.declared("postgres")));
            var pods = h.sim.catalog().byResource("", "pods").orElseThrow();
            Checkpoint failPod = w -> {
                if (w.equals("re-apply statefulset postgres")) {
                    // a pod that fails after the re-apply, adopted as it is: the kubelet no longer runs it, the set counts it
                    // unready (the ready replicas are read beside the release)
                    // the controllers adopt the pod meanwhile: on a conflict, read it again and write again, as a kubelet does
                    for (int attempt = 0; ; attempt++) {
                        ObjectNode p = h.pod("shop", "postgres-1");
                        ObjectNode st = (ObjectNode) p.path("status");
                        st.put("phase", "Failed");
                        for (JsonNode c : st.path("conditions")) {
                            if (c.path("type").asText().equals("Ready")) {
                                ((ObjectNode) c).put("status", "False");
                            }
                        }
                        try {
                            h.sim.registry().update(pods, "shop", "postgres-1", "status", p, WriteOptions.by("test"));
                            break;
                        } catch (RuntimeException conflict) {
                            if (attempt == 20 || !String.valueOf(conflict.getMessage()).contains("the object has been modified")) {
                                throw conflict;
                            }
                        }
                    }
                    // the StatefulSet controller counts it before the run goes on, so what the run reads is settled
                    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
                    while (h.sts("shop", "postgres").path("status").path("readyReplicas").asInt(0) > 2 && System.nanoTime() < until) {
                        java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
                    }
                }
            };
            Commands.Run r = Commands.run(h, Optional::empty, failPod, "apply", "-f", manifest.toString(), "--yes", "-o", "json",
                    "--timeout", "60s", "--fs-timeout", "2s");
            assertThat(r.code()).as(r.describe()).isZero();
            JsonNode item = doc(r).at("/items/0");
            assertThat(item.path("outcome").asText()).isEqualTo("converged");
            assertThat(item.path("warnings")).as(r.describe()).anySatisfy(w -> assertThat(w.asText())
                    .startsWith("StatefulSet shop/postgres has 2 ready replica(s), 3 before this run"));
        }
    }

    @Test
    void no_warning_about_ready_replicas_when_every_pod_is_ready_again() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = Commands.manifest(home, List.of(Demo.declared("postgres")));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "-o", "json", "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isZero();
            assertThat(doc(r).at("/items/0/warnings")).as(r.describe()).isEmpty();
        }
    }
}
