package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ResourceAccess;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lock and record of a run: taken only from nobody, from ourselves, from an expired holder with
 * --take-over, or from a dead process of this machine; the record's Secret written once the Lease is
 * ours (never over someone else's Secret); phases written; freed on a stop, released at the end.
 */
class LeaseLockTest {
    private static final Duration MINUTE = Duration.ofSeconds(60);
    @TempDir Path home;
    private final MemoryCluster cluster = new MemoryCluster();

    private Journal journal() {
        return new Journal(home);
    }

    private static Record record(String holder) {
        ObjectNode live = MemoryCluster.json("{'kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'u1'}}");
        return RecordBuilder.record().holder(holder).phase(Phase.LOCK.recorded()).live(live).reapply(live)
                .claimTargets(Map.of("data-db-0", "20Gi")).build();
    }

    private LeaseLock acquire(String holder, boolean takeOver, String previous) {
        return LeaseLock.acquire(cluster, journal(), cluster.time, MINUTE, true, record(holder), takeOver, previous);
    }

    private ObjectNode lease() {
        return cluster.get("Lease", "shop", "stsresize-db").orElseThrow();
    }

    private void heldBy(String holder, String renewTime, String annotations) {
        cluster.put("{'apiVersion':'coordination.k8s.io/v1','kind':'Lease','metadata':{'name':'stsresize-db','namespace':'shop',"
                + "'annotations':{'stsresize.dev/phase':'growing'" + annotations + "}},'spec':{'holderIdentity':'" + holder + "',"
                + "'leaseDurationSeconds':60,'acquireTime':'2025-12-31T23:00:00.000000Z'" + (renewTime == null ? "" : ",'renewTime':'"
                + renewTime + "'") + ",'leaseTransitions':2}}");
    }

    @Test
    void an_absent_lease_is_created_the_record_written_to_its_secret_and_the_journal() {
        LeaseLock lock = acquire("alice@laptop 1", false, null);

        ObjectNode l = lease();
        assertThat(l.at("/spec/holderIdentity").asText()).isEqualTo("alice@laptop 1");
        assertThat(l.at("/spec/leaseDurationSeconds").asInt()).isEqualTo(60);
        assertThat(l.at("/spec/acquireTime").asText()).isEqualTo("2026-01-01T00:00:00.000000Z");
        assertThat(l.at("/spec/renewTime").asText()).isEqualTo("2026-01-01T00:00:00.000000Z");
        assertThat(l.at("/spec/leaseTransitions").asInt()).isZero();
        assertThat(l.at("/metadata/labels/app.kubernetes.io~1managed-by").asText()).isEqualTo("kubectl-stsresize");
        assertThat(LeaseLock.phaseOf(l)).isEqualTo("locked");
        assertThat(LeaseLock.digestOf(l)).isEqualTo(RecordSecret.digest(RecordSecret.payload(record("alice@laptop 1"))));
        assertThat(HolderProcess.parse(l.at("/metadata/annotations").path(HolderProcess.ANNOTATION).asText()))
                .hasValueSatisfying(p -> assertThat(p.holder()).isEqualTo("alice@laptop 1"));
        ObjectNode secret = cluster.get("Secret", "shop", "stsresize-db").orElseThrow();
        assertThat(secret.path("type").asText()).isEqualTo(RecordSecret.TYPE);
        assertThat(journal().read("shop", "db")).hasValueSatisfying(r -> assertThat(r.holder()).isEqualTo("alice@laptop 1"));
        assertThat(lock.record()).isEqualTo(record("alice@laptop 1"));
        assertThat(lock.tookOver()).isEmpty();
        assertThat(lock.lost()).isNull();
        assertThat(LeaseLock.unfinishedLease(cluster, "shop", "db")).isPresent();
        lock.close();
    }

    @Test
    void without_leases_only_the_journal_keeps_the_record_and_nothing_is_written_to_the_cluster() {
        LeaseLock lock = LeaseLock.acquire(cluster, journal(), cluster.time, MINUTE, false, record("alice"), false, null);
        lock.phase(Phase.GROW.recorded());
        assertThat(journal().read("shop", "db")).hasValueSatisfying(r -> assertThat(r.phase()).isEqualTo("growing"));
        assertThat(lock.free()).isEmpty();
        lock.release();
        assertThat(journal().read("shop", "db")).isEmpty();
        assertThat(cluster.writes()).isEmpty();
    }

    @Test
    void a_live_holder_keeps_the_lock_and_nothing_is_written() {
        heldBy("bob@desk 9", "2025-12-31T23:59:30.000000Z", "");
        assertThatThrownBy(() -> acquire("alice", true, null)).isInstanceOf(Locked.class)
                .hasMessage("StatefulSet shop/db is being converged by bob@desk 9 since 2025-12-31T23:00:00.000000Z (phase growing, Lease"
                        + " shop/stsresize-db renewed at 2025-12-31T23:59:30.000000Z); wait for that run to finish, then run again");
        heldBy("bob@desk 9", "2025-12-31T23:59:00.000000Z", "");
        assertThatThrownBy(() -> acquire("alice", true, null)).as("expiring this very instant: not yet").isInstanceOf(Locked.class)
                .hasMessageContaining("is being converged by");
        assertThat(cluster.realWrites()).isEmpty();
        assertThat(journal().read("shop", "db")).isEmpty();
    }

    @Test
    void an_expired_holder_is_taken_over_only_when_asked() {
        heldBy("bob@desk 9", "2025-12-31T23:58:59.999999Z", "");
        assertThatThrownBy(() -> acquire("alice", false, null)).isInstanceOf(Locked.class)
                .hasMessage("StatefulSet shop/db was being converged by bob@desk 9 since 2025-12-31T23:00:00.000000Z (phase growing), which"
                        + " stopped renewing Lease shop/stsresize-db at 2025-12-31T23:58:59.999999Z; if that run is dead, run again with"
                        + " --take-over (or `resume --take-over`) to finish its work");
        assertThat(cluster.realWrites()).isEmpty();

        LeaseLock lock = acquire("alice", true, null);
        ObjectNode l = lease();
        assertThat(l.at("/spec/holderIdentity").asText()).isEqualTo("alice");
        assertThat(l.at("/spec/acquireTime").asText()).isEqualTo("2026-01-01T00:00:00.000000Z");
        assertThat(l.at("/spec/leaseTransitions").asInt()).isEqualTo(3);
        assertThat(lock.tookOver()).as("an expired Lease is no dead process").isEmpty();
        lock.close();
    }

    @Test
    void a_lease_never_renewed_is_expired_and_one_without_a_duration_lasts_a_minute() {
        heldBy("bob", null, "");
        assertThatThrownBy(() -> acquire("alice", false, null)).hasMessageContaining("stopped renewing");
        cluster.put("{'kind':'Lease','metadata':{'name':'stsresize-db','namespace':'shop'},'spec':{'holderIdentity':'bob',"
                + "'renewTime':'2025-12-31T23:59:30.000000Z'}}");
        assertThatThrownBy(() -> acquire("alice", false, null)).hasMessage("StatefulSet shop/db is being converged by bob since an unknown"
                + " time (phase unknown, Lease shop/stsresize-db renewed at 2025-12-31T23:59:30.000000Z); wait for that run to finish, then"
                + " run again");
        cluster.put("{'kind':'Lease','metadata':{'name':'stsresize-db','namespace':'shop'},'spec':{'holderIdentity':'bob',"
                + "'renewTime':'garbage'}}");
        assertThatThrownBy(() -> acquire("alice", false, null)).hasMessageContaining("stopped renewing");
    }

    @Test
    void our_own_holder_or_this_machines_crashed_run_is_taken_at_once_keeping_its_acquire_time() {
        heldBy("alice", "2025-12-31T23:59:59.000000Z", "");
        LeaseLock mine = acquire("alice", false, null);
        assertThat(lease().at("/spec/acquireTime").asText()).isEqualTo("2025-12-31T23:00:00.000000Z");
        assertThat(lease().at("/spec/leaseTransitions").asInt()).isEqualTo(2);
        mine.close();

        heldBy("alice@old 3", "2025-12-31T23:59:59.000000Z", "");
        LeaseLock previous = acquire("alice@new 4", false, "alice@old 3");
        assertThat(lease().at("/spec/holderIdentity").asText()).isEqualTo("alice@new 4");
        assertThat(previous.tookOver()).isEmpty();
        previous.close();
    }

    @Test
    void a_freed_lease_is_taken_at_once() {
        heldBy("", "2025-12-31T23:59:59.000000Z", "");
        LeaseLock lock = acquire("alice", false, null);
        assertThat(lease().at("/spec/holderIdentity").asText()).isEqualTo("alice");
        lock.close();
    }

    @Test
    void the_lease_of_a_dead_process_of_this_machine_is_taken_over_saying_so() {
        HolderProcess.Machine m = HolderProcess.LOCAL;
        HolderProcess dead = new HolderProcess("bob@here 2147483646", m.machineId().orElseThrow(), m.bootId().orElseThrow(),
                m.pidNamespace().orElseThrow(), 2147483646L, Instant.parse("2026-01-01T00:00:00Z"));
        String annotation = ",'" + HolderProcess.ANNOTATION + "':'" + dead.annotation().replace("\"", "\\\"") + "'";
        heldBy("bob@here 2147483646", "2025-12-31T23:59:59.000000Z", annotation.replace('\'', '"'));
        LeaseLock lock = acquire("alice", false, null);
        assertThat(lock.tookOver()).isEqualTo("took over the Lease of a run of this machine that is no longer running (pid 2147483646,"
                + " started 2026-01-01T00:00:00Z, holder bob@here 2147483646)");
        assertThat(HolderProcess.parse(lease().at("/metadata/annotations").path(HolderProcess.ANNOTATION).asText()).orElseThrow().holder())
                .as("the description is this process's now").isEqualTo("alice");
        lock.close();

        heldBy("carol@here 1", "2025-12-31T23:59:59.000000Z", annotation.replace('\'', '"'));
        assertThatThrownBy(() -> acquire("alice", false, null)).as("a description of another holder").isInstanceOf(Locked.class);

        heldBy("bob@here 2147483646", "2025-12-31T23:59:59.000000Z", annotation.replace('\'', '"'));
        LeaseLock ours = acquire("bob@here 2147483646", false, null);
        assertThat(ours.tookOver()).as("our own holder is not taken over").isEmpty();
        ours.close();
        heldBy("bob@here 2147483646", "2025-12-31T23:59:59.000000Z", annotation.replace('\'', '"'));
        LeaseLock previous = acquire("alice", false, "bob@here 2147483646");
        assertThat(previous.tookOver()).isEmpty();
        previous.close();
    }

    @Test
    void a_holder_this_machine_still_runs_is_not_taken_over() {
        HolderProcess alive = HolderProcess.current("bob@here 1", HolderProcess.LOCAL).orElseThrow();
        heldBy("bob@here 1", "2026-01-01T00:00:00.000000Z", ",\"" + HolderProcess.ANNOTATION + "\":\""
                + alive.annotation().replace("\"", "\\\"") + "\"");
        assertThatThrownBy(() -> acquire("alice", false, null)).isInstanceOf(Locked.class).hasMessageContaining("is being converged by bob");
    }

    @Test
    void a_freed_or_released_lease_is_not_renewed_again() throws InterruptedException {
        LeaseLock freed = LeaseLock.acquire(cluster, journal(), cluster.time, Duration.ofMillis(30), true, record("alice"), false, null);
        assertThat(freed.free()).isEmpty();
        int writes = cluster.writes("updateLease").size();
        Thread.sleep(150);
        assertThat(cluster.writes("updateLease")).as("no renewal after the stop").hasSize(writes);
        assertThat(lease().at("/spec/holderIdentity").isMissingNode()).isTrue();

        LeaseLock released = LeaseLock.acquire(cluster, journal(), cluster.time, Duration.ofMillis(30), true, record("alice"), false, null);
        released.release();
        int after = cluster.writes("updateLease").size();
        Thread.sleep(150);
        assertThat(cluster.writes("updateLease")).as("no renewal after the release").hasSize(after);
    }

    @Test
    void a_conflict_is_read_again_and_one_that_never_ends_is_a_lock_someone_else_is_taking() {
        cluster.failNext("createLease", MemoryCluster.error(409, "AlreadyExists", "exists"));
        acquire("alice", false, null).close();
        assertThat(lease().at("/spec/holderIdentity").asText()).isEqualTo("alice");

        for (int i = 0; i < 5; i++) {
            cluster.failNext("updateLease", MemoryCluster.error(409, "Conflict", "modified"));
        }
        assertThatThrownBy(() -> acquire("alice", false, null)).isInstanceOf(Locked.class)
                .hasMessage("Lease shop/stsresize-db kept changing under us; another run is starting: wait, then run again");
    }

    @Test
    void a_lease_that_cannot_be_written_is_no_record_and_nothing_else_is_written() {
        cluster.failNext("createLease", MemoryCluster.error(403, "Forbidden", "leases is forbidden"));
        assertThatThrownBy(() -> acquire("alice", false, null)).isInstanceOf(LeaseLock.NotRecorded.class)
                .hasMessage("Lease shop/stsresize-db could not be written: leases is forbidden");
        assertThat(cluster.realWrites()).isEmpty();
        assertThat(journal().read("shop", "db")).isEmpty();
    }

    @Test
    void a_secret_that_cannot_be_written_releases_the_lease_again() {
        cluster.failNext("createSecret", MemoryCluster.error(403, "Forbidden", "secrets is forbidden"));
        assertThatThrownBy(() -> acquire("alice", false, null)).isInstanceOf(LeaseLock.NotRecorded.class)
                .hasMessage("Secret shop/stsresize-db could not be written: secrets is forbidden; the Lease was released again");
        assertThat(lease().at("/spec/holderIdentity").isMissingNode()).isTrue();
        assertThat(LeaseLock.phaseOf(lease())).isEqualTo("released");
        assertThat(LeaseLock.digestOf(lease())).isEmpty();
        assertThat(LeaseLock.unfinishedLease(cluster, "shop", "db")).isEmpty();
        assertThat(journal().read("shop", "db")).isEmpty();
    }

    @Test
    void a_record_secret_left_by_a_run_is_replaced_someone_elses_secret_is_left_alone() {
        cluster.put("{'kind':'Secret','metadata':{'name':'stsresize-db','namespace':'shop','uid':'s-old'},'type':'" + RecordSecret.TYPE + "'}");
        LeaseLock lock = acquire("alice", false, null);
        assertThat(cluster.writes("updateSecret")).hasSize(1);
        lock.release();
        assertThat(cluster.deletes()).singleElement().satisfies(d -> {
            assertThat(d.method()).isEqualTo("deleteRecordSecret");
            assertThat(d.detail()).isEqualTo("uid=s-old");
        });

        cluster.put("{'kind':'Secret','metadata':{'name':'stsresize-db','namespace':'shop','uid':'s-tls'},'type':'kubernetes.io/tls'}");
        assertThatThrownBy(() -> acquire("alice", false, null)).isInstanceOf(LeaseLock.NotRecorded.class)
                .hasMessage("Secret shop/stsresize-db exists with type \"kubernetes.io/tls\", not " + RecordSecret.TYPE + ": it is not a run"
                        + " record, so it is left alone; rename or remove it; the Lease was released again");
        assertThat(cluster.get("Secret", "shop", "stsresize-db").orElseThrow().path("type").asText()).isEqualTo("kubernetes.io/tls");
        assertThat(cluster.writes("updateSecret")).hasSize(1);
    }

    @Test
    void a_conflict_on_a_secret_that_vanished_is_the_conflict() {
        cluster.failNext("createSecret", MemoryCluster.error(409, "AlreadyExists", "secrets \"stsresize-db\" already exists"));
        assertThatThrownBy(() -> acquire("alice", false, null)).isInstanceOf(LeaseLock.NotRecorded.class)
                .hasMessage("Secret shop/stsresize-db could not be written: secrets \"stsresize-db\" already exists; the Lease was released"
                        + " again");
    }

    @Test
    void each_phase_is_written_to_the_lease_and_the_journal_and_the_legacy_record_is_dropped() {
        heldBy("alice", "2025-12-31T23:59:59.000000Z", ",'stsresize.dev/record':'old'");
        LeaseLock lock = acquire("alice", false, null);
        assertThat(lease().at("/metadata/annotations").has(LeaseLock.LEGACY_RECORD)).isFalse();
        cluster.time.advance(Duration.ofSeconds(3));
        lock.phase(Phase.ORPHAN_DELETE.recorded());
        assertThat(LeaseLock.phaseOf(lease())).isEqualTo("deleting");
        assertThat(lease().at("/spec/renewTime").asText()).isEqualTo("2026-01-01T00:00:03.000000Z");
        assertThat(lock.record().phase()).isEqualTo("deleting");
        assertThat(journal().read("shop", "db").orElseThrow().phase()).isEqualTo("deleting");
        lock.close();
    }

    @Test
    void a_phase_written_over_our_own_lease_changed_meanwhile_goes_through_one_taken_by_another_is_lost() {
        LeaseLock lock = acquire("alice", false, null);
        cluster.edit("Lease", "shop", "stsresize-db", l -> ((ObjectNode) l.path("metadata")).putObject("labels").put("x", "y"));
        lock.phase(Phase.GROW.recorded());
        assertThat(LeaseLock.phaseOf(lease())).isEqualTo("growing");
        assertThat(lock.lost()).isNull();

        cluster.edit("Lease", "shop", "stsresize-db", l -> ((ObjectNode) l.path("spec")).put("holderIdentity", "bob"));
        assertThatThrownBy(() -> lock.phase(Phase.ORPHAN_DELETE.recorded())).isInstanceOf(Locked.class)
                .hasMessage("Lease shop/stsresize-db was taken by bob");
        assertThat(lock.lost()).isEqualTo("Lease shop/stsresize-db was taken by bob");
        assertThat(lease().at("/spec/holderIdentity").asText()).isEqualTo("bob");

        int writes = cluster.realWrites().size();
        lock.release();
        assertThat(cluster.realWrites()).as("a lost lock releases nothing in the cluster").hasSize(writes);
        assertThat(journal().read("shop", "db")).isEmpty();
        assertThat(lock.free()).isEmpty();
    }

    @Test
    void a_lease_deleted_under_a_run_is_lost_to_nobody_and_other_failures_are_the_callers() {
        LeaseLock lock = acquire("alice", false, null);
        cluster.failNext("updateLease", MemoryCluster.error(500, "InternalError", "etcd"));
        assertThatThrownBy(() -> lock.phase(Phase.GROW.recorded())).hasMessage("etcd");
        assertThat(lock.lost()).isNull();

        cluster.failNext("updateLease", MemoryCluster.error(409, "Conflict", "modified"));
        cluster.remove("Lease", "shop", "stsresize-db");
        assertThatThrownBy(() -> lock.phase(Phase.GROW.recorded())).isInstanceOf(Locked.class)
                .hasMessage("Lease shop/stsresize-db was taken by nobody (deleted)");
    }

    @Test
    void release_frees_the_lease_deletes_the_secret_by_its_uid_and_removes_the_journal_entry() {
        LeaseLock lock = acquire("alice", false, null);
        String secretUid = cluster.get("Secret", "shop", "stsresize-db").orElseThrow().at("/metadata/uid").asText();
        lock.release();
        ObjectNode l = lease();
        assertThat(l.at("/spec/holderIdentity").isMissingNode()).isTrue();
        assertThat(LeaseLock.phaseOf(l)).isEqualTo("released");
        assertThat(LeaseLock.digestOf(l)).isEmpty();
        assertThat(l.at("/metadata/annotations").has(HolderProcess.ANNOTATION)).isFalse();
        assertThat(cluster.get("Secret", "shop", "stsresize-db")).isEmpty();
        assertThat(cluster.deletes()).singleElement().satisfies(d -> assertThat(d.detail()).isEqualTo("uid=" + secretUid));
        assertThat(journal().read("shop", "db")).isEmpty();
        assertThat(LeaseLock.unfinishedLease(cluster, "shop", "db")).isEmpty();
    }

    @Test
    void a_stop_frees_the_holder_and_keeps_phase_and_digest_for_resume() {
        LeaseLock lock = acquire("alice", false, null);
        lock.phase(Phase.ORPHAN_DELETE.recorded());
        assertThat(lock.free()).isEmpty();
        ObjectNode l = lease();
        assertThat(l.at("/spec/holderIdentity").isMissingNode()).isTrue();
        assertThat(LeaseLock.phaseOf(l)).isEqualTo("deleting");
        assertThat(LeaseLock.digestOf(l)).isNotEmpty();
        assertThat(l.at("/metadata/annotations").has(HolderProcess.ANNOTATION)).isFalse();
        assertThat(cluster.get("Secret", "shop", "stsresize-db")).isPresent();
        assertThat(journal().read("shop", "db")).isPresent();
        assertThat(LeaseLock.unfinishedLease(cluster, "shop", "db")).isPresent();
        assertThat(cluster.deletes()).isEmpty();
    }

    @Test
    void a_lease_that_cannot_be_freed_says_it_stays_held_until_it_expires() {
        LeaseLock lock = acquire("alice", false, null);
        cluster.failNext("updateLease", MemoryCluster.error(409, "Conflict", "modified"));
        assertThat(lock.free()).isEqualTo("Lease shop/stsresize-db could not be freed (modified): it stays held until it expires, 60s after"
                + " its last renewal");
    }

    @Test
    void the_lease_is_renewed_in_the_background_and_a_holder_taken_by_another_is_noticed() throws InterruptedException {
        LeaseLock lock = LeaseLock.acquire(cluster, journal(), cluster.time, Duration.ofMillis(30), true, record("alice"), false, null);
        try {
            for (int i = 0; i < 500 && cluster.writes("updateLease").isEmpty(); i++) {
                Thread.sleep(10);
            }
            assertThat(cluster.writes("updateLease")).as("renewed").isNotEmpty();
            assertThat(lease().at("/spec/leaseDurationSeconds").asInt()).as("at least a second").isEqualTo(1);
            cluster.edit("Lease", "shop", "stsresize-db", l -> ((ObjectNode) l.path("spec")).put("holderIdentity", "bob"));
            for (int i = 0; i < 500 && lock.lost() == null; i++) {
                Thread.sleep(10);
            }
            assertThat(lock.lost()).isEqualTo("Lease shop/stsresize-db was taken by bob");
        } finally {
            lock.close();
        }
    }

    @Test
    void the_access_a_cluster_record_needs_is_asked_verb_by_verb() {
        assertThat(LeaseLock.clusterRecordAccess("shop")).extracting(ResourceAccess::describe).containsExactly(
                "get leases.coordination.k8s.io", "create leases.coordination.k8s.io", "update leases.coordination.k8s.io",
                "get secrets", "create secrets", "update secrets", "delete secrets");
        assertThat(LeaseLock.clusterRecordAccess("shop")).allSatisfy(a -> assertThat(a.namespace()).isEqualTo("shop"));
        assertThat(LeaseLock.permitted(cluster, "shop")).isTrue();
        cluster.allowed = a -> !a.describe().equals("delete secrets");
        assertThat(LeaseLock.permitted(cluster, "shop")).isFalse();
    }

    @Test
    void small_readings() {
        assertThat(LeaseLock.leaseName("db")).isEqualTo("stsresize-db");
        assertThat(LeaseLock.leaseName("x".repeat(300))).hasSize(253);
        assertThat(LeaseLock.leaseName("x".repeat(243))).hasSize(253);
        assertThat(LeaseLock.parse("")).isNull();
        assertThat(LeaseLock.parse("garbage")).isNull();
        assertThat(LeaseLock.parse("2026-01-01T00:00:00.000001Z")).isEqualTo(Instant.parse("2026-01-01T00:00:00.000001Z"));
        assertThat(LeaseLock.now(cluster.time)).isEqualTo("2026-01-01T00:00:00.000000Z");
        assertThat(LeaseLock.nothing().isMissingNode()).isTrue();
        assertThat(LeaseLock.phaseOf(MemoryCluster.json("{}"))).isEmpty();
        assertThat(LeaseLock.unfinishedLease(cluster, "shop", "db")).isEmpty();
    }
}
