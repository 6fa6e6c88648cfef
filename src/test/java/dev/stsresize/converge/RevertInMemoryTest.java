package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.plan.Quantity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code revert} on the in-memory demo cluster: which claims of postgres go back (only those whose resize has not
 * completed and that this plugin raised), to which size (the size before, or one MiB above the capacity where the
 * size before is the capacity: v1.32 keeps a lowered request above status.capacity), nothing written when one dry run
 * is refused, the Lease and record freed once every claim went back, and what it says on the way.
 */
class RevertInMemoryTest extends OnMemoryWorld {
    private Revert revert() {
        return new Revert(w.cluster, w.journal, w.cluster.time);
    }

    /** Claim {@code name} of shop as a run left it: its request raised, its volume at {@code capacity}, its size before. */
    private void raised(String name, String request, String capacity, String before) {
        w.cluster.edit("PersistentVolumeClaim", "shop", name, c -> {
            ((ObjectNode) c.at("/spec/resources/requests")).put("storage", request);
            ObjectNode status = Objects.child(c, "status");
            if (capacity.isEmpty()) {
                status.remove("capacity");
            } else {
                Objects.child(status, "capacity").put("storage", capacity);
            }
            ObjectNode ann = Objects.child(Objects.child(c, "metadata"), "annotations");
            if (before.isEmpty()) {
                ann.remove(SizeBefore.ANNOTATION);
            } else {
                ann.put(SizeBefore.ANNOTATION, before);
            }
        });
    }

    /** Every postgres claim raised from 10Gi to 20Gi by a run whose resizer failed: the capacity stayed 10Gi. */
    private void everyClaimRaisedAndNotGrown() {
        raisedTo("20Gi", List.of("10Gi", "10Gi", "10Gi"), List.of("10Gi", "10Gi", "10Gi"));
    }

    /** postgres's claims 0, 1 and 2 raised to {@code request}, with these capacities and sizes before, in ordinal order. */
    private void raisedTo(String request, List<String> capacities, List<String> sizesBefore) {
        for (int i = 0; i < 3; i++) {
            raised("data-postgres-" + i, request, capacities.get(i), sizesBefore.get(i));
        }
    }

    private List<String> lowered() {
        return w.cluster.writes("patchClaimStorage").stream().filter(c -> !c.dryRun()).map(c -> c.name() + "=" + c.detail()).toList();
    }

    private static Revert.ClaimStep step(Revert.Planned p, String claim) {
        return p.claims().stream().filter(c -> c.claim().equals(claim)).findFirst().orElseThrow();
    }

