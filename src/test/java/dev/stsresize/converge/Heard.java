package dev.stsresize.converge;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The events and the wait ticks of a run, kept as a view gets them, for a test to assert on. The
 * lists take additions from any thread: a run on the simulator reports from the pool's lanes too.
 */
final class Heard implements Progress {
    final List<ProgressEvent> events = new CopyOnWriteArrayList<>();
    final List<WaitTick> ticks = new CopyOnWriteArrayList<>();

    @Override
    public void on(ProgressEvent event) {
        events.add(event);
    }

    @Override
    public void waiting(WaitTick tick) {
        ticks.add(tick);
    }

    WaitTick lastTick() {
        return ticks.get(ticks.size() - 1);
    }
}
