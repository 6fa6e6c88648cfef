package dev.stsresize.tui.terminal;

import dev.stsresize.tui.ClaimProgress;
import dev.stsresize.tui.DecisionSource;
import dev.stsresize.tui.Effect;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.Summary;
import dev.stsresize.tui.UiEvent;
import dev.stsresize.tui.WaitStatus;
import dev.stsresize.tui.Update;
import dev.stsresize.tui.UsageSource;
import dev.stsresize.usage.UsageReport;
import dev.stsresize.usage.UsageSamples;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Performs the effects off the UI thread and posts what happened back as events: the UI's threads
 * live here. Loads and steps have a thread each, so that a refresh is never queued behind a long wait
 * for capacity; the steps' thread is never interrupted (a write in flight would be cut). {@link Effect.Quit}
 * is the loop's own business and never reaches here.
 */
public final class EffectRunner implements AutoCloseable {
    private final DecisionSource source;
    private final StepRunner steps;
    private final Consumer<UiEvent> post;
    private final ExecutorService loads = Executors.newSingleThreadExecutor(r -> daemon(r, "stsresize-load"));
    private final ExecutorService stepThread = Executors.newSingleThreadExecutor(r -> daemon(r, "stsresize-step"));
    /** The wizards left while a step of theirs ran: what that step still says is for nobody. */
    private final java.util.Set<String> left = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final UsageSource usage;
    /** The successive reads, for a growth rate without Prometheus; only the usage thread touches them. */
    private final UsageSamples samples = new UsageSamples();
    private final ScheduledExecutorService usageThread = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "stsresize-usage"));

    public EffectRunner(DecisionSource source, StepRunner steps, Consumer<UiEvent> post) {
        this(source, steps, null, post);
    }

    /** @param usage the periodic usage reads' source; null: none (offline), ReadUsage is then ignored */
    public EffectRunner(DecisionSource source, StepRunner steps, UsageSource usage, Consumer<UiEvent> post) {
        this.source = source;
        this.steps = steps;
        this.usage = usage;
        this.post = post;
    }

    public void run(Effect effect) {
        if (effect instanceof Effect.LoadDecisions) {
            loads.execute(this::load);
        } else if (effect instanceof Effect.ProveDecisions) {
            loads.execute(this::prove);
        } else if (effect instanceof Effect.DecideCopy c) {
            loads.execute(() -> decideCopy(c.decision()));
        } else if (effect instanceof Effect.RunStep r) {
            left.remove(Loaded.key(r.decision()));
            stepThread.execute(() -> step(r));
        } else if (effect instanceof Effect.PrepareEdit p) {
            loads.execute(() -> post.accept(ManifestEdits.prepare(p.changes())));
        } else if (effect instanceof Effect.WriteEdit w) {
            loads.execute(() -> post.accept(ManifestEdits.write(w.files())));
        } else if (effect instanceof Effect.ReadUsage r) {
            if (usage != null) {
                usageThread.schedule(this::readUsage, r.after().toMillis(), TimeUnit.MILLISECONDS);
            }
        } else if (effect instanceof Effect.ReadClaims c) {
            usageThread.schedule(() -> readClaims(c), c.after().toMillis(), TimeUnit.MILLISECONDS);
        } else if (effect instanceof Effect.GoOn g) {
            steps.goOn(g.decision());
        } else if (effect instanceof Effect.CancelSteps c) {
            // never an interrupt: a write in flight finishes; the runner ends a wait at once, and the
            // leaving (a release, or the finish of a run past its delete) is queued behind the step
            left.add(Loaded.key(c.decision()));
            steps.leaving(c.decision());
            stepThread.execute(() -> steps.abandon(c.decision()));
        } else {
            throw new IllegalArgumentException(effect + " is handled by the UI loop");
        }
    }

    /** The claims read again for the wizard still open on them; nothing posted when it was left or none could be read. */
    private void readClaims(Effect.ReadClaims c) {
        String key = Loaded.key(c.decision());
        if (left.contains(key)) {
            return;
        }
        java.util.List<ClaimProgress> claims = steps.claims(c.decision());
        if (!claims.isEmpty() && !left.contains(key)) {
            post.accept(new UiEvent.ClaimsRead(key, claims));
        }
    }

    private void readUsage() {
        try {
            samples.add(usage.read());
        } catch (Exception e) {
            // a reader that failed outright says so like any other unknown: in the header, never as an error
            samples.add(UsageReport.empty(java.util.List.of("usage unknown (" + message(e) + ")"), java.time.Instant.now()));
        }
        samples.withRates().ifPresent(r -> post.accept(new UiEvent.UsageRead(r, samples.sampledFor())));
    }

    private void load() {
        try {
            post.accept(new UiEvent.DecisionsLoaded(source.loadFirst()));
        } catch (Exception e) {
            post.accept(new UiEvent.LoadFailed(message(e)));
        }
    }

    private void prove() {
        try {
            post.accept(new UiEvent.DecisionsProved(source.prove()));
        } catch (Exception e) {
            post.accept(new UiEvent.LoadFailed(message(e)));
        }
    }

    private void decideCopy(dev.stsresize.plan.Decision d) {
        try {
            post.accept(new UiEvent.CopyDecided(source.decideCopy(d)));
        } catch (Exception e) {
            post.accept(new UiEvent.CopyRefused(Loaded.key(d), message(e)));
        }
    }

    private void step(Effect.RunStep r) {
        String key = Loaded.key(r.decision());
        StepRunner.Progress progress = new StepRunner.Progress() {
            @Override
            public void report(String message, String kubectl, boolean warning) {
                if (left.contains(key)) {
                    return;
                }
                post.accept(new UiEvent.StepProgress(key, r.step(), message, kubectl == null ? "" : kubectl, warning));
            }

            @Override
            public void claims(java.util.List<ClaimProgress> claims) {
                if (left.contains(key)) {
                    return;
                }
                post.accept(new UiEvent.ClaimsRead(key, claims));
            }

            @Override
            public void summary(Summary summary) {
                post.accept(new UiEvent.Summarized(key, summary));
            }

            @Override
            public void waiting(WaitStatus wait) {
                if (!left.contains(key)) {
                    post.accept(new UiEvent.WaitTicked(key, wait));
                }
            }
        };
        try {
            StepRunner.Outcome o = steps.run(r.step(), r.decision(), r.uid(), progress);
            if (!left.contains(key)) {
                post.accept(new UiEvent.StepFinished(key, r.step(), o.ok(), o.message()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the UI is closing
        } catch (Exception e) {
            if (!left.contains(key)) {
                post.accept(new UiEvent.StepFinished(key, r.step(), false, message(e)));
            }
        }
    }

    static String message(Exception e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    @Override
    public void close() {
        loads.shutdownNow();
        usageThread.shutdownNow();
        stepThread.shutdown(); // not interrupted: the runner's close, after this, ends its waits and finishes its writes
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
