package dev.stsresize.converge;

import dev.stsresize.plan.Metadata;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.WatchedKind;
import dev.stsresize.plan.Quantity;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Step 5: grows each claim by a merge patch of {@code spec.resources.requests.storage}, re-reading it
 * first (a claim already at or above its target is left alone, never patched downward) and on a 409;
 * then follows each by watch until its capacity reaches the request, the file system resize waits for
 * a pod restart, or the resizer says the size is infeasible.
 */
public final class ClaimGrower {
    private static final int CONFLICT_RETRIES = 5;

    /**
     * Where one claim stands toward its target: the one reading of a claim's resize, for the converge's
     * waits and for every view of its progress.
     */
    public enum State {
        /** the request is still below the target: not patched yet */
        REQUESTED_LESS,
        /** the request is at the target, the capacity not yet */
        WAITING,
        /** the volume grew; its file system grows when a pod mounts it anew (or online, by the kubelet) */
        FILE_SYSTEM_PENDING,
        /** the capacity reached the target */
        GROWN,
        /** the resizer says the size cannot be had */
        INFEASIBLE,
        /** the claim no longer exists */
        GONE;

        /** Nothing more happens without someone acting: the wait for capacity is over for this claim. */
        public boolean settled() {
            return this != REQUESTED_LESS && this != WAITING;
        }
    }

    /**
     * One claim as read: its request before the run ({@code from}), the target, where it stands, its
     * request and capacity now, the types of its True conditions, a sentence for the state, and the
     * latest word of its resizer ("" when not read: the newest Event about it and its allocation status,
     * see {@link ResizeSignals}).
     */
    public record ClaimStatus(String name, String from, String to, State state, String capacity, String message, String request,
            java.util.List<String> conditions, String latest) {
        public ClaimStatus {
            conditions = java.util.List.copyOf(conditions);
            latest = latest == null ? "" : latest;
        }

        public ClaimStatus(String name, String from, String to, State state, String capacity, String message, String request,
                java.util.List<String> conditions) {
            this(name, from, to, state, capacity, message, request, conditions, "");
        }

        ClaimStatus withLatest(String words) {
            return new ClaimStatus(name, from, to, state, capacity, message, request, conditions, words);
        }
    }

    /** How the wait for capacity left each claim, and the claims whose resizer kept failing (name → its words). */
    record Awaited(Map<String, ClaimStatus> claims, Map<String, String> failed) {}

    private final Cluster cluster;
    private final Waiter waiter;
    private final Events events;
    private final Progress progress;
    private final Checkpoint checkpoint;

    ClaimGrower(Cluster cluster, Waiter waiter, Events events, Progress progress, Checkpoint checkpoint) {
        this.cluster = cluster;
        this.waiter = waiter;
        this.events = events;
        this.progress = progress;
        this.checkpoint = checkpoint;
    }

