package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each injected fault class, at a step where it hurts: the converge still ends converged, nothing lost. */
class FaultsTest {
    @TempDir Path home;

    void convergesDespite(String what, Consumer<Harness> inject) {
        try (Harness h = Harness.start(home.resolve(what), Demo.cluster())) {
            inject.accept(h);
            Assessment a = new Assessor(h.cluster(), h.events::add).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            StatefulSetResult r = h.converger().converge(a.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(what + ": " + r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(r.claims()).allSatisfy(c -> assertThat(c.capacity()).isEqualTo("20Gi"));
            assertThat(r.pods()).hasSize(3).allSatisfy(p -> assertThat(p.uidAfter()).isEqualTo(p.uidBefore()));
        }
    }

    @Test
    void conflict_on_a_claim_patch_is_re_read_and_retried() {
        // 1st patch of data-postgres-1 is the dry run; the 2nd, the real one, conflicts
        convergesDespite("409", h -> h.sim.faults().add(FaultRule.onNth("patch", "persistentvolumeclaims", "data-postgres-1", 2,
                Fault.status(409, "Conflict", "Operation cannot be fulfilled on persistentvolumeclaims \"data-postgres-1\":"
                        + " the object has been modified; please apply your changes to the latest version and try again"))));
    }

    @Test
    void too_many_requests_waits_the_retry_after() {
        convergesDespite("429", h -> h.sim.faults().add(FaultRule.onNth("list", "statefulsets", null, 1, Fault.tooManyRequests(1))));
    }

    @Test
    void server_errors_are_retried_with_backoff() {
        convergesDespite("500", h -> h.sim.faults().add(FaultRule.onNth("delete", "statefulsets", "postgres", 2,
                Fault.status(500, "InternalError", "etcdserver: request timed out"))));
    }

    @Test
    void a_dropped_connection_is_retried() {
        convergesDespite("drop", h -> h.sim.faults().add(FaultRule.onNth("get", "persistentvolumeclaims", "data-postgres-2", 1, Fault.drop())));
    }

    @Test
    void a_watch_cut_is_resumed_from_its_last_resource_version() {
        convergesDespite("watch-cut", h -> h.sim.faults().add(FaultRule.on("watch", "statefulsets", null, Fault.cutWatchAfter(1)).times(3)));
    }
}
