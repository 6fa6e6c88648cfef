package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a stopped run's record is looked for (this machine's journal for this cluster first, then the
 * StatefulSet's Lease and Secret) and each way the stored copy can fail to be the record, against a
 * cluster that only answers reads of Leases, Secrets and StatefulSets.
 */
class RunRecordsFindTest {
    private static final String SERVER = "https://k:6443";
    @TempDir Path tmp;

    /** objects by "kind/namespace/name"; a value null means the read fails with a 403 */
    private static Cluster reads(Map<String, ObjectNode> objects) {
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class}, (p, m, args) -> {
            String kind = switch (m.getName()) {
                case "getLease" -> "lease";
                case "getSecret" -> "secret";
                case "getStatefulSet" -> "sts";
                default -> throw new AssertionError("not a read this test expects: " + m.getName());
            };
            String k = kind + "/" + args[0] + "/" + args[1];
            if (objects.containsKey(k) && objects.get(k) == null) {
                throw new ClusterException(403, "Forbidden", kind + " forbidden", null, "get", null);
            }
            return Optional.ofNullable(objects.get(k));
        });
    }

    private static ObjectNode sts(String uid) {
        return Objects.parse("{\"metadata\":{\"name\":\"db\",\"namespace\":\"shop\",\"uid\":\"" + uid + "\"},\"spec\":{\"replicas\":3}}");
    }

    private static Record record(String server) {
        return RecordBuilder.record().server(server).live(sts("u1")).claimTargets(Map.of("data-db-0", "2Gi")).build();
    }

    private static ObjectNode lease(String holder, String digest) {
        ObjectNode l = Objects.parse("{\"metadata\":{\"name\":\"stsresize-db\",\"annotations\":{\"stsresize.dev/phase\":\"deleting\"}},"
                + "\"spec\":{\"holderIdentity\":\"" + holder + "\"}}");
        if (digest != null) {
            ((ObjectNode) l.path("metadata").path("annotations")).put(RecordSecret.DIGEST, digest);
        }
        return l;
    }

    @Test
    void the_local_journal_is_read_first_and_only_for_this_cluster() {
        Journal journal = new Journal(tmp);
        journal.write(record(SERVER));
        Map<String, ObjectNode> objects = new HashMap<>(Map.of("sts/shop/db", sts("u1")));
        RunRecords runs = new RunRecords(reads(objects), journal, SERVER);
        PendingRun found = runs.find("shop", "db", true).orElseThrow();
        assertThat(found.local()).isTrue();
        assertThat(found.source()).isEqualTo("the local journal " + journal.file("shop", "db"));
        assertThat(found.trusted()).as(found.problem()).isTrue();
        assertThat(runs.allLocal()).extracting(PendingRun::name).containsExactly("db");

        RunRecords otherCluster = new RunRecords(reads(objects), journal, "https://elsewhere");
        assertThat(otherCluster.find("shop", "db", false)).isEmpty();
        assertThat(otherCluster.allLocal()).isEmpty();
        journal.write(record(""));
        assertThat(otherCluster.find("shop", "db", false)).as("a record naming no server is any cluster's").isPresent();
        assertThat(otherCluster.allLocal()).hasSize(1);
    }

    @Test
    void a_local_record_is_checked_against_the_live_statefulset() {
        Journal journal = new Journal(tmp);
        journal.write(record(SERVER));
        RunRecords runs = new RunRecords(reads(Map.of("sts/shop/db", sts("u2"))), journal, SERVER);
        assertThat(runs.find("shop", "db", false).orElseThrow().problem())
                .isEqualTo("it recorded StatefulSet UID u1, but the live StatefulSet shop/db has UID u2");
        assertThat(runs.allLocal().get(0).trusted()).isFalse();
    }

    @Test
    void without_a_local_record_the_cluster_is_asked_only_when_allowed_and_a_released_lease_is_no_run() {
        Journal journal = new Journal(tmp);
        assertThat(new RunRecords(reads(Map.of()), journal, SERVER).find("shop", "db", false)).isEmpty();
        assertThat(new RunRecords(reads(Map.of()), journal, SERVER).find("shop", "db", true)).isEmpty();
        assertThat(new RunRecords(reads(Map.of("lease/shop/stsresize-db", lease("", null))), journal, SERVER).find("shop", "db", true))
                .as("released: neither holder nor digest").isEmpty();
        // a run stopped on request frees its holder and keeps its digest: still a run to resume
        assertThat(new RunRecords(reads(Map.of("lease/shop/stsresize-db", lease("", "x"))), journal, SERVER).find("shop", "db", true)
                .orElseThrow().problem()).isEqualTo("its Lease names a record but Secret shop/stsresize-db does not exist");
        Map<String, ObjectNode> forbidden = new HashMap<>();
        forbidden.put("lease/shop/stsresize-db", null);
        assertThat(new RunRecords(reads(forbidden), journal, SERVER).find("shop", "db", true)).as("no Lease to read").isEmpty();
    }

    @Test
    void a_record_in_the_cluster_is_read_against_its_lease_digest_with_the_leases_phase() {
        Record r = record(SERVER);
        ObjectNode secret = RecordSecret.object(r, null);
        String digest = secret.path("metadata").path("annotations").path(RecordSecret.DIGEST).asText();
        Map<String, ObjectNode> objects = new HashMap<>(Map.of("lease/shop/stsresize-db", lease("bob", digest),
                "secret/shop/stsresize-db", secret, "sts/shop/db", sts("u1")));
        PendingRun found = new RunRecords(reads(objects), new Journal(tmp), SERVER).find("shop", "db", true).orElseThrow();
        assertThat(found.local()).isFalse();
        assertThat(found.source()).isEqualTo("Lease shop/stsresize-db and Secret shop/stsresize-db");
        assertThat(found.trusted()).as(found.problem()).isTrue();
        assertThat(found.record().phase()).as("the Lease carries the phase").isEqualTo("deleting");
        assertThat(found.record().claimTargets()).containsExactly(Map.entry("data-db-0", "2Gi"));
    }

    @Test
    void each_way_the_stored_copy_is_not_the_record_is_named() {
        Record r = record(SERVER);
        ObjectNode secret = RecordSecret.object(r, null);
        String digest = secret.path("metadata").path("annotations").path(RecordSecret.DIGEST).asText();

        assertThat(problem(Map.of("lease/shop/stsresize-db", lease("bob", null))))
                .isEqualTo("its Lease, held by bob, names no record digest (stsresize.dev/record-sha256)");
        assertThat(problem(Map.of("lease/shop/stsresize-db", lease("bob", digest))))
                .isEqualTo("its Lease names a record but Secret shop/stsresize-db does not exist");
        assertThat(problem(Map.of("lease/shop/stsresize-db", lease("bob", "0".repeat(64)), "secret/shop/stsresize-db", secret)))
                .startsWith("Secret shop/stsresize-db is not its record: its sha256 " + digest + " is not the one its Lease holds");
        Map<String, ObjectNode> secretForbidden = new HashMap<>(Map.of("lease/shop/stsresize-db", lease("bob", digest)));
        secretForbidden.put("secret/shop/stsresize-db", null);
        assertThat(problem(secretForbidden)).isEqualTo("Secret shop/stsresize-db cannot be read: secret forbidden");
    }

    private String problem(Map<String, ObjectNode> objects) {
        PendingRun run = new RunRecords(reads(objects), new Journal(tmp), SERVER).find("shop", "db", true).orElseThrow();
        assertThat(run.record()).isNull();
        assertThat(run.trusted()).isFalse();
        return run.problem();
    }
}