    @Test
    void only_claims_whose_resize_has_not_completed_and_that_this_plugin_raised_are_lowered() {
        raisedTo("20Gi", List.of("10Gi", "20Gi", "10Gi"), List.of("10Gi", "10Gi", ""));
        Revert.Planned p = revert().plan("shop", "postgres");

        assertThat(p.problem()).isEmpty();
        assertThat(p.claims()).extracting(Revert.ClaimStep::claim).containsExactly("data-postgres-0", "data-postgres-1", "data-postgres-2");
        assertThat(p.lowering()).extracting(Revert.ClaimStep::claim).containsExactly("data-postgres-0");
        assertThat(step(p, "data-postgres-1").said()).isEqualTo("its resize completed (capacity 20Gi): left alone");
        assertThat(step(p, "data-postgres-2").said()).isEqualTo("no size before a run is recorded on it (annotation "
                + SizeBefore.ANNOTATION + "): this plugin did not raise it, so it is left alone");
        assertThat(step(p, "data-postgres-0")).isEqualTo(new Revert.ClaimStep("data-postgres-0", "20Gi", "10Gi", "10Gi", "10241Mi",
                "request 20Gi -> 10241Mi: its size before, 10Gi, is its capacity, and the server keeps a lowered request above"
                        + " status.capacity (v1.32 ValidatePersistentVolumeClaimUpdate), so it goes to 1Mi above it"));

        Revert.Done done = revert().apply(p);
        assertThat(done.written()).isTrue();
        assertThat(lowered()).containsExactly("data-postgres-0=10241Mi");
        assertThat(w.claim("shop", "data-postgres-0").at("/metadata/annotations").has(SizeBefore.ANNOTATION))
                .as("the size given back goes with its annotation").isFalse();
        assertThat(w.claim("shop", "data-postgres-1").at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
        w.assertSafe();
    }

    @Test
    void a_claim_never_raised_or_not_bound_has_nothing_to_give_back() {
        raised("data-postgres-1", "20Gi", "", "10Gi");
        Revert.Planned p = revert().plan("shop", "postgres");
        assertThat(step(p, "data-postgres-0").said()).isEqualTo("its capacity (10Gi) is at its request: nothing to give back");
        assertThat(step(p, "data-postgres-1").said()).isEqualTo("no request or no capacity to compare (not Bound?): left alone");
        assertThat(step(p, "data-postgres-1").capacity()).isEmpty();
        assertThat(p.lowering()).isEmpty();

        List<String> told = new ArrayList<>();
        Revert.Answered a = revert().confirmed("shop", "postgres", c -> told.add(c.claim()));
        assertThat(a).isEqualTo(new Revert.Answered(true, false, "nothing to give back: no claim has a raised request this plugin"
                + " recorded; nothing was written"));
        assertThat(told).as("each claim's word is told").containsExactly("data-postgres-0", "data-postgres-1", "data-postgres-2");
        assertThat(w.cluster.writes()).as("not even a dry run").isEmpty();
    }

    @Test
    void a_size_before_above_the_capacity_is_given_back_as_it_was() {
        raisedTo("30Gi", List.of("10Gi", "10Gi", "10Gi"), List.of("20Gi", "5Gi", "40Gi"));
        Revert.Planned p = revert().plan("shop", "postgres");
        assertThat(step(p, "data-postgres-0").target()).isEqualTo("20Gi");
        assertThat(step(p, "data-postgres-0").said()).isEqualTo("request 30Gi -> 20Gi, its size before the run");
        assertThat(step(p, "data-postgres-1").target()).as("never below the capacity: 1Mi above it").isEqualTo("10241Mi");
        assertThat(step(p, "data-postgres-2").lowers()).isFalse();
        assertThat(step(p, "data-postgres-2").said()).isEqualTo("its recorded size before, \"40Gi\", is not a quantity below its"
                + " request: left alone");
    }

    @Test
    void one_mebibyte_above_the_capacity_is_written_in_mebibytes_where_it_can_be() {
        assertThat(Revert.justAbove(Quantity.parse("10Gi")).toString()).isEqualTo("10241Mi");
        assertThat(Revert.justAbove(Quantity.parse("0")).toString()).isEqualTo("1Mi");
        assertThat(Revert.justAbove(Quantity.parse("1G")).toString()).as("not a whole number of Mi: bytes")
                .isEqualTo("1001048576");
        assertThat(Revert.justAbove(Quantity.parse("1500m")).toString()).as("a fraction of a byte rounds up")
                .isEqualTo("1048578");
    }

    @Test
    void only_the_claims_the_statefulset_s_templates_name_are_read_in_name_order() {
        everyClaimRaisedAndNotGrown();
        // data-postgres-0 stored again after the others: the list answers it last
        ObjectNode first = w.claim("shop", "data-postgres-0");
        w.cluster.remove("PersistentVolumeClaim", "shop", "data-postgres-0");
        w.cluster.put(first);
        ObjectNode leftover = first.deepCopy(); // a claim of an ordinal scaled away is the StatefulSet's too
        ((ObjectNode) leftover.path("metadata")).put("name", "data-postgres-9").remove("uid");
        w.cluster.put(leftover);
        for (String other : List.of("data-postgres-", "data-postgres-1a", "data-postgres-x", "logs-postgres-0", "data-postgresql-0")) {
            ObjectNode c = first.deepCopy();
            ((ObjectNode) c.path("metadata")).put("name", other).remove("uid");
            w.cluster.put(c);
        }
        ObjectNode elsewhere = first.deepCopy();
        ((ObjectNode) elsewhere.path("metadata")).put("namespace", "analytics").remove("uid");
        w.cluster.put(elsewhere);

        Revert.Planned p = revert().plan("shop", "postgres");
        assertThat(p.claims()).extracting(Revert.ClaimStep::claim).containsExactly("data-postgres-0", "data-postgres-1", "data-postgres-2",
                "data-postgres-9");
        revert().apply(p);
        assertThat(lowered()).containsExactly("data-postgres-0=10241Mi", "data-postgres-1=10241Mi", "data-postgres-2=10241Mi",
                "data-postgres-9=10241Mi");
        assertThat(w.cluster.get("PersistentVolumeClaim", "analytics", "data-postgres-0").orElseThrow()
                .at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
    }

    @Test
    void each_claim_of_every_template_is_read() {
        everyClaimRaisedAndNotGrown();
        w.cluster.edit("StatefulSet", "shop", "postgres", s -> {
            ObjectNode logs = ((com.fasterxml.jackson.databind.node.ArrayNode) s.at("/spec/volumeClaimTemplates")).addObject();
            logs.putObject("metadata").put("name", "logs");
        });
        ObjectNode logs = w.claim("shop", "data-postgres-2");
        ((ObjectNode) logs.path("metadata")).put("name", "logs-postgres-0").remove("uid");
        w.cluster.put(logs);
        assertThat(revert().plan("shop", "postgres").lowering()).extracting(Revert.ClaimStep::claim)
                .containsExactly("data-postgres-0", "data-postgres-1", "data-postgres-2", "logs-postgres-0");
    }

    @Test
    void every_patch_is_dry_run_before_any_is_written_and_then_the_lease_and_record_are_freed() {
        everyClaimRaisedAndNotGrown();
        Steps.Run stopped = w.locked("postgres");
        assertThat(stopped.free()).isEmpty();

        List<String> told = new ArrayList<>();
        Revert.Answered a = revert().confirmed("shop", "postgres", c -> told.add(c.claim() + ": " + c.said()));
        assertThat(told).hasSize(3).allMatch(t -> t.contains("-> 10241Mi"));
        List<MemoryCluster.Call> patches = w.cluster.writes("patchClaimStorage");
        assertThat(patches).extracting(MemoryCluster.Call::dryRun).containsExactly(true, true, true, false, false, false);
        assertThat(a.done()).isTrue();
        assertThat(a.sent()).isTrue();
        assertThat(a.said()).isEqualTo("3 claim request(s) given back; Lease shop/stsresize-postgres freed, record Secret"
                + " shop/stsresize-postgres deleted, journal entry " + w.journal.file("shop", "postgres") + " removed");
        assertThat(w.released("shop", "postgres")).isTrue();
        assertThat(w.cluster.get("Secret", "shop", "stsresize-postgres")).isEmpty();
        w.assertSafe();
    }

    @Test
    void with_no_run_recorded_the_requests_go_back_and_nothing_is_said_freed() {
        everyClaimRaisedAndNotGrown();
        Revert.Answered a = revert().confirmed("shop", "postgres", c -> { });
        assertThat(a).isEqualTo(new Revert.Answered(true, true, "3 claim request(s) given back"));
        assertThat(w.cluster.realWrites()).extracting(MemoryCluster.Call::method).containsOnly("patchClaimStorage");
    }

    @Test
    void one_refused_dry_run_means_no_claim_is_written() {
        everyClaimRaisedAndNotGrown();
        Steps.Run stopped = w.locked("postgres");
        stopped.free();
        w.cluster.failNext("patchClaimStorage", null);
        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(422, "Invalid", "PersistentVolumeClaim \"data-postgres-1\" is"
                + " invalid: spec.resources.requests.storage: Forbidden: field can not be less than previous value"));
        int writes = w.cluster.realWrites().size();

        Revert.Answered a = revert().confirmed("shop", "postgres", c -> { });
        assertThat(a.done()).isFalse();
        assertThat(a.sent()).as("nothing went out: the claims need no second reading").isFalse();
        assertThat(a.said()).isEqualTo("the server refuses to lower the request of claim shop/data-postgres-1 from 20Gi to 10241Mi"
                + " (the server: PersistentVolumeClaim \"data-postgres-1\" is invalid: spec.resources.requests.storage: Forbidden:"
                + " field can not be less than previous value): this API server does not accept a lower request: it runs without"
                + " the RecoverVolumeExpansionFailure feature gate (KEP-1790: alpha from v1.23, on by default from v1.32). Nothing"
                + " was written. What remains: the claims keep the raised requests above their capacities and the resizer keeps"
                + " retrying the expansion; either fix what its failure names (kubectl describe pvc data-postgres-1 -n shop) so that it completes"
                + " (the copy migration, --copy, takes only claims whose class cannot expand)");
        assertThat(w.cluster.realWrites()).as("no claim lowered, the Lease and record kept").hasSize(writes);
        assertThat(w.journal.read("shop", "postgres")).isPresent();
    }

    @Test
    void a_refusal_says_why_the_server_said_no() {
        everyClaimRaisedAndNotGrown();
        raised("data-postgres-1", "20Gi", "20Gi", "10Gi");
        raised("data-postgres-2", "20Gi", "20Gi", "10Gi");
        Revert.Planned one = revert().plan("shop", "postgres");
        Revert.ClaimStep c = one.lowering().get(0);
        assertThat(Revert.refusal(one, c, MemoryCluster.error(422, "Invalid", "spec.resources.requests.storage: Forbidden: field"
                + " can not be less than status.capacity"))).contains("the request would not stay above the claim's capacity (it"
                + " moved since it was read: read it again with kubectl get pvc data-postgres-0 -n shop). Nothing was written")
                .contains("the claim keeps the raised request above its capacity 10Gi and the resizer keeps retrying");
        assertThat(Revert.refusal(one, c, MemoryCluster.error(403, "Forbidden", "persistentvolumeclaims \"data-postgres-0\" is"
                + " forbidden"))).contains("): you may not patch this claim. Nothing was written");
        assertThat(Revert.refusal(one, c, MemoryCluster.error(409, "Conflict", "the object has been modified")))
                .contains("(the server: the object has been modified): the server refused the patch. Nothing was written");
        assertThat(Revert.refusal(one, c, MemoryCluster.error(500, "InternalError", "etcd down")))
                .contains("the server refused the patch");
    }

    @Test
    void a_refusal_midway_says_which_claims_went_back_and_keeps_the_lease_and_record() {
        everyClaimRaisedAndNotGrown();
        w.locked("postgres").free();
        Revert r = revert();
        Revert.Planned p = r.plan("shop", "postgres");
        assertThat(r.dryRun(p)).isEmpty();
        w.cluster.failNext("patchClaimStorage", null);
        w.cluster.failNext("patchClaimStorage", null);
        ClusterException gone = MemoryCluster.error(404, "NotFound", "persistentvolumeclaims \"data-postgres-2\" not found");
        w.cluster.failNext("patchClaimStorage", gone);

        Revert.Done done = r.apply(p);
        assertThat(done.written()).isTrue();
        assertThat(done.released()).isEmpty();
        assertThat(done.refusal()).contains("claim shop/data-postgres-2 from 20Gi to 10241Mi", "the server refused the patch",
                "Claim(s) data-postgres-0, data-postgres-1 were lowered before it; the Lease and record are kept.")
                .doesNotContain("Nothing was written");
        assertThat(w.journal.read("shop", "postgres")).isPresent();
        assertThat(w.cluster.get("Secret", "shop", "stsresize-postgres")).isPresent();
    }

    @Test
    void a_refusal_of_the_first_patch_wrote_nothing_and_is_answered_as_sent() {
        everyClaimRaisedAndNotGrown();
        Revert r = revert();
        w.cluster.failNext("patchClaimStorage", null);
        w.cluster.failNext("patchClaimStorage", null);
        w.cluster.failNext("patchClaimStorage", null);
        w.cluster.failNext("patchClaimStorage", MemoryCluster.error(500, "InternalError", "etcd down"));
        Revert.Answered a = r.confirmed("shop", "postgres", c -> { });
        assertThat(a.done()).isFalse();
        assertThat(a.sent()).as("the patches went out: the claims are worth reading again").isTrue();
        assertThat(a.said()).contains("claim shop/data-postgres-0", "Nothing was written.");
        assertThat(lowered()).isEmpty();

        Revert.Done first = new Revert(w.cluster, w.journal, w.cluster.time).apply(new Revert.Planned("shop", "postgres",
                List.of(new Revert.ClaimStep("data-postgres-9", "20Gi", "10Gi", "10Gi", "10241Mi", "")), ""));
        assertThat(first.written()).isFalse();
        assertThat(first.refusal()).contains("Nothing was written.", "the claim keeps the raised request above its capacity 10Gi");
    }

    @Test
    void an_absent_statefulset_a_held_lease_or_a_run_past_its_delete_stops_revert_before_any_write() {
        everyClaimRaisedAndNotGrown();
        Revert.Planned absent = revert().plan("shop", "nosuch");
        assertThat(absent.problem()).isEqualTo("StatefulSet shop/nosuch does not exist, so its claims cannot be found by their"
                + " names; nothing was written (kubectl get statefulsets -n shop lists them)");
        assertThat(absent.claims()).isEmpty();

        Steps.Run held = w.locked("postgres");
        Revert.Answered busy = revert().confirmed("shop", "postgres", c -> { });
        assertThat(busy.done()).isFalse();
        assertThat(busy.sent()).isFalse();
        assertThat(busy.said()).startsWith("StatefulSet shop/postgres is being converged by alice@laptop 7 (phase locked, renewed at ")
                .endsWith(" (Lease shop/stsresize-postgres): revert writes nothing while a run holds it; stop that run (Ctrl-C), then"
                        + " revert");

        held.free();
        assertThat(revert().plan("shop", "postgres").problem()).as("a stopped run before its delete is reverted").isEmpty();
        w.cluster.edit("Lease", "shop", "stsresize-postgres", l -> ((ObjectNode) l.at("/metadata/annotations"))
                .put(LeaseLock.PHASE, Phase.ORPHAN_DELETE.recorded()));
        Revert.Planned past = revert().plan("shop", "postgres");
        assertThat(past.problem()).isEqualTo("the run of StatefulSet shop/postgres stopped at phase deleting, past its orphan"
                + " delete: lowering the requests cannot undo that. `kubectl stsresize resume shop/postgres` finishes it. Nothing"
                + " was written");
        assertThat(past.lowering()).isEmpty();
        assertThat(w.cluster.writes("patchClaimStorage")).isEmpty();
    }
}
