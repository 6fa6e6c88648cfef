package dev.stsresize.sim.controller;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Timed steps of a controller: a step becomes due {@code delay} after it was first asked for, and
 * the key is looked at again then. Events in between see it not yet due and change nothing.
 */
final class Pacer {
    private final Map<String, Long> dueAt = new ConcurrentHashMap<>();

    /** True when the step {@code id} is due (and forgets it); otherwise requeues {@code key} for when it is. */
    boolean due(Controller c, Key key, String id, long delayMillis) {
        long now = System.nanoTime();
        Long due = dueAt.putIfAbsent(id, now + delayMillis * 1_000_000);
        if (due == null) {
            due = now + delayMillis * 1_000_000;
        }
        if (now >= due) {
            dueAt.remove(id);
            return true;
        }
        c.requeue(key, Math.max(1, (due - now + 999_999) / 1_000_000));
        return false;
    }

    void forget(String prefix) {
        dueAt.keySet().removeIf(k -> k.startsWith(prefix));
    }
}
