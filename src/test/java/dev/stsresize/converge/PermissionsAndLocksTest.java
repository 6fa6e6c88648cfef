package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Blocked before any write: a missing permission (a ServiceAccount's token), a Lease held by another operator. */
class PermissionsAndLocksTest {
    static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    @TempDir Path home;

    @Test
    void a_missing_verb_blocks_before_any_write_and_is_named() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            var cluster = h.cluster(ServiceAccountRole.signIn(h, "shop", ServiceAccountRole.ALL_BUT_DELETE));
            Assessment a = new Assessor(cluster, h.events::add).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            // StorageClasses are cluster-scoped and this Role does not grant them: said, and left to the claims' dry runs
            assertThat(a.notes()).anySatisfy(n -> assertThat(n).contains("StorageClasses cannot be listed"));
            StatefulSetResult r = h.converger(cluster, "sa@ci 1", GateAnswers.YES, Checkpoint.NONE).converge(a.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.BLOCKED);
            assertThat(r.reason()).isEqualTo("forbidden");
            assertThat(r.detail()).contains("you cannot delete statefulsets.apps in namespace shop", "ask a cluster admin",
                    "Nothing was written");
            assertThat(h.writes()).as("writes").isEmpty();
            // blocked by the namespace's rules review itself, before any dry run of a write it may not make
            assertThat(h.sim.requests()).anyMatch(q -> q.path().contains("selfsubjectrulesreviews"));
            assertThat(h.sim.requests()).noneMatch(q -> q.method().equals("DELETE"));
        }
    }

    @Test
    void with_every_verb_a_service_account_converges_and_storageclasses_hidden_are_left_to_the_dry_runs() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            var cluster = h.cluster(ServiceAccountRole.signIn(h, "shop", ServiceAccountRole.WITHOUT_LEASES));
            Assessment a = new Assessor(cluster, h.events::add).assess(List.of(Demo.declared("postgres"), Demo.declared("redis")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            // no Leases allowed: journal only, said
            assertThat(a.namespacesWithoutLeases()).containsExactly("shop");
            assertThat(a.items().get(0).decision().warnings()).anySatisfy(w -> assertThat(w).contains("local journal only",
                    "you cannot get leases.coordination.k8s.io, create leases.coordination.k8s.io"));
            StatefulSetResult r = h.converger(cluster, "sa@ci 1", GateAnswers.YES, Checkpoint.NONE).converge(a.items().get(0), Harness.options(), false);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(h.writes()).noneMatch(w -> "leases".equals(w.resource()));
        }
    }

    static ObjectNode lease(String holder, Instant renewed) {
        return Harness.yaml("apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: stsresize-postgres, namespace: shop}\n"
                + "spec: {holderIdentity: \"" + holder + "\", leaseDurationSeconds: 60, acquireTime: \"" + MICRO.format(renewed.minusSeconds(30))
                + "\", renewTime: \"" + MICRO.format(renewed) + "\"}\n");
    }

    @Test
    void a_lease_held_by_another_operator_blocks_naming_who_and_since_when() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            h.sim.load(lease("bob@desk 4242", Instant.now()));
            Assessment a = new Assessor(h.cluster(), h.events::add).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            StatefulSetResult r = h.converger().converge(a.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.BLOCKED);
            assertThat(r.reason()).isEqualTo("locked");
            assertThat(r.detail()).contains("is being converged by bob@desk 4242 since", "wait for that run to finish")
                    .doesNotContain("--take-over");
            assertThat(h.writes()).isEmpty();
        }
    }

    @Test
    void an_expired_lease_needs_take_over_and_is_then_taken() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            h.sim.load(lease("bob@desk 4242", Instant.now().minusSeconds(600)));
            Assessment a = new Assessor(h.cluster(), h.events::add).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            StatefulSetResult blocked = h.converger().converge(a.items().get(0), Harness.options(), true);
            assertThat(blocked.outcome()).isEqualTo(Outcome.BLOCKED);
            assertThat(blocked.detail()).contains("--take-over", "stopped renewing");
            assertThat(h.writes()).isEmpty();

            StatefulSetResult r = h.converger().converge(a.items().get(0), Harness.options().withTakeOver(true), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            ObjectNode released = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
            assertThat(released.at("/spec/holderIdentity").isMissingNode()).as("released: " + released).isTrue();
        }
    }

    @Test
    void with_storageclasses_hidden_the_servers_dry_run_of_a_claim_patch_refuses_a_class_that_cannot_expand() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            var cluster = h.cluster(ServiceAccountRole.signIn(h, "legacy", ServiceAccountRole.EVERY_VERB));
            Assessment a = new Assessor(cluster, h.events::add).assess(List.of(Demo.declared("mysql")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            assertThat(a.notes()).anySatisfy(n -> assertThat(n).contains("StorageClasses cannot be listed"));
            StatefulSetResult r = h.converger(cluster, "sa@ci 1", GateAnswers.YES, Checkpoint.NONE).converge(a.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.REFUSED);
            assertThat(r.reason()).isEqualTo("not-expandable");
            assertThat(r.detail()).contains("only dynamically provisioned pvc can be resized");
            assertThat(h.writes()).isEmpty();
        }
    }

    @Test
    void the_lease_is_renewed_while_the_run_works_and_names_its_phase() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            var cluster = h.cluster();
            Record record = RecordBuilder.record().server(h.sim.url()).name("postgres").uid("u-1").holder("alice@laptop 1")
                    .phase(Phase.LOCK.recorded()).startedAt("now").live(h.sts("shop", "postgres")).build();
            LeaseLock lock = LeaseLock.acquire(cluster, h.journal, java.time.Clock.systemUTC(), java.time.Duration.ofMillis(300), true,
                    record, false, null);
            try {
                String first = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres").at("/spec/renewTime").asText();
                Harness.await("the Lease renewed", () -> !first.equals(h.get("coordination.k8s.io/v1", "Lease", "shop",
                        "stsresize-postgres").at("/spec/renewTime").asText()));
                lock.phase(Phase.GROW.recorded());
                ObjectNode lease = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
                assertThat(lease.at("/metadata/annotations/stsresize.dev~1phase").asText()).isEqualTo("growing");
                // the Lease holds the lock, the phase and the record's digest; the record is in the Secret, which matches it
                assertThat(lease.at("/metadata/annotations/stsresize.dev~1record").isMissingNode()).as(lease.toString()).isTrue();
                ObjectNode secret = h.get("v1", "Secret", "shop", "stsresize-postgres");
                assertThat(secret.at("/type").asText()).isEqualTo("stsresize.dev/record");
                assertThat(secret.at("/metadata/labels/app.kubernetes.io~1managed-by").asText()).isEqualTo("kubectl-stsresize");
                Record stored = RecordSecret.read(secret, lease.at("/metadata/annotations/stsresize.dev~1record-sha256").asText());
                assertThat(stored.live().at("/metadata/name").asText()).isEqualTo("postgres");
                assertThat(h.journal.read("shop", "postgres")).get().extracting(Record::phase).isEqualTo("growing");
            } finally {
                lock.release();
            }
            assertThat(h.journal.all()).isEmpty();
            assertThat(h.get("v1", "Secret", "shop", "stsresize-postgres")).as("the record's Secret removed on release").isNull();
            assertThat(h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres").at("/metadata/annotations/stsresize.dev~1record-sha256")
                    .isMissingNode()).isTrue();
        }
    }
}