    /**
     * Patches every claim below its target; answers each claim's request before (name → request, "" if
     * gone). Every claim is read, then every one below its target patched, each batch sent at once
     * ({@link Together}) with {@code alongside} (what must be written before the patches: the phase)
     * beside the reads. A stop request is honoured before the patches: once sent, they all finish, and
     * each is told (and checkpointed) in the run's order.
     */
    Map<String, String> grow(String ns, String sts, Map<String, String> targets, java.util.function.BiConsumer<String, ObjectNode> patched,
            Runnable alongside) {
        Map<String, String> before = new LinkedHashMap<>();
        if (waiter.stop().requested()) {
            return before;
        }
        List<String> names = List.copyOf(targets.keySet());
        List<Optional<ObjectNode>> read = readTogether(ns, names, alongside);
        if (waiter.stop().requested()) {
            return before;
        }
        List<Callable<Patched>> patches = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String claim = names.get(i);
            Optional<ObjectNode> current = read.get(i);
            patches.add(() -> growOne(ns, claim, Quantity.parse(targets.get(claim)), current));
        }
        List<Together.Settled<Patched>> done = Together.settled(patches);
        RuntimeException failed = null;
        // told in the run's order, on this thread: each patch written is said, even beside one that failed
        for (int i = 0; i < names.size(); i++) {
            Together.Settled<Patched> p = done.get(i);
            if (p.failure() != null) {
                failed = failed == null ? p.failure() : failed;
            } else {
                before.put(names.get(i), tell(ns, sts, names.get(i), Quantity.parse(targets.get(names.get(i))), p.value(), patched));
            }
        }
        if (failed != null) {
            throw failed;
        }
        return before;
    }

    /** Every named claim read together (empty: gone), with {@code alongside} sent beside them. */
    private List<Optional<ObjectNode>> readTogether(String ns, List<String> names, Runnable alongside) {
        List<Callable<Optional<ObjectNode>>> reads = new ArrayList<>();
        reads.add(() -> {
            alongside.run();
            return Optional.empty();
        });
        for (String claim : names) {
            reads.add(() -> cluster.getClaim(ns, claim));
        }
        List<Optional<ObjectNode>> all = Together.all(reads);
        return all.subList(1, all.size());
    }

    /** One claim's patch: its request before, and the claim as the patch answered (null: not patched, and why). */
    private record Patched(String before, ObjectNode after, String leftAlone) {}

    /** Decides from {@code read} and patches; on a conflict reads again and decides again. Sends nothing else. */
    private Patched growOne(String ns, String claim, Quantity target, Optional<ObjectNode> read) {
        String before = null;
        Optional<ObjectNode> current = read;
        for (int attempt = 0; ; attempt++) {
            if (current.isEmpty()) {
                return new Patched(before == null ? "" : before, null, "gone");
            }
            Quantity request = Quantity.parseOrNull(Metadata.textOrEmpty(current.get(), "spec", "resources", "requests", "storage"));
            if (before == null) {
                before = request == null ? "" : request.toString();
            }
            if (request != null && !request.isLessThan(target)) {
                return new Patched(before, null, "already requests " + request);
            }
            try {
                // the size before goes in the same patch as the raise: revert finds it after any ending of the run
                ObjectNode after = cluster.patchClaimStorage(ns, claim, target.toString(), SizeBefore.written(before), false);
                Quantity now = Quantity.parseOrNull(Metadata.textOrEmpty(after, "spec", "resources", "requests", "storage"));
                if (now == null || now.isLessThan(target)) {
                    throw new IllegalStateException("claim " + ns + "/" + claim + " reads back " + now + " after the patch to " + target);
                }
                return new Patched(before, after, "");
            } catch (ClusterException e) {
                if (!e.isConflict() || attempt >= CONFLICT_RETRIES) {
                    throw e;
                }
                // someone wrote it since our read: read again, decide again
                current = cluster.getClaim(ns, claim);
            }
        }
    }

    /** What one claim's patch did, said to the progress, its Event queued and its checkpoint passed; answers its request before. */
    private String tell(String ns, String sts, String claim, Quantity target, Patched p, java.util.function.BiConsumer<String, ObjectNode> patched) {
        if (p.after() == null) {
            progress.on(p.leftAlone().equals("gone")
                    ? ProgressEvent.warn(ns, sts, Phase.GROW, "claim " + claim + " no longer exists; nothing to grow")
                    : ProgressEvent.info(ns, sts, Phase.GROW, "claim " + claim + " " + p.leftAlone() + " (target " + target
                            + "): left alone"));
            return p.before();
        }
        progress.on(ProgressEvent.write(ns, sts, Phase.GROW, "claim " + claim + ": " + p.before() + " -> " + target,
                new Write.ClaimPatch(ns, claim, target.toString())));
        events.later(p.after(), "StorageRequestGrown", "Grow", "storage request grown from " + p.before() + " to " + target
                + " to match StatefulSet " + sts + "'s claim template");
        patched.accept(claim, p.after());
        checkpoint.afterWrite("patch claim " + claim);
        return p.before();
    }

    /**
     * Follows the claims until each settles or {@code deadline}; every tick says how each claim stands and
     * what its resizer said last. The claims still waiting are read together (the first time, when every
     * claim was just patched, taken from the patches' answers: {@code patched}), then the first of them
     * followed by watch from that read (no GET of its own) until it settles; then the rest are read
     * together again, and so on: once the resizer has finished, one round trip finds every claim settled.
     * A stop request, or the driver going on ({@code goneOn}), ends the wait; so does a resizer that keeps
     * failing ({@link ResizeSignals}). The claims not waited for are read as they are.
     */
    Awaited await(String ns, String sts, Map<String, String> targets, Map<String, String> before, Instant deadline,
            StopRequest goneOn, Map<String, Integer> eventBaseline, Map<String, ObjectNode> patched) {
        Map<String, ClaimStatus> out = new LinkedHashMap<>();
        Map<String, String> failed = new LinkedHashMap<>();
        ResizeSignals signals = new ResizeSignals(cluster, waiter.clock(), progress, ns, sts, targets, before, eventBaseline);
        List<String> waiting = new ArrayList<>(targets.keySet());
        boolean ended = false;
        // the first round starts from the patches' answers, if every claim was patched just now
        Map<String, ObjectNode> answered = patched.keySet().containsAll(waiting) ? patched : Map.of();
        while (!waiting.isEmpty() && !ended) {
            Map<String, ObjectNode> first = answered;
            if (first.isEmpty()) {
                // a claim the last tick read settled stays settled (its capacity reached, its resize infeasible or waiting
                // for the kubelet, the claim gone): only the others are read again
                for (ClaimStatus s : signals.last()) {
                    if (waiting.contains(s.name()) && s.state().settled()) {
                        out.put(s.name(), s);
                    }
                }
                waiting.removeAll(out.keySet());
                if (waiting.isEmpty()) {
                    break;
                }
            }
            List<Optional<ObjectNode>> read = first.isEmpty() ? readTogether(ns, waiting, () -> { })
                    : waiting.stream().map(c -> Optional.of(first.get(c))).toList();
            answered = Map.of();
            String next = null;
            ObjectNode known = null;
            for (int i = 0; i < waiting.size(); i++) {
                String claim = waiting.get(i);
                Quantity target = Quantity.parse(targets.get(claim));
                if (read.get(i).isEmpty() || settled(read.get(i).get(), target)) {
                    out.put(claim, status(claim, before.getOrDefault(claim, ""), target, read.get(i)));
                } else if (next == null) {
                    next = claim;
                    known = read.get(i).get();
                }
            }
            waiting.removeAll(out.keySet());
            if (next == null) {
                break;
            }
            String claim = next;
            Quantity target = Quantity.parse(targets.get(claim));
            // the first tick after the patches says the claims as they answered: a read then would tell the same
            boolean[] ticked = {first.isEmpty()};
            java.util.function.Supplier<List<ClaimStatus>> claims = () -> {
                if (ticked[0]) {
                    return signals.read();
                }
                ticked[0] = true;
                return signals.answered(first);
            };
            Waiter.Result r = waiter.until(Waiter.Wait.of(ns, sts, Phase.GROW, "the capacity of claim " + claim + " to reach " + target,
                    WatchedKind.PERSISTENT_VOLUME_CLAIM, claim, c -> c.isEmpty() || settled(c.get(), target), deadline)
                    .withClaims(claims)
                    .withFailure(c -> signals.failure(claim))
                    .withGoneOn(goneOn)
                    .from(known));
            out.put(claim, status(claim, before.getOrDefault(claim, ""), target, r.object()));
            waiting.remove(claim);
            if (r.end() == Waiter.End.FAILED) {
                failed.put(claim, r.failure());
            }
            // failed: the run stops here; stopped, gone on or out of time: the others are read as they are
            ended = r.end() != Waiter.End.REACHED;
        }
        if (!waiting.isEmpty()) {
            List<Optional<ObjectNode>> read = readTogether(ns, waiting, () -> { });
            for (int i = 0; i < waiting.size(); i++) {
                String claim = waiting.get(i);
                out.put(claim, status(claim, before.getOrDefault(claim, ""), Quantity.parse(targets.get(claim)), read.get(i)));
            }
        }
        Map<String, ClaimStatus> ordered = new LinkedHashMap<>();
        targets.keySet().forEach(k -> ordered.put(k, out.get(k)));
        return new Awaited(ordered, failed);
    }

    /** Every claim of the run read now, in the run's order. */
    java.util.List<ClaimStatus> readAll(String ns, Map<String, String> targets, Map<String, String> before) {
        List<String> names = List.copyOf(targets.keySet());
        List<Optional<ObjectNode>> read = readTogether(ns, names, () -> { });
        java.util.List<ClaimStatus> out = new java.util.ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            out.add(status(names.get(i), before.getOrDefault(names.get(i), ""), Quantity.parse(targets.get(names.get(i))), read.get(i)));
        }
        return out;
    }

    /** Where the claim stands now (a fresh GET). */
    ClaimStatus read(String ns, String claim, String from, Quantity target) {
        return status(claim, from, target, cluster.getClaim(ns, claim));
    }

    static boolean settled(ObjectNode claim, Quantity target) {
        return stateOf(claim, target).settled();
    }

    static State stateOf(ObjectNode claim, Quantity target) {
        Quantity capacity = Quantity.parseOrNull(Metadata.textOrEmpty(claim, "status", "capacity", "storage"));
        if (capacity != null && !capacity.isLessThan(target)) {
            return State.GROWN;
        }
        String allocation = Metadata.textOrEmpty(claim, "status", "allocatedResourceStatuses", "storage");
        if (allocation.endsWith("Infeasible")) {
            return State.INFEASIBLE;
        }
        if (Objects.hasCondition(claim, "FileSystemResizePending")) {
            return State.FILE_SYSTEM_PENDING;
        }
        Quantity request = Quantity.parseOrNull(Metadata.textOrEmpty(claim, "spec", "resources", "requests", "storage"));
        return request != null && !request.isLessThan(target) ? State.WAITING : State.REQUESTED_LESS;
    }

    /** Where {@code claim} (as read; empty when it no longer exists) stands toward {@code target}: the one reading every view shows. */
    public static ClaimStatus status(String name, String from, Quantity target, Optional<ObjectNode> claim) {
        if (claim.isEmpty()) {
            return new ClaimStatus(name, from, target.toString(), State.GONE, "", "the claim no longer exists", "", java.util.List.of());
        }
        ObjectNode c = claim.get();
        State s = stateOf(c, target);
        String message = switch (s) {
            case INFEASIBLE -> conditionMessage(c, "ControllerResizeError", "NodeResizeError")
                    .orElse("the resizer reports " + Metadata.textOrEmpty(c, "status", "allocatedResourceStatuses", "storage"));
            case FILE_SYSTEM_PENDING -> "the volume grew; the kubelet grows its file system, while the pod runs if the CSI"
                    + " driver expands online, else when the pod restarts";
            case WAITING, REQUESTED_LESS -> "capacity " + Metadata.textOrEmpty(c, "status", "capacity", "storage") + " has not reached "
                    + target + (Objects.hasCondition(c, "Resizing") ? " (Resizing)" : "");
            default -> "";
        };
        java.util.List<String> conditions = new java.util.ArrayList<>();
        for (var cond : c.path("status").path("conditions")) {
            if ("True".equals(cond.path("status").asText("True"))) {
                conditions.add(cond.path("type").asText());
            }
        }
        return new ClaimStatus(name, from, target.toString(), s, Metadata.textOrEmpty(c, "status", "capacity", "storage"), message,
                Metadata.textOrEmpty(c, "spec", "resources", "requests", "storage"), conditions);
    }

    static Optional<String> conditionMessage(ObjectNode claim, String... types) {
        for (var c : claim.path("status").path("conditions")) {
            for (String t : types) {
                if (t.equals(c.path("type").asText())) {
                    return Optional.of(c.path("message").asText(t));
                }
            }
        }
        return Optional.empty();
    }
}
