package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.http.RecordedRequest;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run's record is someone else's input: forged, stale or too large, it is reported and nothing is
 * written; it is readable only with Secret rights, kept 0600 on disk, removed on release; and a
 * re-run that finishes a stopped run says so. Each test drives the real command line against the
 * simulated cluster and reads the request log.
 */
class RunRecordTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path home;

    static final class Crash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crash(String what) {
            super("crashed right after: " + what);
        }
    }

    /** A run of {@code declared} stopped (as by a crash) right after its write number {@code n} (1: the lock). */
    static void stopAfter(Harness h, ObjectNode declared, int n) {
        AtomicInteger count = new AtomicInteger();
        Checkpoint crash = w -> {
            if (count.incrementAndGet() == n) {
                throw new Crash(w);
            }
        };
        Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(declared), false, Assessor.Depth.APPLY, false,
                Optional.empty());
        Converger first = h.converger(h.cluster(), "alice@laptop 1", GateAnswers.YES, crash);
        assertThatThrownBy(() -> first.converge(a.items().get(0), Harness.options(), true)).isInstanceOf(Crash.class);
    }

    /** The writes the server received from index {@code from} of its request log on. */
    static List<RecordedRequest> writesSince(Harness h, int from) {
        return h.writes().stream().filter(w -> h.sim.requests().indexOf(w) >= from).toList();
    }

    @Test
    void a_forged_record_naming_another_namespaces_statefulset_is_reported_and_nothing_is_written_there() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            // someone who may write Leases and Secrets in shop plants a record naming analytics/kafka, image swapped
            ObjectNode kafka = h.sts("analytics", "kafka");
            ObjectNode evil = Objects.creatable(kafka);
            ((ObjectNode) evil.at("/spec/template/spec/containers/0")).put("image", "evil:1");
            ObjectNode live = kafka.deepCopy();
            ((ObjectNode) live.path("metadata")).remove("managedFields");
            ObjectNode record = RecordBuilder.record().server(h.sim.url()).namespace("analytics").name("kafka")
                    .uid(Harness.uid(kafka)).holder("mallory@evil 1").startedAt("2026-12-03T10:00:00.000000Z").live(live)
                    .reapply(evil).build().toJson();
            plant(h, "shop", "postgres", record);
            int from = h.sim.requests().size();

            Commands.Run r = Commands.run(h, "apply", "-f", Commands.manifest(home, List.of(Demo.declared("postgres"))).toString(),
                    "--yes", "--timeout", "60s");

            assertThat(writesSince(h, from)).as(r.describe()).noneMatch(w -> w.path().contains("/namespaces/analytics/"));
            assertThat(h.sts("analytics", "kafka").at("/spec/template/spec/containers/0/image").asText()).isNotEqualTo("evil:1");
            assertThat(Harness.uid(h.sts("analytics", "kafka"))).isEqualTo(Harness.uid(kafka));
            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(r.out()).contains("names StatefulSet analytics/kafka", "left alone",
                    "kubectl get secret stsresize-postgres -n shop", "kubectl delete secret stsresize-postgres -n shop",
                    "kubectl delete lease stsresize-postgres -n shop");
        }
    }

    @Test
    void a_record_whose_uid_is_not_the_live_statefulsets_is_left_alone() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            stopAfter(h, Demo.declared("postgres"), 1);
            // a teammate re-created the StatefulSet meanwhile (orphan delete, create): same name, another UID
            ObjectNode old = h.sts("shop", "postgres");
            h.cluster().deleteStatefulSetOrphan("shop", "postgres", Harness.uid(old), false);
            Harness.await("postgres gone", () -> h.sts("shop", "postgres") == null);
            h.cluster().createStatefulSet(Objects.creatable(old), false);
            Harness.await("postgres back", () -> h.sts("shop", "postgres") != null);
            int from = h.sim.requests().size();

            Commands.Run r = Commands.run(h, "apply", "-f", Commands.manifest(home, List.of(Demo.declared("postgres"))).toString(),
                    "--yes", "--timeout", "60s");

            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(r.out()).contains("has UID " + Harness.uid(h.sts("shop", "postgres")), "left alone");
            assertThat(writesSince(h, from)).as(r.describe()).isEmpty();
            assertThat(h.journal.all()).as("the record is left where it was").hasSize(1);
        }
    }

    @Test
    void the_local_journal_is_0600_in_a_0700_folder() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            stopAfter(h, Demo.declared("postgres"), 1);
            Path dir = home.resolve("state").resolve("kubectl-stsresize");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("shop_postgres.json")))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("state"))))
                    .as("the XDG state folder, created by the plugin").isEqualTo("rwx------");
        }
    }

    /** Random base64: gzip gains little on it, as on a real certificate or key held in an env value. */
    static String incompressible(int bytes) {
        byte[] raw = new byte[bytes * 3 / 4];
        new Random(13).nextBytes(raw);
        return Base64.getEncoder().encodeToString(raw);
    }

    static void withEnv(ObjectNode sts, String value) {
        ((ObjectNode) sts.at("/spec/template/spec/containers/0")).putArray("env").addObject().put("name", "BLOB").put("value", value);
    }

    @Test
    void a_statefulset_of_300_kib_is_resized_and_resumed() {
        String blob = incompressible(300 * 1024);
        try (Harness h = Harness.start(home, Demo.clusterWith("StatefulSet", "postgres", s -> withEnv(s, blob)))) {
            ObjectNode declared = Demo.declared("postgres", s -> withEnv(s, blob));
            String pod0 = Harness.uid(h.pod("shop", "postgres-0"));
            stopAfter(h, declared, 3); // the lock and two claims grown

            Commands.Run r = Commands.run(h, "apply", "-f", Commands.manifest(home, List.of(declared)).toString(), "--yes", "--timeout", "60s");

            assertThat(r.code()).as(r.describe()).isZero();
            ObjectNode sts = h.sts("shop", "postgres");
            assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            assertThat(sts.at("/spec/template/spec/containers/0/env/0/value").asText()).isEqualTo(blob);
            assertThat(Harness.uid(h.pod("shop", "postgres-0"))).isEqualTo(pod0);
            assertThat(h.journal.all()).isEmpty();
        }
    }

    @Test
    void a_record_too_large_to_keep_stops_the_run_before_its_first_write() {
        String blob = incompressible(800 * 1024);
        try (Harness h = Harness.start(home, Demo.clusterWith("StatefulSet", "postgres", s -> withEnv(s, blob)))) {
            ObjectNode declared = Demo.declared("postgres", s -> withEnv(s, blob));

            Commands.Run r = Commands.run(h, "apply", "-f", Commands.manifest(home, List.of(declared)).toString(), "--yes", "--timeout", "60s");

            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(h.writes()).as(r.describe()).isEmpty();
            assertThat(r.out()).contains("does not fit in Secret shop/stsresize-postgres", "nothing was written")
                    .doesNotContain("resume` finishes it");
            assertThat(h.journal.all()).isEmpty();
        }
    }

    @Test
    void a_statefulset_changed_after_the_run_stopped_is_not_rolled_back() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            stopAfter(h, Demo.declared("postgres"), 4); // the lock and the three claims: stopped at the orphan-delete gate
            // a teammate applies a new image
            ObjectNode next = Objects.creatable(h.sts("shop", "postgres"));
            ((ObjectNode) next.at("/spec/template/spec/containers/0")).put("image", "postgres:17.2");
            h.cluster().applyStatefulSet(next, "teammate", true, false);
            String uid = Harness.uid(h.sts("shop", "postgres"));
            int from = h.sim.requests().size();

            Commands.Run r = Commands.run(h, "apply", "-f", Commands.manifest(home, List.of(Demo.declared("postgres"))).toString(),
                    "--yes", "--timeout", "60s");

            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(r.out()).contains("changed since the run stopped", "/spec/template/spec/containers/0/image", "postgres:17.2");
            assertThat(writesSince(h, from)).as(r.describe()).isEmpty();
            assertThat(h.sts("shop", "postgres").at("/spec/template/spec/containers/0/image").asText()).isEqualTo("postgres:17.2");
            assertThat(Harness.uid(h.sts("shop", "postgres"))).isEqualTo(uid);
        }
    }

    @ParameterizedTest(name = "-o {0}")
    @ValueSource(strings = {"table", "json"})
    void a_re_run_that_finishes_a_stopped_run_reports_its_outcome(String output) throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            stopAfter(h, Demo.declared("postgres"), 1);
            // while stopped, the record sits in its Secret, not in the Lease that everyone with leader-election rights reads
            ObjectNode lease = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
            assertThat(lease.at("/metadata/annotations/stsresize.dev~1record").isMissingNode()).as(lease.toString()).isTrue();
            assertThat(h.get("v1", "Secret", "shop", "stsresize-postgres")).as("the record's Secret").isNotNull();

            Commands.Run r = Commands.run(h, "apply", "-f", Commands.manifest(home, List.of(Demo.declared("postgres"))).toString(),
                    "--yes", "--timeout", "60s", "-o", output);

            assertThat(r.code()).as(r.describe()).isZero();
            if (output.equals("json")) {
                JsonNode doc = JSON.readTree(r.out());
                JsonNode item = doc.path("items").get(0);
                assertThat(doc.path("items")).as(r.out()).hasSize(1);
                assertThat(item.path("outcome").asText()).as(r.out()).isEqualTo("converged");
                assertThat(item.path("detail").asText()).contains("resumed the run recorded by alice@laptop 1");
            } else {
                assertThat(r.out()).contains("shop/postgres: converged - resumed the run recorded by alice@laptop 1")
                        .doesNotContain("nothing-to-do");
            }
            assertThat(h.get("v1", "Secret", "shop", "stsresize-postgres")).as("the record's Secret removed on release").isNull();
        }
    }

    @Test
    void rights_to_read_leases_alone_do_not_read_the_record() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            stopAfter(h, Demo.declared("postgres"), 1);
            h.sim.load(ServiceAccountRole.role("shop",
                    "{apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, list, watch, create, update]}")
                    .toArray(ObjectNode[]::new));
            String token = h.sim.tokenFor("shop", "stsresize");
            HttpClient http = HttpClient.newBuilder().sslContext(h.sim.clientTls()).build(); // trusts the simulated cluster's CA only
            HttpResponse<String> lease = http.send(HttpRequest.newBuilder(URI.create(h.sim.url()
                    + "/apis/coordination.k8s.io/v1/namespaces/shop/leases/stsresize-postgres")).header("Authorization", "Bearer " + token)
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(lease.statusCode()).isEqualTo(200);
            String liveImage = h.sts("shop", "postgres").at("/spec/template/spec/containers/0/image").asText();
            assertThat(lease.body()).as("the Lease holds no part of the StatefulSet").doesNotContain(liveImage).doesNotContain("volumeClaimTemplates");
            HttpResponse<String> secret = http.send(HttpRequest.newBuilder(URI.create(h.sim.url()
                    + "/api/v1/namespaces/shop/secrets/stsresize-postgres")).header("Authorization", "Bearer " + token)
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(secret.statusCode()).isEqualTo(403);
        }
    }

    @Test
    void apply_re_applies_the_manifests_object_never_the_stored_one() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            stopAfter(h, Demo.declared("postgres"), 1);
            // the stopped run's record, as another machine finds it, with its object to re-apply changed by someone with Secret rights
            ObjectNode record = h.journal.read("shop", "postgres").orElseThrow().toJson();
            ((ObjectNode) record.at("/reapply/spec/template/spec/containers/0")).put("image", "evil:1");
            h.journal.remove("shop", "postgres");
            plant(h, "shop", "postgres", record, Instant.now().minusSeconds(3600));

            Commands.Run r = Commands.run(h, "apply", "-f", Commands.manifest(home, List.of(Demo.declared("postgres"))).toString(),
                    "--yes", "--take-over", "--timeout", "60s");

            assertThat(r.code()).as(r.describe()).isZero();
            ObjectNode sts = h.sts("shop", "postgres");
            assertThat(sts.at("/spec/template/spec/containers/0/image").asText()).isEqualTo("postgres:16.4");
            assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
        }
    }

    @Test
    void a_secret_not_matching_its_leases_digest_is_left_alone() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            stopAfter(h, Demo.declared("postgres"), 1);
            ObjectNode record = h.journal.read("shop", "postgres").orElseThrow().toJson();
            h.journal.remove("shop", "postgres");
            // the Lease keeps the digest of the record its holder wrote; the Secret now holds another (claims to 1Ti)
            ObjectNode lease = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
            String digest = lease.at("/metadata/annotations/stsresize.dev~1record-sha256").asText();
            ((ObjectNode) record.path("claimTargets")).put("data-postgres-0", "1Ti");
            plant(h, "shop", "postgres", record, Instant.now().minusSeconds(3600));
            ObjectNode held = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
            ((ObjectNode) held.at("/metadata/annotations")).put("stsresize.dev/record-sha256", digest);
            h.sim.load(held);
            int from = h.sim.requests().size();

            Commands.Run r = Commands.run(h, "resume", "shop/postgres", "--yes", "--take-over", "--timeout", "60s");

            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(r.out()).contains("is not the one its Lease holds", "left alone");
            assertThat(writesSince(h, from)).as(r.describe()).isEmpty();
        }
    }

    @Test
    void resume_without_a_manifest_shows_what_it_would_re_apply_and_who_recorded_it_and_asks() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            stopAfter(h, Demo.declared("postgres"), 1);
            int from = h.sim.requests().size();
            List<String> asked = new java.util.ArrayList<>();
            dev.stsresize.cli.Prompter no = q -> {
                asked.add(q);
                return "n";
            };

            Commands.Run declined = Commands.run(h, () -> Optional.of(no), Checkpoint.NONE, "resume", "--timeout", "60s");

            assertThat(declined.code()).as(declined.describe()).isEqualTo(1);
            assertThat(declined.out()).contains("recorded by alice@laptop 1 at ", "found in the local journal",
                    "/spec/volumeClaimTemplates/0/spec/resources/requests/storage: \"10Gi\" → \"20Gi\"", "grows claim data-postgres-0 to 20Gi",
                    "shop/postgres: failed (declined)");
            assertThat(asked).hasSize(1);
            assertThat(writesSince(h, from)).as(declined.describe()).isEmpty();

            // with the operator's manifest, nothing to confirm: its object is what gets re-applied
            Commands.Run r = Commands.run(h, "resume", "-f", Commands.manifest(home, List.of(Demo.declared("postgres"))).toString(),
                    "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isZero();
            assertThat(r.out()).contains("shop/postgres: converged - resumed the run recorded by alice@laptop 1");
            assertThat(h.journal.all()).isEmpty();
        }
    }

    static void plant(Harness h, String ns, String sts, ObjectNode record) throws Exception {
        plant(h, ns, sts, record, Instant.now());
    }

    /** A Lease held (renewed at {@code renewed}) and its record, as a forger with Lease and Secret rights in {@code ns} would write them. */
    static void plant(Harness h, String ns, String sts, ObjectNode record, Instant renewed) throws Exception {
        ObjectNode stored = record.deepCopy();
        stored.remove("phase");
        byte[] payload = JSON.writeValueAsString(stored).getBytes(StandardCharsets.UTF_8);
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload));
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(zipped)) {
            z.write(payload);
        }
        String now = renewed.toString();
        ObjectNode lease = Harness.yaml("apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: stsresize-" + sts
                + ", namespace: " + ns + "}\nspec: {holderIdentity: mallory@evil 1, leaseDurationSeconds: 60}\n");
        ((ObjectNode) lease.path("spec")).put("acquireTime", now).put("renewTime", now);
        ObjectNode ann = ((ObjectNode) lease.path("metadata")).putObject("annotations");
        ann.put("stsresize.dev/phase", record.path("phase").asText());
        ann.put("stsresize.dev/record", JSON.writeValueAsString(record)); // where a record was kept before it moved to a Secret
        ann.put("stsresize.dev/record-sha256", digest);
        ObjectNode secret = Harness.yaml("apiVersion: v1\nkind: Secret\ntype: stsresize.dev/record\nmetadata: {name: stsresize-" + sts
                + ", namespace: " + ns + "}\n");
        secret.putObject("data").put("record.json.gz", Base64.getEncoder().encodeToString(zipped.toByteArray()));
        h.sim.load(lease, secret);
    }
}
