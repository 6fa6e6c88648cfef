package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * Whole runs (assess, then converge) of the demo's StatefulSets on the in-memory cluster: each
 * outcome read back from the objects, and the safety facts kept whatever the outcome (only orphan
 * deletes with a UID, nothing written on a refusal or a "no").
 */
class ConvergeInMemoryTest extends OnMemoryWorld {
    /** The operator says no at the first gate (and would at the second). */
    private static final GateAnswers DECLINES = answering(false, false, false);

    private StatefulSetResult converge(String name, GateAnswers gate, ConvergeOptions opts) {
        return w.converger(gate).converge(w.assess(name), opts, true);
    }

    @Test
    void a_growth_is_converged_the_claims_grown_the_statefulset_recreated_its_pods_adopted_and_the_run_released() {
        String oldUid = w.uid("StatefulSet", "shop", "postgres");
        String pod0 = w.uid("Pod", "shop", "postgres-0");

        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());

        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(r.succeeded()).isTrue();
        ObjectNode sts = w.sts("shop", "postgres");
        assertThat(Objects.uid(sts)).isNotEqualTo(oldUid);
        assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
        for (int i = 0; i < 3; i++) {
            assertThat(w.claim("shop", "data-postgres-" + i).at("/status/capacity/storage").asText()).isEqualTo("20Gi");
        }
        assertThat(w.uid("Pod", "shop", "postgres-0")).as("not restarted").isEqualTo(pod0);
        assertThat(r.claims()).hasSize(3).allSatisfy(c -> {
            assertThat(c.from()).isEqualTo("10Gi");
            assertThat(c.to()).isEqualTo("20Gi");
            assertThat(c.capacity()).isEqualTo("20Gi");
            assertThat(c.fileSystem()).isEqualTo(FileSystem.GROWN);
        });
        assertThat(r.pods()).hasSize(3).allSatisfy(p -> assertThat(p.uidAfter()).isEqualTo(p.uidBefore()));
        assertThat(r.detail()).contains("adopted by UID " + Objects.uid(sts)).contains("3 file systems grown");
        assertThat(r.phases()).extracting(StatefulSetResult.PhaseTime::phase).contains("grow", "wait", "orphan-delete", "re-apply",
                "verify", "file-systems");
        assertThat(cluster().realDeletes()).extracting(MemoryCluster.Call::method).containsExactlyInAnyOrder("deleteStatefulSetOrphan",
                "deleteRecordSecret");
        assertThat(cluster().deletes()).filteredOn(d -> d.method().equals("deleteStatefulSetOrphan"))
                .allSatisfy(d -> assertThat(d.detail()).isEqualTo("uid=" + oldUid + " propagationPolicy=Orphan"))
                .extracting(MemoryCluster.Call::dryRun).containsExactlyInAnyOrder(true, false);
        w.assertSafe();
        assertThat(LeaseLock.unfinishedLease(cluster(), "shop", "postgres")).as("released").isEmpty();
        assertThat(cluster().get("Secret", "shop", "stsresize-postgres")).isEmpty();
        assertThat(w.journal.all()).isEmpty();
        assertThat(w.heard.events).filteredOn(p -> p.step() == Phase.RECORD).last().satisfies(p -> {
            assertThat(p.warning()).isFalse();
            assertThat(p.message()).startsWith("converged: ");
        });
    }

    private MemoryCluster cluster() {
        return w.cluster;
    }

    @Test
    void claims_that_lag_their_template_are_grown_without_touching_the_statefulset() {
        String uid = w.uid("StatefulSet", "shop", "minio");
        StatefulSetResult r = converge("minio", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CLAIMS_GROWN);
        assertThat(w.uid("StatefulSet", "shop", "minio")).isEqualTo(uid);
        assertThat(cluster().realDeletes()).extracting(MemoryCluster.Call::method).containsOnly("deleteRecordSecret");
        assertThat(r.claims()).hasSize(4).allSatisfy(c -> assertThat(c.capacity()).isEqualTo("40Gi"));
        assertThat(r.detail()).startsWith("claims grown; the StatefulSet's templates already declared the sizes");
        w.assertSafe();
    }

    @Test
    void a_refusal_an_up_to_date_set_and_a_dry_run_write_nothing() {
        StatefulSetResult shrink = converge("redis", GateAnswers.YES, MemoryWorld.options());
        assertThat(shrink.outcome()).isEqualTo(Outcome.REFUSED);
        assertThat(shrink.reason()).isEqualTo("shrink");
        StatefulSetResult same = converge("etcd", GateAnswers.YES, MemoryWorld.options());
        assertThat(same.outcome()).isEqualTo(Outcome.NOTHING_TO_DO);
        StatefulSetResult fixed = converge("mysql", GateAnswers.YES, MemoryWorld.options());
        assertThat(fixed.outcome()).isEqualTo(Outcome.REFUSED);
        StatefulSetResult dry = converge("postgres", GateAnswers.YES, MemoryWorld.options().withDryRun(true));
        assertThat(dry.outcome()).isEqualTo(Outcome.DRY_RUN_OK);
        assertThat(dry.detail()).isEqualTo("every check and server dry run passed; nothing written. Would grow 3 claim(s), orphan-delete and"
                + " re-apply the StatefulSet");
        StatefulSetResult dryClaims = converge("minio", GateAnswers.YES, MemoryWorld.options().withDryRun(true));
        assertThat(dryClaims.detail()).endsWith("Would grow 4 claim(s)");
        assertThat(cluster().realWrites()).isEmpty();
        assertThat(w.journal.all()).isEmpty();
    }

    @Test
    void no_at_the_grow_gate_writes_nothing_no_at_the_delete_gate_leaves_the_claims_grown_and_the_statefulset_untouched() {
        StatefulSetResult no = converge("postgres", DECLINES, MemoryWorld.options());
        assertThat(no.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(no.reason()).isEqualTo("declined");
        assertThat(no.detail()).isEqualTo("the operator declined; nothing was written");
        assertThat(cluster().realWrites()).isEmpty();

        String uid = w.uid("StatefulSet", "shop", "postgres");
        StatefulSetResult kept = converge("postgres", GateAnswers.growing(false), MemoryWorld.options());
        assertThat(kept.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(kept.reason()).isEqualTo("declined");
        assertThat(kept.detail()).startsWith("the operator declined the orphan delete: the claims are grown");
        assertThat(w.uid("StatefulSet", "shop", "postgres")).isEqualTo(uid);
        assertThat(w.claim("shop", "data-postgres-0").at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
        assertThat(cluster().realDeletes()).extracting(MemoryCluster.Call::method).doesNotContain("deleteStatefulSetOrphan")
                .contains("deleteRecordSecret");
        assertThat(LeaseLock.unfinishedLease(cluster(), "shop", "postgres")).isEmpty();
    }

    @Test
    void a_lease_held_by_another_run_blocks_before_any_write() {
        cluster().put("{'kind':'Lease','metadata':{'name':'stsresize-postgres','namespace':'shop','annotations':{'stsresize.dev/phase':"
                + "'growing'}},'spec':{'holderIdentity':'bob@desk 1','leaseDurationSeconds':60,'renewTime':'2026-01-01T00:00:00.000000Z'}}");
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(r.reason()).isEqualTo("locked");
        assertThat(r.detail()).contains("is being converged by bob@desk 1").endsWith(". Nothing was written");
        assertThat(cluster().realWrites()).isEmpty();
    }

    @Test
    void a_record_that_cannot_be_kept_stops_before_the_first_write() {
        cluster().failAlways("createSecret", MemoryCluster.error(500, "InternalError", "etcd full"));
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.reason()).isEqualTo("record-not-kept");
        assertThat(r.detail()).startsWith("the run could not keep its lock and record before its first write: Secret shop/stsresize-postgres"
                + " could not be written: etcd full");
        assertThat(cluster().writes("patchClaimStorage")).allSatisfy(c -> assertThat(c.dryRun()).isTrue());
    }

    @Test
    void a_stop_before_the_first_write_leaves_nothing_to_resume() {
        w.stop.request("SIGINT");
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.reason()).isEqualTo("stopped");
        assertThat(r.detail()).isEqualTo("before the first write (SIGINT): nothing was written and there is nothing to resume");
        assertThat(cluster().realWrites()).isEmpty();
    }

    @Test
    void a_stop_while_the_claims_grow_keeps_the_record_for_resume_and_frees_the_lease() {
        w.resizer = c -> w.stop.request("SIGTERM");
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.reason()).isEqualTo("stopped");
        assertThat(r.detail()).startsWith("at phase growing (SIGTERM): the request in flight finished and no other write started."
                + " The run is recorded: `kubectl stsresize resume shop/postgres` finishes it");
        // the claims' patches are sent together: once sent, each finishes and is accounted for, so all three are written
        assertThat(cluster().writes("patchClaimStorage")).filteredOn(c -> !c.dryRun()).hasSize(3);
        assertThat(cluster().realWrites()).extracting(MemoryCluster.Call::method).as("no other write started")
                .doesNotContain("applyStatefulSet", "createStatefulSet", "evictPod");
        ObjectNode lease = cluster().get("Lease", "shop", "stsresize-postgres").orElseThrow();
        assertThat(lease.at("/spec/holderIdentity").isMissingNode()).isTrue();
        assertThat(LeaseLock.phaseOf(lease)).isEqualTo("growing");
        assertThat(w.journal.read("shop", "postgres")).isPresent();
        assertThat(cluster().realDeletes()).isEmpty();
    }

    @Test
    void a_stop_that_comes_before_the_patches_are_sent_keeps_the_record_sends_none_and_frees_the_lease() {
        cluster().afterWrite = cluster().afterWrite.andThen(c -> {
            if (c.method().equals("updateLease") && "growing".equals(LeaseLock.phaseOf(cluster().get("Lease", "shop", "stsresize-postgres")
                    .orElseThrow()))) {
                w.stop.request("SIGTERM");
            }
        });
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.reason()).isEqualTo("stopped");
        assertThat(cluster().writes("patchClaimStorage")).filteredOn(c -> !c.dryRun()).isEmpty();
        ObjectNode lease = cluster().get("Lease", "shop", "stsresize-postgres").orElseThrow();
        assertThat(lease.at("/spec/holderIdentity").isMissingNode()).isTrue();
        assertThat(w.journal.read("shop", "postgres")).isPresent();
        assertThat(cluster().realDeletes()).isEmpty();
    }

    @Test
    void an_infeasible_resize_ends_the_run_before_its_delete_released_with_the_requests_raised() {
        w.resizer = c -> {
            ((ObjectNode) c.path("status")).putObject("allocatedResourceStatuses").put("storage", "ControllerResizeInfeasible");
            ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
        };
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.reason()).isEqualTo("resize-infeasible");
        assertThat(r.detail()).startsWith("the resize cannot happen: data-postgres-0: the resizer reports ControllerResizeInfeasible");
        assertThat(cluster().realDeletes()).extracting(MemoryCluster.Call::method).doesNotContain("deleteStatefulSetOrphan");
        assertThat(LeaseLock.unfinishedLease(cluster(), "shop", "postgres")).isEmpty();
    }

    @Test
    void claims_that_do_not_grow_in_time_end_the_run_before_its_delete() {
        w.resizer = c -> ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.reason()).isEqualTo("resize-timeout");
        assertThat(r.detail()).startsWith("--timeout 1m0s ran out before the claims grew: data-postgres-0: capacity 10Gi has not reached 20Gi");
        assertThat(cluster().realDeletes()).extracting(MemoryCluster.Call::method).doesNotContain("deleteStatefulSetOrphan");
    }

    @Test
    void without_waiting_for_the_resize_the_run_goes_on_to_its_delete() {
        w.resizer = c -> ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options().withWaitForResize(false));
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(r.warnings()).anySatisfy(x -> assertThat(x).startsWith("claim data-postgres-0"));
    }

    @Test
    void a_claim_deleted_while_it_grows_ends_the_run_before_its_delete() {
        w.resizer = c -> {
            if (Objects.name(c).equals("data-postgres-1")) {
                ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
            }
        };
        cluster().onWatch("PersistentVolumeClaim", "shop", "data-postgres-1", () -> cluster().remove("PersistentVolumeClaim", "shop",
                "data-postgres-1"));
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.reason()).isEqualTo("claim-gone");
        assertThat(r.detail()).startsWith("claim(s) data-postgres-1 no longer exist");
    }

    @Test
    void with_when_deleted_delete_the_claims_are_owned_again() {
        StatefulSetResult r = converge("kafka", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        String uid = w.uid("StatefulSet", "analytics", "kafka");
        assertThat(Objects.ownedBy(w.claim("analytics", "data-kafka-0"), uid)).isTrue();
        w.assertSafe();
    }

    @Test
    void an_offline_class_leaves_the_file_systems_waiting_for_a_restart_and_says_so() {
        StatefulSetResult r = converge("clickhouse", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(r.claims()).allSatisfy(c -> assertThat(c.fileSystem()).isNotEqualTo(FileSystem.GROWN));
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).contains("FileSystemResizePending"));
    }

    @Test
    void with_restart_pods_for_resize_each_waiting_pod_is_evicted_and_followed() {
        cluster().afterWrite = cluster().afterWrite.andThen(c -> {
            if (c.method().equals("evictPod")) {
                ObjectNode pod = MemoryCluster.json("{'kind':'Pod','metadata':{'name':'" + c.name() + "','namespace':'analytics',"
                        + "'uid':'new-" + c.name() + "','ownerReferences':[{'uid':'" + w.uid("StatefulSet", "analytics", "clickhouse")
                        + "','controller':true}]},'status':{'phase':'Running','conditions':[{'type':'Ready','status':'True'}]}}");
                cluster().put(pod);
                String claim = "data-" + c.name();
                cluster().edit("PersistentVolumeClaim", "analytics", claim, x -> {
                    ((ObjectNode) x.path("status")).remove("conditions");
                    ((ObjectNode) x.path("status")).remove("allocatedResourceStatuses");
                    Objects.child((ObjectNode) x.path("status"), "capacity").put("storage", "100Gi");
                });
            }
        });
        StatefulSetResult r = converge("clickhouse", GateAnswers.YES, MemoryWorld.options().withRestartPodsForResize(true));
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(cluster().writes("evictPod")).hasSize(2);
        assertThat(r.pods()).allSatisfy(p -> assertThat(p.restarted()).isTrue());
        assertThat(r.detail()).contains("2 of 2 pod(s) restarted by this run for their file systems (clickhouse-0, clickhouse-1)");
        w.assertSafe();
    }

    @Test
    void a_re_apply_the_server_refuses_restores_the_backup_and_fails() {
        cluster().failNext("applyStatefulSet", null); // the assessment's dry run
        cluster().failNext("applyStatefulSet", MemoryCluster.error(500, "InternalError", "webhook down"));
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.reason()).isEqualTo("reapply-failed");
        assertThat(r.detail()).startsWith("the re-apply of StatefulSet shop/postgres failed: webhook down; the backup was restored");
        assertThat(w.sts("shop", "postgres").at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("10Gi");
        w.assertSafe();
    }

    @Test
    void an_adoption_that_does_not_come_is_not_verified() {
        w.controllerRuns = false;
        StatefulSetResult r = converge("postgres", GateAnswers.YES, MemoryWorld.options());
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.reason()).isEqualTo("not-verified");
        assertThat(r.detail()).startsWith("adoption NOT verified for StatefulSet shop/postgres");
    }

    @Test
    void a_statefulset_recreated_by_someone_else_before_the_delete_is_not_deleted() {
        Assessed a = w.assess("postgres");
        ObjectNode theirs = w.sts("shop", "postgres");
        ((ObjectNode) theirs.path("metadata")).put("uid", "someone-elses");
        cluster().put(theirs);
        StatefulSetResult r = w.converger(GateAnswers.YES).converge(a, MemoryWorld.options(), true);
        assertThat(r.reason()).isEqualTo("delete-refused");
        assertThat(w.uid("StatefulSet", "shop", "postgres")).isEqualTo("someone-elses");
        w.assertSafe();
    }

    @Test
    void a_stopped_run_is_resumed_from_where_the_cluster_says_it_stands() {
        w.resizer = c -> w.stop.request("SIGTERM");
        converge("postgres", GateAnswers.YES, MemoryWorld.options());
        w.resizer = c -> { };
        MemoryWorld again = w;
        StopRequest fresh = new StopRequest();
        Converger resumer = new Converger(cluster(), cluster().time, again.journal, "alice@laptop 8", "https://memory", GateAnswers.YES,
                again.heard, Checkpoint.NONE, fresh);
        PendingRun pending = new RunRecords(cluster(), again.journal, "https://memory").find("shop", "postgres", true).orElseThrow();
        StatefulSetResult r = resumer.resume(pending, MemoryWorld.declared("postgres"), MemoryWorld.options(), true);
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        for (int i = 0; i < 3; i++) {
            assertThat(w.claim("shop", "data-postgres-" + i).at("/status/capacity/storage").asText()).isEqualTo("20Gi");
        }
        // the claims requested 20Gi when the resume read them; the size before the run is the record's
        assertThat(r.claims()).hasSize(3).allSatisfy(c -> assertThat(c.from() + " -> " + c.to()).isEqualTo("10Gi -> 20Gi"));
        assertThat(w.journal.all()).isEmpty();
        w.assertSafe();
    }

    @Test
    void a_run_resumed_with_its_statefulset_absent_re_applies_after_growing_the_claims() {
        Assessed a = w.assess("postgres");
        Steps steps = w.steps;
        Steps.Checked checked = steps.check(a, MemoryWorld.options(), true);
        Steps.Acquired lock = steps.lock(checked, MemoryWorld.options(), true);
        lock.run().lock.phase(Phase.ORPHAN_DELETE.recorded());
        lock.run().close();
        String uid = w.uid("StatefulSet", "shop", "postgres");
        cluster().deleteStatefulSetOrphan("shop", "postgres", uid, false);
        PendingRun pending = new RunRecords(cluster(), w.journal, "https://memory").find("shop", "postgres", true).orElseThrow();
        StatefulSetResult r = w.converger(GateAnswers.YES).resume(pending, null, MemoryWorld.options().withTakeOver(true), true);
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("StatefulSet postgres is absent: straight to the"
                + " re-apply of the recorded object"));
        assertThat(w.sts("shop", "postgres").at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
        w.assertSafe();
    }

    @Test
    void rereading_a_result_says_the_claims_as_they_are_now() {
        StatefulSetResult r = converge("clickhouse", GateAnswers.YES, MemoryWorld.options());
        for (int i = 0; i < 2; i++) {
            cluster().edit("PersistentVolumeClaim", "analytics", "data-clickhouse-" + i, x -> {
                ((ObjectNode) x.path("status")).remove("conditions");
                ((ObjectNode) x.path("status")).remove("allocatedResourceStatuses");
                Objects.child((ObjectNode) x.path("status"), "capacity").put("storage", "100Gi");
            });
        }
        StatefulSetResult now = w.converger(GateAnswers.YES).reread(r);
        assertThat(now.claims()).allSatisfy(c -> {
            assertThat(c.capacity()).isEqualTo("100Gi");
            assertThat(c.fileSystem()).isEqualTo(FileSystem.GROWN);
        });
        assertThat(now.warnings()).noneMatch(x -> x.contains("waits for a file system resize"));
        StatefulSetResult refused = converge("redis", GateAnswers.YES, MemoryWorld.options());
        assertThat(w.converger(GateAnswers.YES).reread(refused)).isSameAs(refused);
    }
}
