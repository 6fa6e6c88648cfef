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
import java.util.function.Consumer;

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
     * gone). A stop request is honoured between claims: the patch in flight finishes, no other starts.
     */
    Map<String, String> grow(String ns, String sts, Map<String, String> targets, Consumer<String> patched) {
        Map<String, String> before = new LinkedHashMap<>();
        for (Map.Entry<String, String> t : targets.entrySet()) {
            if (waiter.stop().requested()) {
                break;
            }
            before.put(t.getKey(), growOne(ns, sts, t.getKey(), Quantity.parse(t.getValue()), patched));
        }
        return before;
    }

    private String growOne(String ns, String sts, String claim, Quantity target, Consumer<String> patched) {
        String before = null;
        for (int attempt = 0; ; attempt++) {
            Optional<ObjectNode> current = cluster.getClaim(ns, claim);
            if (current.isEmpty()) {
                progress.on(ProgressEvent.warn(ns, sts, Step.GROW, "claim " + claim + " no longer exists; nothing to grow"));
                return before == null ? "" : before;
            }
            Quantity request = Quantity.parseOrNull(Metadata.textOrEmpty(current.get(), "spec", "resources", "requests", "storage"));
            if (before == null) {
                before = request == null ? "" : request.toString();
            }
            if (request != null && !request.isLessThan(target)) {
                progress.on(ProgressEvent.info(ns, sts, Step.GROW, "claim " + claim + " already requests " + request + " (target "
                        + target + "): left alone"));
                return before;
            }
            try {
                ObjectNode after = cluster.patchClaimStorage(ns, claim, target.toString(), false);
                Quantity now = Quantity.parseOrNull(Metadata.textOrEmpty(after, "spec", "resources", "requests", "storage"));
                if (now == null || now.isLessThan(target)) {
                    throw new IllegalStateException("claim " + ns + "/" + claim + " reads back " + now + " after the patch to " + target);
                }
                progress.on(ProgressEvent.write(ns, sts, Step.GROW, "claim " + claim + ": " + before + " -> " + target,
                        new Write.ClaimPatch(ns, claim, target.toString())));
                events.on(after, "StorageRequestGrown", "Grow", "storage request grown from " + before + " to " + target
                        + " to match StatefulSet " + sts + "'s claim template");
                patched.accept(claim);
                checkpoint.afterWrite("patch claim " + claim);
                return before;
            } catch (ClusterException e) {
                if (!e.isConflict() || attempt >= CONFLICT_RETRIES) {
                    throw e;
                }
                // someone wrote it since our read: read again, decide again
            }
        }
    }

    /**
     * Follows each claim by watch until it settles or {@code deadline}; every tick says how each claim
     * stands and what its resizer said last. A stop request, or the driver going on ({@code goneOn}),
     * ends the wait; so does a resizer that keeps failing ({@link ResizeSignals}). The claims not
     * waited for are read as they are.
     */
    Awaited await(String ns, String sts, Map<String, String> targets, Map<String, String> before, Instant deadline,
            StopRequest goneOn, Map<String, Integer> eventBaseline) {
        Map<String, ClaimStatus> out = new LinkedHashMap<>();
        Map<String, String> failed = new LinkedHashMap<>();
        ResizeSignals signals = new ResizeSignals(cluster, waiter.clock(), progress, ns, sts, targets, before, eventBaseline);
        for (Map.Entry<String, String> t : targets.entrySet()) {
            Quantity target = Quantity.parse(t.getValue());
            String from = before.getOrDefault(t.getKey(), "");
            Waiter.Result r = waiter.until(Waiter.Wait.of(ns, sts, Step.GROW, "the capacity of claim " + t.getKey() + " to reach " + target,
                    WatchedKind.PERSISTENT_VOLUME_CLAIM, t.getKey(), c -> c.isEmpty() || settled(c.get(), target), deadline)
                    .withClaims(signals::read)
                    .withFailure(c -> signals.failure(t.getKey()))
                    .withGoneOn(goneOn));
            out.put(t.getKey(), status(t.getKey(), from, target, r.object()));
            if (r.end() == Waiter.End.FAILED) {
                failed.put(t.getKey(), r.failure());
                break; // the run stops here: the other claims are read as they are
            }
            if (r.end() == Waiter.End.STOPPED || r.end() == Waiter.End.WENT_ON) {
                break;
            }
        }
        for (Map.Entry<String, String> t : targets.entrySet()) {
            out.computeIfAbsent(t.getKey(), k -> read(ns, k, before.getOrDefault(k, ""), Quantity.parse(t.getValue())));
        }
        return new Awaited(out, failed);
    }

    /** Every claim of the run read now, in the run's order. */
    java.util.List<ClaimStatus> readAll(String ns, Map<String, String> targets, Map<String, String> before) {
        java.util.List<ClaimStatus> out = new java.util.ArrayList<>();
        for (Map.Entry<String, String> t : targets.entrySet()) {
            out.add(read(ns, t.getKey(), before.getOrDefault(t.getKey(), ""), Quantity.parse(t.getValue())));
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

    private static Optional<String> conditionMessage(ObjectNode claim, String... types) {
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
