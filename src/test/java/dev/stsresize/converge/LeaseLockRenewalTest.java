package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * While a run holds its lock: what it learns is recorded journal first, then the Secret, then the Lease naming the new
 * digest; the Lease is renewed well before it expires, by a thread that never keeps the process alive on its own.
 */
class LeaseLockRenewalTest {
    @TempDir Path home;
    private final MemoryCluster cluster = new MemoryCluster();

    private Journal journal() {
        return new Journal(home);
    }

    private LeaseLock acquire(Duration duration, boolean useLease) {
        ObjectNode live = MemoryCluster.json("{'kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'u1'}}");
        Record r = RecordBuilder.record().holder("alice@laptop 1").live(live).reapply(live).claimTargets(Map.of("data-db-0", "20Gi")).build();
        return LeaseLock.acquire(cluster, journal(), cluster.time, duration, useLease, r, false, null);
    }

    @Test
    void whatTheRunLearnsIsRecordedInTheJournalTheSecretAndTheLeasesDigest() {
        LeaseLock lock = acquire(Duration.ofMinutes(1), true);
        try {
            ObjectNode reapplied = MemoryCluster.json("{'kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'u2'}}");
            Record learnt = lock.record().withReapply(reapplied, Map.of("data-db-0", "30Gi"));

            lock.update(learnt);

            assertThat(lock.record()).isEqualTo(learnt);
            assertThat(journal().read("shop", "db")).contains(learnt);
            ObjectNode lease = cluster.get("Lease", "shop", "stsresize-db").orElseThrow();
            String digest = RecordSecret.digest(RecordSecret.payload(learnt));
            assertThat(LeaseLock.digestOf(lease)).isEqualTo(digest);
            // the Secret keeps the record, the Lease its phase
            assertThat(RecordSecret.read(cluster.get("Secret", "shop", "stsresize-db").orElseThrow(), digest)).isEqualTo(learnt.withPhase(""));
            assertThat(LeaseLock.phaseOf(lease)).isEqualTo(learnt.phase());
        } finally {
            lock.close();
        }
    }

    @Test
    void withoutLeasesWhatTheRunLearnsGoesToTheJournalAlone() {
        LeaseLock lock = acquire(Duration.ofMinutes(1), false);
        Record learnt = lock.record().withPhase(Phase.REAPPLY.recorded());

        lock.update(learnt);

        assertThat(journal().read("shop", "db")).contains(learnt);
        assertThat(cluster.realWrites()).isEmpty();
        assertThat(lock.renewing()).as("nothing to renew").isFalse();
    }

    @Test
    void theLeaseIsRenewedWellBeforeItExpiresAndNoLongerOnceTheRunStops() throws InterruptedException {
        Duration duration = Duration.ofMillis(1500);
        long start = System.nanoTime();
        LeaseLock lock = acquire(duration, true);
        try {
            assertThat(lock.renewing()).isTrue();
            while (cluster.writes("updateLease").isEmpty() && System.nanoTime() - start < duration.toNanos()) {
                Thread.sleep(10);
            }
            assertThat(cluster.writes("updateLease")).as("renewed within its duration").isNotEmpty();
        } finally {
            lock.close();
        }
        assertThat(lock.renewing()).isFalse();
    }

    @Test
    void theRenewingThreadNeverKeepsTheProcessAlive() {
        LeaseLock lock = acquire(Duration.ofMinutes(1), true);
        try {
            assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> t.getName().equals("stsresize-lease-renew") && t.isAlive())
                    .isNotEmpty().allMatch(Thread::isDaemon);
        } finally {
            lock.close();
        }
    }
}
