package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.converge.Write;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A StepRunner for tests: reports what each step would do (with the real kubectl equivalents), succeeds
 * unless told to fail a step, and can hold a step until the test releases it (a write "in flight").
 */
final class FakeStepRunner implements StepRunner {
    final List<Phase> ran = Collections.synchronizedList(new ArrayList<>());
    final List<Decision> abandoned = Collections.synchronizedList(new ArrayList<>());
    private final Map<Phase, String> failures = new HashMap<>();
    private final Map<Phase, CountDownLatch> holds = new HashMap<>();

    FakeStepRunner failing(Phase step, String message) {
        failures.put(step, message);
        return this;
    }

    /** The step blocks until {@link #release} (or an interrupt). */
    FakeStepRunner holding(Phase step) {
        holds.put(step, new CountDownLatch(1));
        return this;
    }

    void release(Phase step) {
        holds.get(step).countDown();
    }

    @Override
    public Outcome run(Phase step, Decision d, String uid, Progress progress) throws InterruptedException {
        ran.add(step);
        CountDownLatch hold = holds.get(step);
        if (hold != null) {
            hold.await();
        }
        if (failures.containsKey(step)) {
            return Outcome.failed(failures.get(step));
        }
        switch (step) {
            case GROW -> {
                for (ClaimState c : d.claimsToGrow()) {
                    progress.report("patched " + c.name() + " to " + c.target(), Write.ClaimPatch.of(d.namespace(), c).command(), false);
                }
            }
            case ORPHAN_DELETE -> progress.report("deleted " + d.name() + " (UID " + uid + ") with propagationPolicy=Orphan",
                    new Write.OrphanDelete(d.namespace(), d.name(), "").command(), false);
            case REAPPLY -> progress.report("re-applied " + d.name(), new Write.Apply(d.namespace(), d.name(), "kubectl").command(), false);
            default -> progress.report(step.label() + " ok", "", false);
        }
        return Outcome.done(step == Phase.VERIFY ? "pods adopted, UIDs unchanged" : step.label() + " done");
    }

    /** Leaving ends a held step, as the real runner ends its wait. */
    @Override
    public void leaving(Decision decision) {
        holds.values().forEach(CountDownLatch::countDown);
    }

    @Override
    public void abandon(Decision decision) {
        abandoned.add(decision);
    }
}
