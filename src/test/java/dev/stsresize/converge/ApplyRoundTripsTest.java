package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37 item 2: the converge of one StatefulSet of 3 claims (the demo's postgres) sends at most
 * {@link #MOST} requests in sequence, apart from the waits for controllers (the watches, the reads of the wait
 * for capacity at the resizer's pace). Counted, not
 * timed: each call's depth is one more than the deepest call answered before it was sent
 * ({@link CallDepths}); every request is slowed by {@link #LATENCY_MILLIS} so that calls sent together are
 * in flight together however the machine schedules their threads. Prints the calls by depth.
 */
class ApplyRoundTripsTest {
    /** The most round trips in sequence a StatefulSet's converge may take (issue 37). */
    static final int MOST = 15;
    private static final long LATENCY_MILLIS = 100;

    @TempDir Path home;

    @Test
    void one_statefulsets_converge_takes_at_most_15_round_trips_in_sequence_besides_its_waits() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            h.sim.faults().add(FaultRule.on(null, null, null, Fault.latency(LATENCY_MILLIS)));
            CallDepths depths = new CallDepths();
            StatefulSetResult r = h.converger(depths.around(h.cluster()), "alice@laptop 1", GateAnswers.YES, Checkpoint.NONE)
                    .converge(a.items().get(0), Harness.options(), true);
            System.out.printf("converge of postgres: %d calls, %d in sequence besides %d watches and the capacity wait's %d reads%n%s", depths.count(),
                    depths.inSequence(), depths.watches(), depths.waitReads(), depths.byDepth());
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(depths.inSequence()).as("round trips in sequence, besides the waits:%n%s", depths.byDepth()).isLessThanOrEqualTo(MOST);
        }
    }
}
