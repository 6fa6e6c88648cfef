package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What each step answers and what an operator is shown of it: the requests before the grow, the
 * phase a verification records, the words of the verification and of the file systems, the Lease
 * released on every end that releases, a re-apply that cannot stand, the pods a restart picks; on
 * the in-memory demo cluster.
 */
class StepsOutcomesInMemoryTest extends OnMemoryWorld {
    private StatefulSetResult converge(String name, ConvergeOptions opts) {
        return w.converger(GateAnswers.YES).converge(w.assess(name), opts, true);
    }

    private int indexOf(String prefix) {
        for (int i = 0; i < w.heard.events.size(); i++) {
            if (w.heard.events.get(i).message().startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void the_grow_answers_each_claims_request_before_it_and_the_claims_it_patched() {
        Steps.Run run = w.locked("postgres");
        Steps.Grown g = steps.grow(run);
        assertThat(g.patched()).containsExactlyInAnyOrder("data-postgres-0", "data-postgres-1", "data-postgres-2");
        assertThat(g.requestsBefore()).containsOnly(Map.entry("data-postgres-0", "10Gi"), Map.entry("data-postgres-1", "10Gi"),
                Map.entry("data-postgres-2", "10Gi"));
        Steps.Grown again = steps.growClaims(run);
        assertThat(again.patched()).as("grown already: nothing patched").isEmpty();
        assertThat(again.requestsBefore()).as("still the requests before the run").containsEntry("data-postgres-0", "10Gi").hasSize(3);
        run.close();
        assertThat(run.lock.renewing()).isFalse();
    }

    @Test
    void the_request_before_is_the_one_the_check_read_and_a_run_without_one_takes_the_grows() {
        Steps.Checked c = w.checked("postgres");
        w.cluster.edit("PersistentVolumeClaim", "shop", "data-postgres-0", x -> ((ObjectNode) x.at("/spec/resources/requests"))
                .put("storage", "15Gi"));
        Steps.Run run = steps.lock(c, MemoryWorld.options(), true).run();
        assertThat(steps.grow(run).requestsBefore()).containsEntry("data-postgres-0", "10Gi");
        run.close();

        MemoryWorld other = another("other");
        Steps s = other.steps;
        Steps.Checked read = other.checked("postgres");
        Steps.Run resumedLike = s.lock(new Steps.Checked(read.record(), Map.of(), null), MemoryWorld.options(), true).run();
        assertThat(s.grow(resumedLike).requestsBefore()).containsEntry("data-postgres-1", "10Gi").hasSize(3);
        resumedLike.close();
    }

    @Test
    void a_re_apply_after_the_lock_was_lost_sends_nothing_not_even_its_dry_run() {
        Steps.Run run = w.locked("postgres");
        w.cluster.edit("Lease", "shop", "stsresize-postgres", l -> ((ObjectNode) l.path("spec")).put("holderIdentity", "bob"));
        assertThatThrownBy(() -> run.lock.phase(Phase.GROW.recorded())).isInstanceOf(Locked.class);
        int sent = w.cluster.writes().size();
        assertThatThrownBy(() -> steps.reapply(run)).isInstanceOf(Locked.class);
        assertThat(w.cluster.writes()).hasSize(sent);
        run.close();
    }

    @Test
    void the_verification_records_its_phase_and_says_what_it_read_back() {
        Steps.Run run = w.locked("postgres");
        steps.grow(run);
        assertThat(steps.orphanDelete(run, new Steps.DeleteAllowed("shop", "postgres", run.record().uid())).gone()).isTrue();
        assertThat(steps.reapply(run).statefulSet()).isNotNull();
        Steps.Verified v = steps.verify(run);
        assertThat(v.adopted()).isTrue();
        assertThat(w.journal.read("shop", "postgres").orElseThrow().phase()).isEqualTo("verifying");
        assertThat(LeaseLock.phaseOf(w.cluster.get("Lease", "shop", "stsresize-postgres").orElseThrow())).isEqualTo("verifying");
        assertThat(w.heard.events).anySatisfy(p -> {
            assertThat(p.step()).isEqualTo(Phase.VERIFY);
            assertThat(p.message()).isEqualTo(v.detail());
            assertThat(p.warning()).isFalse();
        });
        run.close();

        MemoryWorld down = another("down");
        down.controllerRuns = false;
        Steps s = down.steps;
        Steps.Run r = down.locked("postgres");
        s.grow(r);
        s.orphanDelete(r, new Steps.DeleteAllowed("shop", "postgres", r.record().uid()));
        s.reapply(r);
        Steps.Verified not = s.verify(r);
        assertThat(not.adopted()).isFalse();
        assertThat(down.heard.events).anySatisfy(p -> {
            assertThat(p.step()).isEqualTo(Phase.VERIFY);
            assertThat(p.message()).isEqualTo(not.detail());
            assertThat(p.warning()).isTrue();
        });
        r.close();
    }

    @Test
    void a_re_apply_that_neither_applies_nor_restores_keeps_the_record_for_resume() {
        Steps.Run run = w.locked("postgres");
        steps.grow(run);
        steps.orphanDelete(run, new Steps.DeleteAllowed("shop", "postgres", run.record().uid()));
        w.cluster.failAlways("applyStatefulSet", MemoryCluster.error(500, "InternalError", "webhook down"));
        w.cluster.failAlways("createStatefulSet", MemoryCluster.error(500, "InternalError", "webhook down"));
        Steps.Reapplied ra = steps.reapply(run);
        assertThat(ra.statefulSet()).isNull();
        StatefulSetResult r = steps.reapplyFailed(run, ra);
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.reason()).isEqualTo("reapply-failed");
        assertThat(r.detail()).isEqualTo(ra.message()).isNotEmpty();
        assertThat(w.journal.read("shop", "postgres")).isPresent();
        run.close();
    }

    @Test
    void a_restored_backup_ends_released_and_says_it_was_restored() {
        w.cluster.failNext("applyStatefulSet", null); // the assessment's dry run
        w.cluster.failNext("applyStatefulSet", MemoryCluster.error(500, "InternalError", "webhook down"));
        Convergence m = w.startAllowed("postgres");
        finish(m);
        assertThat(m.restored()).isTrue();
        assertThat(m.finished().result().reason()).isEqualTo("reapply-failed");
        assertThat(w.released("shop", "postgres")).isTrue();
    }

    @Test
    void the_release_is_a_checkpoint_and_the_events_warnings_are_said_before_the_last_word() {
        List<String> written = new ArrayList<>();
        w.cluster.failAlways("createEvent", MemoryCluster.error(500, "InternalError", "events store down"));
        Converger c = new Converger(w.cluster, w.cluster.time, w.journal, "alice@laptop 7", "https://memory", GateAnswers.YES, w.heard,
                written::add, w.stop);
        StatefulSetResult r = c.converge(w.assess("postgres"), MemoryWorld.options(), true);
        assertThat(r.outcome()).isEqualTo(Outcome.CONVERGED);
        assertThat(written).contains("release postgres");
        int warning = indexOf("could not record Event Reapplied");
        int last = indexOf("converged: ");
        assertThat(warning).isNotNegative();
        assertThat(last).isGreaterThan(warning);
    }

    @Test
    void the_file_systems_step_says_what_it_follows_each_claims_file_system_and_no_warning_when_all_is_well() {
        StatefulSetResult r = converge("postgres", MemoryWorld.options());
        assertThat(r.outcome()).isEqualTo(Outcome.CONVERGED);
        assertThat(r.warnings()).as("as many ready replicas as before").isEmpty();
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("following each claim to its file system (up to"
                + " --fs-timeout 30s)"));
        assertThat(w.heard.events).anySatisfy(p -> {
            assertThat(p.step()).isEqualTo(Phase.FILE_SYSTEMS);
            assertThat(p.message()).isEqualTo("claim data-postgres-1: file system grown, as its status says");
            assertThat(p.warning()).isFalse();
        });

        MemoryWorld offline = another("offline");
        StatefulSetResult pending = offline.converger(GateAnswers.YES).converge(offline.assess("clickhouse"),
                MemoryWorld.options(), true);
        assertThat(offline.heard.events).anySatisfy(p -> {
            assertThat(p.message()).startsWith("claim data-clickhouse-0: file system pending - ");
            assertThat(p.warning()).as("a pod waits for it").isTrue();
        });
        assertThat(offline.heard.ticks).filteredOn(t -> t.what().startsWith("the kubelet to grow the file system")).isNotEmpty()
                .allSatisfy(t -> assertThat(t.claims()).as("the view shows the claims while it waits").isNotEmpty());
        assertThat(pending.claims()).extracting(StatefulSetResult.ClaimResult::fileSystem).containsOnly(FileSystem.PENDING);
    }

    @Test
    void pods_are_restarted_only_for_file_systems_the_kubelet_cannot_grow_online() {
        StatefulSetResult online = converge("postgres", MemoryWorld.options().withRestartPodsForResize(true));
        assertThat(online.outcome()).isEqualTo(Outcome.CONVERGED);
        assertThat(w.cluster.writes("evictPod")).as("grown online: no pod restarted").isEmpty();

        MemoryWorld stale = another("stale");
        stale.kubeletsReportPostgresClaimsAt(10L << 30);
        StatefulSetResult r = stale.converger(GateAnswers.YES).converge(stale.assess("postgres"),
                MemoryWorld.options().withRestartPodsForResize(true), true);
        assertThat(r.claims()).extracting(StatefulSetResult.ClaimResult::fileSystem).containsOnly(FileSystem.PENDING);
        assertThat(stale.cluster.writes("evictPod")).as("the kubelet is growing it: its summary lags, no restart helps").isEmpty();
    }

    @Test
    void a_pod_restarted_onto_another_node_is_read_from_the_node_it_runs_on_now() {
        String sts = w.uid("StatefulSet", "analytics", "clickhouse");
        for (ObjectNode pod : w.cluster.all("Pod", "analytics")) {
            String claim = "data-" + Objects.name(pod);
            w.cluster.summaries.put(pod.at("/spec/nodeName").asText(), MemoryCluster.json("{'pods':[{'volume':[{'pvcRef':{'name':'" + claim
                    + "','namespace':'analytics'},'capacityBytes':" + (50L << 30) + "}]}]}"));
        }
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(c -> {
            if (c.method().equals("evictPod")) {
                String claim = "data-" + c.name();
                w.cluster.put("{'kind':'Pod','metadata':{'name':'" + c.name() + "','namespace':'analytics','uid':'new-" + c.name() + "',"
                        + "'ownerReferences':[{'uid':'" + w.uid("StatefulSet", "analytics", "clickhouse") + "','controller':true}]},"
                        + "'spec':{'nodeName':'node-b','volumes':[{'name':'data','persistentVolumeClaim':{'claimName':'" + claim + "'}}]},"
                        + "'status':{'phase':'Running','conditions':[{'type':'Ready','status':'True'}]}}");
                w.cluster.edit("PersistentVolumeClaim", "analytics", claim, x -> {
                    ((ObjectNode) x.path("status")).remove("conditions");
                    ((ObjectNode) x.path("status")).remove("allocatedResourceStatuses");
                    Objects.child((ObjectNode) x.path("status"), "capacity").put("storage", "100Gi");
                });
                ObjectNode summary = w.cluster.summaries.computeIfAbsent("node-b", n -> MemoryCluster.json("{'pods':[]}"));
                ((com.fasterxml.jackson.databind.node.ArrayNode) summary.path("pods")).addObject().putArray("volume").addObject()
                        .put("capacityBytes", 100L << 30).putObject("pvcRef").put("name", claim).put("namespace", "analytics");
            }
        });
        assertThat(sts).isNotEmpty();
        // all within one stretch: the pod read before the restart would still stand for the present
        w.cluster.watchStep = java.time.Duration.ofMillis(100);
        StatefulSetResult r = converge("clickhouse", MemoryWorld.options().withRestartPodsForResize(true)
                .withFsTimeout(java.time.Duration.ofSeconds(2)));
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(r.claims()).allSatisfy(c -> {
            assertThat(c.fileSystem()).isEqualTo(FileSystem.GROWN);
            assertThat(c.fileSystemBytes()).isEqualTo(100L << 30);
        });
    }

    @Test
    void a_restart_refused_by_a_disruption_budget_is_said_and_stops_the_restarts() {
        StatefulSetResult r = converge("clickhouse", MemoryWorld.options());
        assertThat(r.outcome()).isEqualTo(Outcome.CONVERGED);
        w.cluster.failAlways("evictPod", MemoryCluster.error(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's"
                + " disruption budget."));
        String problem = steps.restartPodsForResize("analytics", "clickhouse", Map.of("data-clickhouse-0", "100Gi", "data-clickhouse-1",
                "100Gi"), MemoryWorld.options());
        assertThat(problem).startsWith("evicting pod clickhouse-").contains("is refused by its PodDisruptionBudget");
        assertThat(w.cluster.writes("evictPod")).as("one refused, the next not tried").hasSize(1);
    }

    @Test
    void the_lease_of_a_dead_run_of_this_machine_is_taken_over_saying_so_and_a_plain_lock_says_nothing_of_it() {
        w.locked("minio").close();
        assertThat(w.heard.events).filteredOn(p -> p.step() == Phase.LOCK).extracting(ProgressEvent::message)
                .hasSize(1).noneMatch(m -> m.isEmpty() || m.startsWith("took over"));

        HolderProcess.Machine machine = HolderProcess.LOCAL;
        HolderProcess dead = new HolderProcess("bob@here 2147483646", machine.machineId().orElseThrow(), machine.bootId().orElseThrow(),
                machine.pidNamespace().orElseThrow(), 2147483646L, java.time.Instant.parse("2026-01-01T00:00:00Z"));
        ObjectNode lease = MemoryCluster.json("{'apiVersion':'coordination.k8s.io/v1','kind':'Lease','metadata':{'name':"
                + "'stsresize-postgres','namespace':'shop','annotations':{'stsresize.dev/phase':'growing'}},'spec':{'holderIdentity':"
                + "'bob@here 2147483646','leaseDurationSeconds':60,'renewTime':'2025-12-31T23:59:59.000000Z'}}");
        ((ObjectNode) lease.at("/metadata/annotations")).put(HolderProcess.ANNOTATION, dead.annotation());
        w.cluster.put(lease);
        Steps.Run run = w.locked("postgres");
        assertThat(run).isNotNull();
        assertThat(w.heard.events).anySatisfy(p -> {
            assertThat(p.step()).isEqualTo(Phase.LOCK);
            assertThat(p.message()).isEqualTo("took over the Lease of a run of this machine that is no longer running (pid 2147483646,"
                    + " started 2026-01-01T00:00:00Z, holder bob@here 2147483646)");
        });
        run.close();
    }

    @Test
    void a_resumed_run_holds_its_lease_in_the_name_of_who_resumed_it() {
        w.resizer = c -> w.stop.request("SIGTERM");
        w.converger(GateAnswers.YES).converge(w.assess("postgres"), MemoryWorld.options(), true);
        w.resizer = c -> { };
        PendingRun pending = new RunRecords(w.cluster, w.journal, "https://memory").find("shop", "postgres", true).orElseThrow();
        List<String> holders = new ArrayList<>();
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(c -> {
            if (c.method().endsWith("Lease")) {
                w.cluster.get("Lease", "shop", "stsresize-postgres").ifPresent(l -> holders.add(l.at("/spec/holderIdentity").asText("")));
            }
        });
        Converger carol = new Converger(w.cluster, w.cluster.time, w.journal, "carol@desk 2", "https://memory", GateAnswers.YES, w.heard,
                Checkpoint.NONE, new StopRequest());
        StatefulSetResult r = carol.resume(pending, null, MemoryWorld.options(), true);
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(holders).contains("carol@desk 2").doesNotContain("alice@laptop 7");
    }
}
