package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.WatchedKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Every wait of the converge — capacity, the orphan delete's 404, adoption, a restarted pod — goes
 * through here: by watch until the condition holds or the deadline passes, with a {@link WaitTick}
 * to the {@link Progress} at least every {@link #TICK} and on each change seen, ended early by the
 * run's {@link StopRequest} (at once: its watch is closed), by the driver going on without waiting,
 * or by a failure observed on the way (the {@link Wait#failure} of the wait).
 */
final class Waiter {
    /** The longest a wait goes without a tick. */
    static final Duration TICK = Duration.ofSeconds(10);
    /**
     * How long a wait goes before its {@link Wait#slow} reason is said: past the few seconds a healthy
     * controller takes, and before an operator at a silent screen starts guessing.
     */
    static final Duration SLOW = Duration.ofSeconds(30);
    /** The shortest watch between two ticks, however long a tick's reads took. */
    private static final Duration MIN_STRETCH = Duration.ofMillis(100);

    private final AwaitObject await;
    private final Clock clock;
    private final Duration tick;
    private final Progress progress;
    private final StopRequest stop;

    Waiter(AwaitObject await, Clock clock, Progress progress, StopRequest stop) {
        this(await, clock, progress, stop, TICK);
    }

    /** @param tick the longest a wait goes without a tick ({@link #TICK}; tests shorten it) */
    Waiter(AwaitObject await, Clock clock, Progress progress, StopRequest stop, Duration tick) {
        this.tick = tick;
        this.await = await;
        this.clock = clock;
        this.progress = progress;
        this.stop = stop;
    }

    /** Who is late in a slow wait: in full for the one warning, briefly for every tick after it. */
    record Late(String briefly, String fully) {
        static final Late NONE = new Late("", "");
    }

    /** The longer wait a {@link Wait} is a stretch of: when it began and its deadline. */
    record Span(Instant since, Instant until) {}

    /** How a wait ended. */
    enum End { REACHED, DEADLINE, STOPPED, WENT_ON, FAILED }

    /** The object as last seen, how the wait ended, and the failure observed ("" unless FAILED). */
    record Result(Optional<ObjectNode> object, End end, String failure) {
        boolean reached() {
            return end == End.REACHED;
        }

        AwaitObject.Outcome outcome() {
            return new AwaitObject.Outcome(object, reached());
        }
    }

    /**
     * One wait.
     *
     * @param sts the StatefulSet the wait belongs to, "namespace" and "name" of its ticks
     * @param what in words, for the ticks
     * @param claims each claim of the run read now, for the ticks (may read the cluster; asked once per tick)
     * @param failure a failure seen on the object ("" none): the wait ends at once, FAILED
     * @param goneOn set when the driver goes on without waiting (the wait ends at once, WENT_ON)
     * @param detail what the object as seen adds to {@code what} in the ticks ("" nothing): who holds it, say
     * @param known the object as the run read or wrote it moments ago, the watch's start (null: a GET first)
     * @param slow who is late and what to check, from the object as seen ({@link Late#NONE}: nothing), said once
     *     the wait has lasted {@link #SLOW}: in full as a warning the first time, briefly in every tick
     */
    record Wait(String namespace, String sts, Phase step, String what, WatchedKind kind, String name,
            Predicate<Optional<ObjectNode>> condition, Instant deadline, Supplier<List<ClaimGrower.ClaimStatus>> claims,
            Function<Optional<ObjectNode>, String> failure, StopRequest goneOn, Function<Optional<ObjectNode>, String> detail,
            ObjectNode known, Function<Optional<ObjectNode>, Late> slow, Span span) {

        static Wait of(String namespace, String sts, Phase step, String what, WatchedKind kind, String name,
                Predicate<Optional<ObjectNode>> condition, Instant deadline) {
            return new Wait(namespace, sts, step, what, kind, name, condition, deadline, List::of, o -> "", new StopRequest(), o -> "",
                    null, o -> Late.NONE, null);
        }

        Wait withClaims(Supplier<List<ClaimGrower.ClaimStatus>> c) {
            return new Wait(namespace, sts, step, what, kind, this.name, condition, deadline, c, failure, goneOn, detail, known, slow, span);
        }

        Wait withFailure(Function<Optional<ObjectNode>, String> f) {
            return new Wait(namespace, sts, step, what, kind, this.name, condition, deadline, claims, f, goneOn, detail, known, slow, span);
        }

        Wait withGoneOn(StopRequest g) {
            return new Wait(namespace, sts, step, what, kind, this.name, condition, deadline, claims, failure, g, detail, known, slow, span);
        }

        Wait withDetail(Function<Optional<ObjectNode>, String> d) {
            return new Wait(namespace, sts, step, what, kind, this.name, condition, deadline, claims, failure, goneOn, d, known, slow, span);
        }

        /** What the wait says once it has lasted {@link #SLOW}: see {@link Wait}. */
        Wait withSlow(Function<Optional<ObjectNode>, Late> s) {
            return new Wait(namespace, sts, step, what, kind, this.name, condition, deadline, claims, failure, goneOn, detail, known, s, span);
        }

        /**
         * The wait is one stretch of a longer one that began at {@code since} and ends at {@code until} (its own
         * {@link #deadline} is the stretch's end): its ticks count the time spent and left of the longer one, so the
         * operator reads the time to the run's real deadline, never a stretch's window.
         */
        Wait within(Instant since, Instant until) {
            return new Wait(namespace, sts, step, what, kind, this.name, condition, deadline, claims, failure, goneOn, detail, known, slow,
                    new Span(since, until));
        }

        /** The wait starts from {@code object} as already read (null: from a GET): its watch from that resourceVersion. */
        Wait from(ObjectNode object) {
            return new Wait(namespace, sts, step, what, kind, this.name, condition, deadline, claims, failure, goneOn, detail, object, slow, span);
        }
    }

    StopRequest stop() {
        return stop;
    }

    Clock clock() {
        return clock;
    }

    Result until(Wait w) {
        Instant started = clock.instant();
        Instant[] lastTick = {started};
        boolean[] saidSlow = {false};
        End[] ended = {null};
        String[] failed = {""};
        AwaitObject.Outcome o = await.until(w.kind(), w.namespace(), w.name(), w.condition(), w.deadline(), new AwaitObject.Follow() {
            /** What is left of the interval since the last tick began: its reads (claims, Events) count in it. */
            @Override
            public Duration stretch() {
                Duration left = tick.minus(Duration.between(lastTick[0], clock.instant()));
                return left.compareTo(MIN_STRETCH) < 0 ? MIN_STRETCH : left;
            }

            @Override
            public boolean goOn(Optional<ObjectNode> seen) {
                if (stop.requested()) {
                    ended[0] = End.STOPPED;
                    return false;
                }
                if (w.goneOn().requested()) {
                    ended[0] = End.WENT_ON;
                    return false;
                }
                // the tick first: it reads what the failure rule may need (the claims, their events)
                lastTick[0] = clock.instant();
                tick(w, started, seen, saidSlow);
                String f = w.failure().apply(seen);
                if (!f.isEmpty()) {
                    ended[0] = End.FAILED;
                    failed[0] = f;
                    return false;
                }
                return true;
            }

            @Override
            public void watching(AutoCloseable watch) {
                if (watch != null) {
                    current = watch;
                    stop.waiting(watch);
                    w.goneOn().waiting(watch);
                } else if (current != null) {
                    stop.doneWaiting(current);
                    w.goneOn().doneWaiting(current);
                    current = null;
                }
            }

            private AutoCloseable current;
        }, w.known());
        if (o.reached()) {
            return new Result(o.object(), End.REACHED, "");
        }
        if (ended[0] == null && stop.requested()) {
            ended[0] = End.STOPPED; // asked before the first watch opened
        } else if (ended[0] == null && w.goneOn().requested()) {
            ended[0] = End.WENT_ON;
        }
        return new Result(o.object(), ended[0] == null ? End.DEADLINE : ended[0], failed[0]);
    }

    /** {@link #until(Wait)} for a wait that only needs the object and whether it reached the condition. */
    AwaitObject.Outcome until(String namespace, String sts, Phase step, String what, WatchedKind kind, String name,
            Predicate<Optional<ObjectNode>> condition, Instant deadline) {
        return until(Wait.of(namespace, sts, step, what, kind, name, condition, deadline)).outcome();
    }

    private void tick(Wait w, Instant stretchStarted, Optional<ObjectNode> seen, boolean[] saidSlow) {
        Instant now = clock.instant();
        Instant started = w.span() == null ? stretchStarted : w.span().since();
        Duration left = Duration.between(now, w.span() == null ? w.deadline() : w.span().until());
        List<ClaimGrower.ClaimStatus> claims;
        try {
            claims = w.claims().get();
        } catch (RuntimeException e) {
            claims = List.of(); // the claims are read for the view only: a failed read never ends the wait
        }
        if (w.step() == Phase.GROW && w.kind() == WatchedKind.PERSISTENT_VOLUME_CLAIM
                && claims.stream().anyMatch(c -> c.name().equals(w.name()) && c.state().settled())) {
            // the wait for capacity, read settled just now: the watch ends it at its next event, and no line says it waits
            return;
        }
        String detail = w.detail().apply(seen);
        Late late = Duration.between(started, now).compareTo(SLOW) >= 0 ? w.slow().apply(seen) : Late.NONE;
        if (!late.equals(Late.NONE)) {
            if (!saidSlow[0]) {
                saidSlow[0] = true;
                progress.on(ProgressEvent.warn(w.namespace(), w.sts(), w.step(), late.fully()));
            }
            detail = detail.isEmpty() ? late.briefly() : detail + "; " + late.briefly();
        }
        progress.waiting(new WaitTick(w.namespace(), w.sts(), w.step(), detail.isEmpty() ? w.what() : w.what() + ": " + detail,
                Duration.between(started, now),
                left.isNegative() ? Duration.ZERO : left, claims));
    }
}
