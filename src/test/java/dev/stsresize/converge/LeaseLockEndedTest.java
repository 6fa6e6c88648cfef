package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that will not go on (its requests reverted) leaves nothing a later run would find: its Lease released as a
 * finished run leaves it, its record Secret deleted by the UID read (only one of the record's type), its journal entry
 * removed; nothing is written where nothing is held. And which holder of a Lease forbids another writer: one that renews
 * it and is not a dead process of this machine.
 */
class LeaseLockEndedTest {
    private static final String OTHER_SECRET = "{'kind':'Secret','metadata':{'namespace':'shop','name':'stsresize-db'},'type':'Opaque'}";
    @TempDir Path home;
    private final MemoryCluster cluster = new MemoryCluster();

    private Journal journal() {
        return new Journal(home);
    }

    /** A run of shop/db by {@code holder} that took its lock and stopped renewing it (a crash). */
    private void crashedRun(String holder) {
        ObjectNode live = MemoryCluster.json("{'kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'u1'}}");
        Record r = RecordBuilder.record().holder(holder).live(live).reapply(live).build();
        LeaseLock.acquire(cluster, journal(), cluster.time, Duration.ofSeconds(60), true, r, false, null).close();
    }

    /** Lease shop/stsresize-db at phase growing, held by {@code holder} ("" for none), renewed at {@code renewTime} ("" never). */
    private static ObjectNode lease(String holder, String renewTime) {
        return MemoryCluster.json("{'kind':'Lease','metadata':{'name':'stsresize-db','namespace':'shop','annotations':{"
                + "'stsresize.dev/phase':'growing'}},'spec':{'holderIdentity':'" + holder + "'"
                + (renewTime.isEmpty() ? "" : ",'renewTime':'" + renewTime + "'") + "}}");
    }

    private static ObjectNode lease(String holder, String renewTime, int durationSeconds) {
        ObjectNode l = lease(holder, renewTime);
        ((ObjectNode) l.path("spec")).put("leaseDurationSeconds", durationSeconds);
        return l;
    }

    @Test
    void aRunThatWillNotGoOnIsReleasedItsSecretDeletedByUidAndItsJournalEntryRemoved() {
        crashedRun("alice@laptop 1");
        cluster.edit("Lease", "shop", "stsresize-db", l -> Objects.child(Objects.child(l, "metadata"), "annotations")
                .put(LeaseLock.LEGACY_RECORD, "old"));
        String secretUid = Objects.uid(cluster.get("Secret", "shop", "stsresize-db").orElseThrow());

        String freed = LeaseLock.releaseEnded(cluster, journal(), "shop", "db");

        assertThat(freed).isEqualTo("Lease shop/stsresize-db freed, record Secret shop/stsresize-db deleted, journal entry "
                + journal().file("shop", "db") + " removed");
        ObjectNode l = cluster.get("Lease", "shop", "stsresize-db").orElseThrow();
        assertThat(l.at("/spec/holderIdentity").isMissingNode()).isTrue();
        assertThat(LeaseLock.phaseOf(l)).isEqualTo("released");
        assertThat(LeaseLock.digestOf(l)).isEmpty();
        assertThat(l.at("/metadata/annotations").has(LeaseLock.LEGACY_RECORD)).isFalse();
        assertThat(l.at("/metadata/annotations").has(HolderProcess.ANNOTATION)).isFalse();
        assertThat(cluster.deletes()).singleElement().satisfies(d -> assertThat(d.detail()).isEqualTo("uid=" + secretUid));
        assertThat(journal().read("shop", "db")).isEmpty();
        assertThat(LeaseLock.unfinishedLease(cluster, "shop", "db")).isEmpty();
    }

    @Test
    void aLeaseFreedByAStopStillKeepsARunThatIsReleasedTheSameWay() {
        crashedRun("alice@laptop 1");
        cluster.edit("Lease", "shop", "stsresize-db", l -> ((ObjectNode) l.path("spec")).remove("holderIdentity"));

        assertThat(LeaseLock.releaseEnded(cluster, journal(), "shop", "db")).startsWith("Lease shop/stsresize-db freed, ");
        assertThat(LeaseLock.digestOf(cluster.get("Lease", "shop", "stsresize-db").orElseThrow())).isEmpty();
    }

    @Test
    void nothingHeldIsNothingWrittenAndSomeoneElsesSecretIsLeftAlone() {
        cluster.put(lease("", ""));
        cluster.put(OTHER_SECRET);

        assertThat(LeaseLock.releaseEnded(cluster, journal(), "shop", "db")).isEmpty();

        assertThat(cluster.realWrites()).isEmpty();
        assertThat(cluster.get("Secret", "shop", "stsresize-db")).isPresent();
    }

    @Test
    void aJournalEntryAloneIsRemovedSayingWhere() {
        ObjectNode live = MemoryCluster.json("{'kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'u1'}}");
        journal().write(RecordBuilder.record().live(live).reapply(live).build());

        assertThat(LeaseLock.releaseEnded(cluster, journal(), "shop", "db")).isEqualTo("journal entry " + journal().file("shop", "db")
                + " removed");
        assertThat(journal().read("shop", "db")).isEmpty();
    }

    @Test
    void aHolderRenewingItsLeaseForbidsAnotherWriterSayingItsPhaseAndRenewal() {
        // the clock reads 2026-01-01T00:00:00Z
        assertThat(LeaseLock.heldBy(lease("bob@desk 9", "2025-12-31T23:59:30.000000Z", 60), cluster.time))
                .isEqualTo("bob@desk 9 (phase growing, renewed at 2025-12-31T23:59:30.000000Z)");
        assertThat(LeaseLock.heldBy(lease("bob@desk 9", "2025-12-31T23:59:01.000000Z"), cluster.time))
                .as("a Lease without a duration lasts a minute").startsWith("bob@desk 9 (phase growing");
    }

    @Test
    void aLeaseFreedExpiredOrNeverRenewedForbidsNoOne() {
        assertThat(LeaseLock.heldBy(lease("", "2025-12-31T23:59:30.000000Z"), cluster.time)).isEmpty();
        assertThat(LeaseLock.heldBy(lease("bob@desk 9", "2025-12-31T23:59:29.000000Z", 30), cluster.time))
                .isEmpty();
        assertThat(LeaseLock.heldBy(lease("bob@desk 9", "2025-12-31T23:58:59.000000Z"), cluster.time)).isEmpty();
        assertThat(LeaseLock.heldBy(lease("bob@desk 9", ""), cluster.time)).isEmpty();
    }

    @Test
    void aDeadProcessOfThisMachineForbidsNoOneEvenWhileItsLeaseLasts() {
        HolderProcess.Machine m = HolderProcess.LOCAL;
        HolderProcess dead = new HolderProcess("bob@here 2147483646", m.machineId().orElseThrow(), m.bootId().orElseThrow(),
                m.pidNamespace().orElseThrow(), 2147483646L, Instant.parse("2026-01-01T00:00:00Z"));
        ObjectNode l = lease("bob@here 2147483646", "2025-12-31T23:59:59.000000Z");
        Objects.child(Objects.child(l, "metadata"), "annotations").put(HolderProcess.ANNOTATION, dead.annotation());
        assertThat(LeaseLock.heldBy(l, cluster.time)).isEmpty();

        Objects.child(Objects.child(l, "metadata"), "annotations").put(HolderProcess.ANNOTATION,
                HolderProcess.current("bob@here 2147483646", m).orElseThrow().annotation());
        assertThat(LeaseLock.heldBy(l, cluster.time)).as("a process that still runs").isNotEmpty();
        ((ObjectNode) l.path("spec")).put("holderIdentity", "carol@here 1");
        Objects.child(Objects.child(l, "metadata"), "annotations").put(HolderProcess.ANNOTATION, dead.annotation());
        assertThat(LeaseLock.heldBy(l, cluster.time)).as("a dead process described for another holder").startsWith("carol@here 1");
    }
}
