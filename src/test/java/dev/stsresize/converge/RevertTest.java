package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.http.RecordedRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code revert} on the simulated cluster, end to end: after an apply whose resizer kept failing, the requests go
 * back (to 1Mi above the capacity where the size before is the capacity: v1.32's validation keeps a lowered request
 * strictly above it), the size-before annotation goes with them, the run's Lease and record are freed, and nothing
 * else is written; a server without RecoverVolumeExpansionFailure refuses, and then nothing at all is written.
 */
class RevertTest {
    @TempDir Path home;

    private static StatefulSetResult failedApply(Harness h) {
        return WaitsThatSpeakTest.converge(h, WaitsThatSpeakTest.converger(h, new Heard()), Demo.declared("postgres"),
                Harness.options());
    }

    /** The writes (not dry runs, not reads) sent from {@code from} on. */
    private static List<RecordedRequest> writesFrom(Harness h, int from) {
        List<RecordedRequest> log = h.sim.requests();
        return log.subList(from, log.size()).stream().filter(q -> !q.method().equals("GET") && !q.dryRun()).toList();
    }

    @Test
    void after_a_failed_apply_revert_gives_the_requests_back_and_writes_nothing_else() {
        try (Harness h = Harness.start(home, WaitsThatSpeakTest.withResizer("failing"))) {
            StatefulSetResult r = failedApply(h);
            assertThat(r.reason()).as(r.detail()).isEqualTo("resize-failed");
            assertThat(r.detail()).contains("kubectl stsresize revert shop/postgres");
            ObjectNode raised = h.claim("shop", "data-postgres-0");
            assertThat(raised.at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            assertThat(raised.at("/metadata/annotations").path(SizeBefore.ANNOTATION).asText()).as("written with the raise").isEqualTo("10Gi");

            int mark = h.sim.requests().size();
            Revert revert = new Revert(h.cluster(), h.journal, Clock.systemUTC());
            Revert.Planned p = revert.plan("shop", "postgres");
            assertThat(p.problem()).isEmpty();
            assertThat(p.lowering()).extracting(Revert.ClaimStep::target).containsOnly("10241Mi");
            assertThat(revert.dryRun(p)).isEmpty();
            assertThat(writesFrom(h, mark)).as("the dry runs write nothing").isEmpty();
            Revert.Done done = revert.apply(p);
            assertThat(done.refusal()).isEmpty();

            for (String claim : List.of("data-postgres-0", "data-postgres-1", "data-postgres-2")) {
                ObjectNode c = h.claim("shop", claim);
                assertThat(c.at("/spec/resources/requests/storage").asText()).as(claim).isEqualTo("10241Mi");
                assertThat(c.at("/metadata/annotations").has(SizeBefore.ANNOTATION)).as(claim + ": the size given back").isFalse();
            }
            List<RecordedRequest> writes = writesFrom(h, mark);
            assertThat(writes).as("only the three claims' patches: the failed run had already released its Lease and record")
                    .hasSize(3).allMatch(q -> q.method().equals("PATCH") && "persistentvolumeclaims".equals(q.resource()));
            assertThat(SafetyInvariant.violations(h.sim.requests())).isEmpty();
        }
    }

    @Test
    void a_stopped_run_s_lease_holder_and_record_are_freed_when_its_requests_go_back() {
        try (Harness h = Harness.start(home, WaitsThatSpeakTest.withResizer("failing"))) {
            failedApply(h);
            // a run that stopped while growing: its Lease freed of its holder, its record (Secret, journal) kept
            Record record = RecordBuilder.record().server(h.sim.url()).name("postgres").uid(Harness.uid(h.sts("shop", "postgres")))
                    .holder("alice@laptop 1").phase(Phase.GROW.recorded()).startedAt("now").live(h.sts("shop", "postgres")).build();
            LeaseLock lock = LeaseLock.acquire(h.cluster(), h.journal, Clock.systemUTC(), java.time.Duration.ofSeconds(60), true, record,
                    false, null);
            assertThat(lock.free()).isEmpty();
            assertThat(h.journal.all()).hasSize(1);

            int mark = h.sim.requests().size();
            Revert revert = new Revert(h.cluster(), h.journal, Clock.systemUTC());
            Revert.Done done = revert.apply(revert.plan("shop", "postgres"));
            assertThat(done.released()).contains("Lease shop/stsresize-postgres freed", "record Secret shop/stsresize-postgres deleted",
                    "journal entry");
            ObjectNode lease = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
            assertThat(lease.at("/spec/holderIdentity").isMissingNode()).isTrue();
            assertThat(lease.at("/metadata/annotations").has(RecordSecret.DIGEST)).isFalse();
            assertThat(h.journal.all()).isEmpty();
            assertThat(writesFrom(h, mark)).extracting(q -> q.method() + " " + q.resource())
                    .containsExactly("PATCH persistentvolumeclaims", "PATCH persistentvolumeclaims", "PATCH persistentvolumeclaims",
                            "PUT leases", "DELETE secrets");
        }
    }

    @Test
    void a_held_lease_stops_revert_before_any_write() {
        try (Harness h = Harness.start(home, WaitsThatSpeakTest.withResizer("failing"))) {
            failedApply(h);
            Record record = RecordBuilder.record().server(h.sim.url()).name("postgres").uid("u-1").holder("bob@desk 7")
                    .phase(Phase.GROW.recorded()).startedAt("now").live(h.sts("shop", "postgres")).build();
            try (LeaseLock held = LeaseLock.acquire(h.cluster(), h.journal, Clock.systemUTC(), java.time.Duration.ofSeconds(60), true,
                    record, false, null)) {
                Revert.Planned p = new Revert(h.cluster(), h.journal, Clock.systemUTC()).plan("shop", "postgres");
                assertThat(p.problem()).contains("is being converged by bob@desk 7");
                assertThat(p.lowering()).isEmpty();
            }
        }
    }

    @Test
    void a_server_without_recover_volume_expansion_failure_refuses_and_nothing_is_written() {
        try (Harness h = Harness.start(home, WaitsThatSpeakTest.withResizer("failing"))) {
            failedApply(h);
            h.sim.registry().featureGates().recoverVolumeExpansionFailure(false);
            int mark = h.sim.requests().size();
            Revert revert = new Revert(h.cluster(), h.journal, Clock.systemUTC());
            Revert.Planned p = revert.plan("shop", "postgres");
            String refused = revert.dryRun(p);
            assertThat(refused).contains("claim shop/data-postgres-0", "field can not be less than previous value",
                    "RecoverVolumeExpansionFailure", "Nothing was written", "the resizer keeps retrying", "the copy migration, --copy, takes only claims whose class cannot expand");
            assertThat(writesFrom(h, mark)).isEmpty();
            assertThat(h.claim("shop", "data-postgres-0").at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
        }
    }

    @Test
    void the_size_before_is_read_as_untrusted_input() {
        ObjectNode claim = Harness.yaml("""
                metadata: {name: data-db-0, annotations: {stsresize.dev/size-before: 1Ki}}
                spec: {resources: {requests: {storage: 20Gi}}}
                status: {capacity: {storage: 10Gi}}
                """);
        assertThat(SizeBefore.of(claim)).as("never below the capacity").hasValueSatisfying(q -> assertThat(q.toString()).isEqualTo("10Gi"));
        ((ObjectNode) claim.at("/metadata/annotations")).put(SizeBefore.ANNOTATION, "50Gi");
        assertThat(SizeBefore.of(claim)).as("never at or above the request").isEmpty();
        ((ObjectNode) claim.at("/metadata/annotations")).put(SizeBefore.ANNOTATION, "$(rm -rf /)");
        assertThat(SizeBefore.of(claim)).as("not a quantity").isEmpty();
        assertThat(Revert.step(claim).lowers()).isFalse();
        ((ObjectNode) claim.at("/metadata/annotations")).put(SizeBefore.ANNOTATION, "15Gi");
        assertThat(Revert.step(claim).target()).isEqualTo("15Gi");
    }
}
