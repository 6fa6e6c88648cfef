package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Lease held by a process of this machine that no longer runs (killed by SIGKILL, or its terminal
 * closed where no handler ran) is taken over at once, saying so; this machine's journal knows nothing
 * of that run (another home, another user). The holder is described by the Lease's annotation, checked
 * against this machine: real processes started and killed here. Everything else is not taken over: a
 * holder still running, another boot, another machine, a description of another holder, anything
 * malformed.
 */
class DeadHolderTakeOverTest {
    @TempDir Path home;

    private Process child;

    @AfterEach
    void killChild() {
        if (child != null) {
            child.destroyForcibly();
        }
    }

    @Test
    void the_lease_of_a_killed_process_of_this_machine_is_taken_over_at_once_saying_so() throws Exception {
        Process p = started();
        HolderProcess dead = describe(p, "bob@laptop " + p.pid());
        p.destroyForcibly().waitFor();
        try (Harness h = Harness.start(home, Demo.cluster())) {
            h.sim.load(lease(dead.holder(), dead.annotation()));
            StatefulSetResult r = converge(h);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(h.events).anySatisfy(e -> assertThat(e.message()).isEqualTo("took over the Lease of a run of this machine that is"
                    + " no longer running (pid " + p.pid() + ", started " + dead.started() + ", holder bob@laptop " + p.pid() + ")"));
        }
    }

    @Test
    void a_reused_pid_is_a_dead_holder_too_its_start_time_differs() throws Exception {
        Process p = started();
        HolderProcess reused = describe(p, "bob@laptop " + p.pid());
        reused = new HolderProcess(reused.holder(), reused.machineId(), reused.bootId(), reused.pidNamespace(), reused.pid(),
                reused.started().minus(1, ChronoUnit.HOURS));
        try (Harness h = Harness.start(home, Demo.cluster())) {
            h.sim.load(lease(reused.holder(), reused.annotation()));
            StatefulSetResult r = converge(h);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        }
    }

    @Test
    void a_holder_still_running_is_not_taken_over() throws Exception {
        Process p = started();
        HolderProcess alive = describe(p, "bob@laptop " + p.pid());
        assertBlocked(alive.holder(), alive.annotation());
    }

    @Test
    void a_dead_holder_of_another_boot_or_machine_or_pid_namespace_is_not_taken_over() throws Exception {
        Process p = started();
        HolderProcess d = describe(p, "bob@laptop " + p.pid());
        p.destroyForcibly().waitFor();
        assertBlocked(d.holder(), new HolderProcess(d.holder(), d.machineId(), "00000000-0000-4000-8000-000000000000", d.pidNamespace(),
                d.pid(), d.started()).annotation());
        assertBlocked(d.holder(), new HolderProcess(d.holder(), "0123456789abcdef0123456789abcdef", d.bootId(), d.pidNamespace(),
                d.pid(), d.started()).annotation());
        assertBlocked(d.holder(), new HolderProcess(d.holder(), d.machineId(), d.bootId(), "pid:[1]", d.pid(), d.started()).annotation());
    }

    @Test
    void a_description_of_another_holder_or_a_malformed_one_is_ignored() throws Exception {
        Process p = started();
        HolderProcess d = describe(p, "bob@laptop " + p.pid());
        p.destroyForcibly().waitFor();
        // the Lease's holder is someone else than the process described (an older plugin kept the annotation)
        assertBlocked("carol@desk 7", d.annotation());
        for (String bad : List.of("not json", "[]", d.annotation().replace("\"pid\":" + d.pid(), "\"pid\":\"" + d.pid() + "\""),
                d.annotation().replace("\"pid\":" + d.pid(), "\"pid\":-1"),
                d.annotation().replace(d.started().toString(), d.started().plusNanos(1).toString()),
                d.annotation().replace(d.machineId(), "../../etc/passwd"), d.annotation() + " ".repeat(2000))) {
            assertBlocked(d.holder(), bad);
        }
    }

    @Test
    void the_lease_this_process_holds_describes_it_and_it_is_alive() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Record record = RecordBuilder.record().server(h.sim.url()).name("postgres").uid("u-1").holder("alice@laptop 1")
                    .phase(Phase.LOCK.recorded()).startedAt("now").live(h.sts("shop", "postgres")).build();
            LeaseLock lock = LeaseLock.acquire(h.cluster(), h.journal, java.time.Clock.systemUTC(), java.time.Duration.ofSeconds(60), true,
                    record, false, null);
            try {
                ObjectNode lease = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
                HolderProcess self = HolderProcess.parse(lease.at("/metadata/annotations/stsresize.dev~1holder-process").asText()).orElseThrow();
                assertThat(self.holder()).isEqualTo("alice@laptop 1");
                assertThat(self.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(self.deadOn(HolderProcess.LOCAL)).isFalse();
            } finally {
                lock.release();
            }
        }
    }

    private void assertBlocked(String holder, String annotation) {
        try (Harness h = Harness.start(home.resolve("blocked-" + System.nanoTime()), Demo.cluster())) {
            h.sim.load(lease(holder, annotation));
            StatefulSetResult r = converge(h);
            assertThat(r.outcome()).as(annotation + ": " + r.detail()).isEqualTo(Outcome.BLOCKED);
            assertThat(r.detail()).contains("is being converged by " + holder, "wait for that run to finish");
            assertThat(h.writes()).isEmpty();
        }
    }

    private static StatefulSetResult converge(Harness h) {
        Assessment a = new Assessor(h.cluster(), h.events::add).assess(List.of(Demo.declared("postgres")), false,
                Assessor.Depth.APPLY, false, Optional.empty());
        Converger c = new Converger(h.cluster(), java.time.Clock.systemUTC(), h.journal, "alice@laptop 1", h.sim.url(), GateAnswers.YES,
                h.events::add, Checkpoint.NONE);
        return c.converge(a.items().get(0), Harness.options(), true);
    }

    /** A Lease held now (renewed a second ago, not expired) by {@code holder}, with the holder-process annotation given. */
    private static ObjectNode lease(String holder, String annotation) {
        ObjectNode l = PermissionsAndLocksTest.lease(holder, Instant.now().minusSeconds(1));
        ((ObjectNode) l.path("metadata")).putObject("annotations").put(HolderProcess.ANNOTATION, annotation);
        return l;
    }

    private Process started() throws IOException {
        child = new ProcessBuilder("sleep", "600").start();
        return child;
    }

    /** The process as its own run would describe itself in the Lease. */
    private static HolderProcess describe(Process p, String holder) {
        HolderProcess.Machine m = HolderProcess.LOCAL;
        Instant started = m.process(p.pid()).orElseThrow().orElseThrow();
        return new HolderProcess(holder, m.machineId().orElseThrow(), m.bootId().orElseThrow(), m.pidNamespace().orElseThrow(), p.pid(),
                started);
    }
}
