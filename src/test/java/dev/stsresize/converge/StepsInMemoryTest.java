package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The steps one by one where the whole runs do not reach: what the check stops on, the lock's words,
 * a lost lock, a delete left unfinished, the file systems' warnings and the ready replicas.
 */
class StepsInMemoryTest extends OnMemoryWorld {
    /** postgres's orphan delete, allowed for its UID, and {@code meanwhile} what the cluster does once it is sent. */
    private Steps.Deleted orphanDelete(Steps.Run run, java.util.function.Consumer<MemoryCluster.Call> meanwhile) {
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(c -> {
            if (c.method().equals("deleteStatefulSetOrphan")) {
                meanwhile.accept(c);
            }
        });
        return steps.orphanDelete(run, new Steps.DeleteAllowed("shop", "postgres", run.record().uid()));
    }

    @Test
    void the_check_stops_on_a_failed_proof_an_absent_set_a_block_and_a_record_too_large_for_its_secret() {
        Assessed failed = w.assess("postgres").failed("the server's dry run failed: etcd");
        Steps.Checked c = steps.check(failed, MemoryWorld.options(), true);
        assertThat(c.proceeds()).isFalse();
        assertThat(c.stop().reason()).isEqualTo("server-error");
        assertThat(c.stop().detail()).isEqualTo("the server's dry run failed: etcd");
        assertThat(c.stop().claims()).hasSize(3).allSatisfy(x -> {
            assertThat(x.from()).isEqualTo("10Gi");
            assertThat(x.to()).isEqualTo("20Gi");
            assertThat(x.capacity()).isEqualTo("10Gi");
        });

        ObjectNode nowhere = MemoryWorld.declared("postgres");
        ((ObjectNode) nowhere.path("metadata")).put("name", "nowhere");
        assertThat(steps.check(w.assess(nowhere), MemoryWorld.options(), true).stop().outcome()).isEqualTo(Outcome.ABSENT);

        w.cluster.rules = ns -> {
            throw MemoryCluster.error(403, "Forbidden", "no");
        };
        w.cluster.allowed = r -> !r.verb().equals("patch");
        Steps.Checked blocked = w.checked("postgres");
        assertThat(blocked.stop().outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(blocked.stop().reason()).isEqualTo("forbidden");
        w.cluster.allowed = r -> true;

        Assessed a = w.assess("postgres");
        byte[] noise = new byte[1_200_000];
        new Random(7).nextBytes(noise);
        ObjectNode big = a.live().deepCopy();
        Objects.child((ObjectNode) big.path("metadata"), "annotations").put("noise", Base64.getEncoder().encodeToString(noise));
        Assessed large = new Assessed(a.decision(), a.declared(), big, a.reapply(), a.fieldManager(), null);
        Steps.Checked tooLarge = steps.check(large, MemoryWorld.options(), true);
        assertThat(tooLarge.stop().reason()).isEqualTo("record-too-large");
        assertThat(steps.check(large, MemoryWorld.options(), false).proceeds()).as("the journal has no such bound").isTrue();

        Steps.Checked ok = steps.check(a, MemoryWorld.options(), true);
        assertThat(ok.proceeds()).isTrue();
        assertThat(ok.requestsBefore()).containsEntry("data-postgres-0", "10Gi").hasSize(3);
        assertThat(ok.record().live().path("metadata").has("managedFields")).isFalse();
        assertThat(ok.record().reapply()).isNotNull();
        assertThat(ok.record().holder()).isEqualTo("alice@laptop 7");
        assertThat(ok.record().server()).isEqualTo("https://memory");
        assertThat(ok.record().claimTargets()).containsEntry("data-postgres-0", "20Gi");
        assertThat(w.checked("minio").record().reapply())
                .as("claims only: nothing to re-apply").isNull();
        assertThat(w.cluster.realWrites()).isEmpty();
    }

    @Test
    void the_lock_says_where_the_record_is_kept_and_a_crash_right_after_it_stops_renewing() {
        Steps.Acquired l = steps.lock(w.checked("postgres"), MemoryWorld.options(), true);
        assertThat(l.held()).isTrue();
        assertThat(w.heard.events).anySatisfy(p -> {
            assertThat(p.message()).isEqualTo("Lease shop/stsresize-postgres held by alice@laptop 7; record kept in Secret"
                    + " shop/stsresize-postgres and in " + w.journal.directory());
            assertThat(p.write()).isEqualTo(new Write.Lock("shop", "postgres"));
        });
        assertThat(l.run().recreates()).isTrue();
        assertThat(l.run().restored()).isFalse();
        assertThat(l.run().namespace()).isEqualTo("shop");
        l.run().close();

        MemoryWorld other = another("other");
        Steps local = other.steps;
        Assessed a = other.assess("postgres");
        Steps.Acquired journalOnly = local.lock(local.check(a, MemoryWorld.options(), false), MemoryWorld.options(), false);
        assertThat(other.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("Leases forbidden: record kept in the local"
                + " journal " + other.journal.directory() + " only"));
        assertThat(other.cluster.realWrites()).isEmpty();
        journalOnly.run().close();

        MemoryWorld crashing = another("crash");
        Steps crashes = new Steps(crashing.cluster, crashing.cluster.time, crashing.journal, "alice", "https://memory", crashing.heard,
                what -> {
                    throw new IllegalStateException("killed after " + what);
                }, crashing.stop);
        Assessed c = crashing.assess("postgres");
        assertThatThrownBy(() -> crashes.lock(crashes.check(c, MemoryWorld.options(), true), MemoryWorld.options(), true))
                .hasMessage("killed after lock postgres");
        assertThat(crashing.journal.read("shop", "postgres")).isPresent();
    }

    @Test
    void a_lock_lost_while_the_run_works_stops_it_before_its_delete_and_its_re_apply() {
        Steps.Run run = w.locked("postgres");
        steps.grow(run);
        w.cluster.edit("Lease", "shop", "stsresize-postgres", l -> ((ObjectNode) l.path("spec")).put("holderIdentity", "bob"));
        assertThatThrownBy(() -> run.lock.phase(Phase.GROW.recorded())).isInstanceOf(Locked.class);
        Steps.DeleteAllowed allowed = new Steps.DeleteAllowed("shop", "postgres", run.record().uid());
        assertThatThrownBy(() -> steps.orphanDelete(run, allowed)).isInstanceOf(Locked.class)
                .hasMessage("Lease shop/stsresize-postgres was taken by bob while this run worked; it stops here. The journal keeps the record");
        assertThatThrownBy(() -> steps.reapply(run)).isInstanceOf(Locked.class);
        assertThatThrownBy(() -> steps.orphanDelete(run, null)).isInstanceOf(Steps.NotAllowed.class);
        assertThat(w.cluster.realDeletes()).isEmpty();
        run.close();
    }

    @Test
    void a_delete_that_does_not_finish_keeps_the_record_for_resume() {
        Steps.Run run = w.locked("postgres");
        steps.grow(run);
        Steps.Deleted d = orphanDelete(run, c -> w.cluster.put("{'kind':'StatefulSet','metadata':{'name':'postgres','namespace':'shop',"
                + "'uid':'" + c.detail().substring(4) + "','deletionTimestamp':'t','finalizers':['orphan']}}"));
        assertThat(d.gone()).isFalse();
        assertThat(d.nothingDeleted()).isFalse();
        StatefulSetResult r = steps.deleteFailed(run, d);
        assertThat(r.reason()).isEqualTo("delete-incomplete");
        assertThat(r.detail()).endsWith("orphaning its dependents. The run is recorded: `kubectl stsresize resume` finishes it");
        assertThat(LeaseLock.unfinishedLease(w.cluster, "shop", "postgres")).isPresent();
        run.close();
    }

    @Test
    void what_is_lost_in_the_orphan_delete_is_warned() {
        Steps.Run run = w.locked("postgres");
        steps.grow(run);
        Steps.Deleted d = orphanDelete(run, c -> w.cluster.remove("Pod", "shop", "postgres-2"));
        assertThat(d.gone()).isTrue();
        assertThat(d.lost()).isEqualTo("pod postgres-2 is gone");
        assertThat(w.heard.events).anySatisfy(p -> {
            assertThat(p.warning()).isTrue();
            assertThat(p.message()).isEqualTo("after the orphan delete: pod postgres-2 is gone");
        });
        run.close();
    }

    @Test
    void a_claim_the_kubelet_reports_on_the_nodes_disk_is_said_shared_in_the_result_and_its_document() {
        long gi = 1L << 30;
        // hostPath CSI, local-path: the kubelet reports the node's whole disk for the claim's volume
        w.kubeletsReportPostgresClaimsAt(500 * gi);
        StatefulSetResult r = w.converger(GateAnswers.YES).converge(w.assess("postgres"), MemoryWorld.options(), true);
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(r.claims()).hasSize(3).allSatisfy(c -> {
            assertThat(c.fileSystem()).isEqualTo(FileSystem.GROWN);
            assertThat(c.fileSystemShared()).as(c.toString()).isTrue();
        });
        assertThat(r.detail()).as("the summary line").endsWith("3 file systems grown: the pods can write to the new space; 3 are on a"
                + " file system shared with the node (the kubelet reports the node's disk for them): the space is the node's, not the"
                + " claim's size");
        com.fasterxml.jackson.databind.JsonNode doc = dev.stsresize.render.ResultDocument.of(List.of(r));
        assertThat(doc.at("/items/0/claims")).hasSize(3).allSatisfy(c -> assertThat(c.path("fileSystemShared").asBoolean()).as(c.toString()).isTrue());

        // a claim's own file system (the kubelet reports about its size) is not shared
        StatefulSetResult.ClaimResult own = new StatefulSetResult.ClaimResult("c", "10Gi", "20Gi", "20Gi").withFileSystem(FileSystem.GROWN, 20 * gi);
        assertThat(own.fileSystemShared()).isFalse();
        assertThat(dev.stsresize.render.ResultDocument.of(List.of(r.with(r.detail(), List.of(own), r.pods(), r.warnings())))
                .at("/items/0/claims/0").has("fileSystemShared")).isFalse();
    }

    @Test
    void the_end_warns_of_a_file_system_the_summary_contradicts_and_of_fewer_ready_replicas() {
        long gi = 1L << 30;
        w.kubeletsReportPostgresClaimsAt(10 * gi);
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(c -> {
            if (c.method().equals("applyStatefulSet")) {
                w.cluster.edit("StatefulSet", "shop", "postgres", s -> ((ObjectNode) s.path("status")).put("readyReplicas", 1));
            }
        });
        StatefulSetResult r = w.converger(GateAnswers.YES).converge(w.assess("postgres"), MemoryWorld.options(), true);
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(r.claims()).allSatisfy(c -> {
            assertThat(c.fileSystem()).isEqualTo(FileSystem.PENDING);
            assertThat(c.fileSystemBytes()).isEqualTo(10 * gi);
        });
        assertThat(r.warnings()).anySatisfy(x -> assertThat(x).startsWith("claim data-postgres-0 waits for a file system resize on pod"
                + " postgres-0: its status says grown, but the kubelet's summary still reports 10Gi")
                // the kubelet's volume stats period is its configuration (volumeStatsAggPeriod), not a fact of every cluster
                .endsWith("check again at the kubelet's next volume measure (its volumeStatsAggPeriod, 1m by default) with `kubectl"
                + " stsresize usage`").doesNotContain("once a minute"));
        assertThat(r.warnings()).anySatisfy(x -> assertThat(x).isEqualTo("StatefulSet shop/postgres has 1 ready replica(s), 3 before this"
                + " run: its pods may not be serving; see `kubectl get pods -n shop` and `kubectl describe statefulset postgres -n shop`"));
        assertThat(r.detail()).contains("file systems: 3 still growing");
    }

    @Test
    void a_summary_that_cannot_be_read_is_said_in_the_detail() {
        StatefulSetResult r = w.converger(GateAnswers.YES).converge(w.assess("postgres"), MemoryWorld.options(), true);
        // the nodes' summaries are read together, and whichever answers first, the note names every node not read, in name order
        assertThat(r.detail()).endsWith("3 file systems grown: the pods can write to the new space (the summaries of nodes"
                + " demo-node-0 (nodes \"demo-node-0\" not found), demo-node-1 (nodes \"demo-node-1\" not found),"
                + " demo-node-2 (nodes \"demo-node-2\" not found) could not be read: their file systems verified from the claims'"
                + " status only)");
        // each claim's file system said once: "grown, as its status says", not "grown - grown, as its status says"
        assertThat(w.heard.events).filteredOn(e -> e.step() == Phase.FILE_SYSTEMS && e.message().startsWith("claim "))
                .hasSize(3).allSatisfy(e -> assertThat(e.message()).endsWith(": file system grown, as its status says")
                        .doesNotContain("grown - grown"));
    }

    @Test
    void a_restart_of_some_pods_says_which_and_that_the_others_kept_their_uids() {
        Steps.Run run = w.locked("postgres");
        Steps.Verified v = new Steps.Verified(true, List.of(new StatefulSetResult.PodResult("postgres-0", "a", "a"),
                new StatefulSetResult.PodResult("postgres-1", "b", "b")), "adopted by UID x: 2 pod(s) with unchanged UIDs, revisions adopted");
        StatefulSetResult r = steps.verified(run, v, new Steps.Restarts(List.of("postgres-0"), List.of("pod postgres-1 refused")));
        assertThat(r.detail()).isEqualTo("adopted by UID x: 1 of 2 pod(s) restarted by this run for their file systems (postgres-0), the"
                + " others with unchanged UIDs, revisions adopted; pod postgres-1 refused");
        assertThat(r.pods().get(0).restarted()).isTrue();
        assertThat(r.pods().get(0).uidAfter()).isEqualTo(w.uid("Pod", "shop", "postgres-0"));
        assertThat(r.pods().get(1).restarted()).isFalse();

        Steps.Run again = w.locked("postgres");
        Steps.Verified said = new Steps.Verified(true, List.of(new StatefulSetResult.PodResult("postgres-0", "a", "a")), "adopted");
        assertThat(steps.verified(again, said, new Steps.Restarts(List.of("postgres-0"), List.of())).detail())
                .isEqualTo("adopted; 1 of 1 pod(s) restarted by this run for their file systems (postgres-0)");
    }

    @Test
    void a_claim_pending_its_file_system_during_the_wait_is_said_with_what_follows() {
        Steps.Run run = w.locked("clickhouse");
        steps.grow(run);
        steps.await(run, MemoryWorld.options());
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("claim data-clickhouse-0:"
                + " FileSystemResizePending, the volume grew; the kubelet grows its file system, while the pod runs if the CSI driver"
                + " expands online, else when the pod restarts; followed after the re-apply: the end of the run says whether the pod"
                + " can use it"));
        steps.await(run, MemoryWorld.options().withRestartPodsForResize(true));
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).endsWith("; followed after the re-apply, its pod restarted"
                + " if the kubelet cannot grow it online"));
        run.close();
    }
}
