package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.Decision;
import dev.stsresize.tui.terminal.EffectRunner;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Effects run off the UI thread and come back as events: what a StepRunner or a source throws included. */
class EffectRunnerTest {
    private final BlockingQueue<UiEvent> posted = new LinkedBlockingQueue<>();
    private final Decision postgres = DemoDecisions.named("postgres");
    private EffectRunner runner;

    @AfterEach
    void close() {
        runner.close();
    }

    UiEvent next() throws InterruptedException {
        UiEvent e = posted.poll(20, TimeUnit.SECONDS);
        assertThat(e).as("an event was posted").isNotNull();
        return e;
    }

    @Test
    void aStepReportsItsProgressThenHowItEnded() throws Exception {
        runner = new EffectRunner(DemoDecisions::loaded, new FakeStepRunner(), posted::add);
        runner.run(new Effect.RunStep(WizardStep.GROW, postgres, "uid-1"));
        UiEvent first = next();
        assertThat(first).isInstanceOfSatisfying(UiEvent.StepProgress.class, p -> {
            assertThat(p.key()).isEqualTo("shop/postgres");
            assertThat(p.kubectl()).startsWith("kubectl patch pvc data-postgres-0 -n shop");
        });
        next();
        next();
        assertThat(next()).isEqualTo(new UiEvent.StepFinished("shop/postgres", WizardStep.GROW, true, "grow done"));
    }

    @Test
    void anExceptionFromTheRunnerIsAFailedStepWithItsMessage() throws Exception {
        StepRunner throwing = (step, d, uid, progress) -> {
            throw new IllegalStateException("persistentvolumeclaims \"data-postgres-0\" is forbidden: exceeded quota");
        };
        runner = new EffectRunner(DemoDecisions::loaded, throwing, posted::add);
        runner.run(new Effect.RunStep(WizardStep.GROW, postgres, "uid-1"));
        assertThat(next()).isEqualTo(new UiEvent.StepFinished("shop/postgres", WizardStep.GROW, false,
                "persistentvolumeclaims \"data-postgres-0\" is forbidden: exceeded quota"));
    }

    @Test
    void cancellingInterruptsTheRunningStepAndAbandonsTheRun() throws Exception {
        FakeStepRunner steps = new FakeStepRunner().holding(WizardStep.WAIT);
        runner = new EffectRunner(DemoDecisions::loaded, steps, posted::add);
        runner.run(new Effect.RunStep(WizardStep.WAIT, postgres, "uid-1"));
        while (steps.ran.isEmpty()) {
            Thread.onSpinWait();
        }
        runner.run(new Effect.CancelSteps(postgres));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (steps.abandoned.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(steps.abandoned).containsExactly(postgres);
        assertThat(posted).as("an interrupted step reports nothing: the wizard is gone").isEmpty();
    }

    @Test
    void aFailedLoadIsAnEventWithTheMessage() throws Exception {
        runner = new EffectRunner(() -> {
            throw new java.io.IOException("live.yaml: No such file or directory");
        }, new FakeStepRunner(), posted::add);
        runner.run(new Effect.LoadDecisions());
        assertThat(next()).isEqualTo(new UiEvent.LoadFailed("live.yaml: No such file or directory"));
    }
}
