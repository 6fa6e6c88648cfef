package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
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
        runner.run(new Effect.RunStep(Phase.GROW, postgres, "uid-1"));
        UiEvent first = next();
        assertThat(first).isInstanceOfSatisfying(UiEvent.StepProgress.class, p -> {
            assertThat(p.key()).isEqualTo("shop/postgres");
            assertThat(p.kubectl()).startsWith("kubectl patch pvc data-postgres-0 -n shop");
        });
        next();
        next();
        assertThat(next()).isEqualTo(new UiEvent.StepFinished("shop/postgres", Phase.GROW, true, "grow done"));
    }

    @Test
    void anExceptionFromTheRunnerIsAFailedStepWithItsMessage() throws Exception {
        StepRunner throwing = (step, d, uid, progress) -> {
            throw new IllegalStateException("persistentvolumeclaims \"data-postgres-0\" is forbidden: exceeded quota");
        };
        runner = new EffectRunner(DemoDecisions::loaded, throwing, posted::add);
        runner.run(new Effect.RunStep(Phase.GROW, postgres, "uid-1"));
        assertThat(next()).isEqualTo(new UiEvent.StepFinished("shop/postgres", Phase.GROW, false,
                "persistentvolumeclaims \"data-postgres-0\" is forbidden: exceeded quota"));
    }

    @Test
    void cancellingEndsTheRunningStepAndAbandonsTheRunBehindIt() throws Exception {
        FakeStepRunner steps = new FakeStepRunner().holding(Phase.WAIT);
        runner = new EffectRunner(DemoDecisions::loaded, steps, posted::add);
        runner.run(new Effect.RunStep(Phase.WAIT, postgres, "uid-1"));
        while (steps.ran.isEmpty()) {
            Thread.onSpinWait();
        }
        runner.run(new Effect.CancelSteps(postgres));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (steps.abandoned.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(steps.abandoned).containsExactly(postgres);
        assertThat(posted).as("a step of a wizard left reports nothing: the wizard is gone").isEmpty();
    }

    @Test
    void aFailedLoadIsAnEventWithTheMessage() throws Exception {
        runner = new EffectRunner(() -> {
            throw new java.io.IOException("live.yaml: No such file or directory");
        }, new FakeStepRunner(), posted::add);
        runner.run(new Effect.LoadDecisions());
        assertThat(next()).isEqualTo(new UiEvent.LoadFailed("live.yaml: No such file or directory"));
    }

    /** Two reads five minutes apart: the second comes back with the rate the samples give and how long they span. */
    @Test
    void usageReadsAreSampledAndAReaderThatThrowsIsANoteNotAnError() throws Exception {
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        UsageSource source = () -> {
            int n = reads.getAndIncrement();
            if (n == 2) {
                throw new IllegalStateException("connection refused");
            }
            long gi = 1L << 30;
            return new dev.stsresize.usage.UsageReport(
                    java.util.List.of(new dev.stsresize.usage.UsageReport.Target("payments", "ledger", java.util.Map.of("data", "10Gi"))),
                    java.util.Map.of("payments/ledger", java.util.List.of(new dev.stsresize.plan.ClaimUsage("data-ledger-0",
                            9 * gi + n * (gi / 10), 10 * gi, gi - n * (gi / 10), java.util.Optional.empty()))),
                    java.util.Map.of(), dev.stsresize.plan.SizingPolicy.DEFAULT, java.util.List.of(),
                    java.time.Instant.EPOCH.plusSeconds(300L * n));
        };
        runner = new EffectRunner(DemoDecisions::loaded, new FakeStepRunner(), source, posted::add);
        runner.run(new Effect.ReadUsage(java.time.Duration.ZERO));
        UiEvent.UsageRead first = (UiEvent.UsageRead) next();
        assertThat(first.sampledFor()).isZero();
        runner.run(new Effect.ReadUsage(java.time.Duration.ZERO));
        UiEvent.UsageRead second = (UiEvent.UsageRead) next();
        assertThat(second.sampledFor()).isEqualTo(java.time.Duration.ofMinutes(5));
        assertThat(second.report().of("payments", "ledger").orElseThrow().fillsIn()).as("0.9Gi available at 0.1Gi in five minutes")
                .hasValueSatisfying(d -> assertThat(d.toSeconds()).isBetween(2699L, 2702L));
        runner.run(new Effect.ReadUsage(java.time.Duration.ZERO));
        UiEvent.UsageRead third = (UiEvent.UsageRead) next();
        assertThat(third.report().notes()).contains("usage unknown (connection refused)");
    }

    @Test
    void withoutAUsageSourceReadUsageIsIgnored() throws Exception {
        runner = new EffectRunner(DemoDecisions::loaded, new FakeStepRunner(), posted::add);
        runner.run(new Effect.ReadUsage(java.time.Duration.ZERO));
        assertThat(posted.poll(500, TimeUnit.MILLISECONDS)).isNull();
    }
}
