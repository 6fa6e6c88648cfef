package dev.stsresize.tui.terminal;

import dev.stsresize.tui.ClaimProgress;
import dev.stsresize.tui.DecisionSource;
import dev.stsresize.tui.Effect;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.Summary;
import dev.stsresize.tui.UiEvent;
import dev.stsresize.tui.Update;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Performs the effects off the UI thread and posts what happened back as events. Loads and steps have
 * a thread each, so that a refresh is never queued behind a long wait for capacity. {@link Effect.Quit}
 * is the loop's own business and never reaches here.
 */
public final class EffectRunner implements AutoCloseable {
    private final DecisionSource source;
    private final StepRunner steps;
    private final Consumer<UiEvent> post;
    private final ExecutorService loads = Executors.newSingleThreadExecutor(r -> daemon(r, "stsresize-load"));
    private final ExecutorService stepThread = Executors.newSingleThreadExecutor(r -> daemon(r, "stsresize-step"));
    private volatile Future<?> runningStep;

    public EffectRunner(DecisionSource source, StepRunner steps, Consumer<UiEvent> post) {
        this.source = source;
        this.steps = steps;
        this.post = post;
    }

    public void run(Effect effect) {
        if (effect instanceof Effect.LoadDecisions) {
            loads.execute(this::load);
        } else if (effect instanceof Effect.RunStep r) {
            runningStep = stepThread.submit(() -> step(r));
        } else if (effect instanceof Effect.PrepareEdit p) {
            loads.execute(() -> post.accept(ManifestEdits.prepare(p.changes())));
        } else if (effect instanceof Effect.WriteEdit w) {
            loads.execute(() -> post.accept(ManifestEdits.write(w.files())));
        } else if (effect instanceof Effect.GoOn g) {
            steps.goOn(g.decision());
        } else if (effect instanceof Effect.CancelSteps c) {
            Future<?> f = runningStep;
            if (f != null) {
                f.cancel(true);
            }
            stepThread.execute(() -> steps.abandon(c.decision()));
        } else {
            throw new IllegalArgumentException(effect + " is handled by the UI loop");
        }
    }

    private void load() {
        try {
            post.accept(new UiEvent.DecisionsLoaded(source.load()));
        } catch (Exception e) {
            post.accept(new UiEvent.LoadFailed(message(e)));
        }
    }

    private void step(Effect.RunStep r) {
        String key = Loaded.key(r.decision());
        StepRunner.Progress progress = new StepRunner.Progress() {
            @Override
            public void report(String message, String kubectl, boolean warning) {
                post.accept(new UiEvent.StepProgress(key, r.step(), message, kubectl == null ? "" : kubectl, warning));
            }

            @Override
            public void claims(java.util.List<ClaimProgress> claims) {
                post.accept(new UiEvent.ClaimsRead(key, claims));
            }

            @Override
            public void summary(Summary summary) {
                post.accept(new UiEvent.Summarized(key, summary));
            }
        };
        try {
            StepRunner.Outcome o = steps.run(r.step(), r.decision(), r.uid(), progress);
            post.accept(new UiEvent.StepFinished(key, r.step(), o.ok(), o.message()));
        } catch (InterruptedException e) {
            // the operator left the wizard; Update drops answers for a wizard that is gone
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            post.accept(new UiEvent.StepFinished(key, r.step(), false, message(e)));
        }
    }

    static String message(Exception e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    @Override
    public void close() {
        loads.shutdownNow();
        stepThread.shutdownNow();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
