package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
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
final class ClaimGrower {
    private static final int CONFLICT_RETRIES = 5;

    /** Where one claim stands after the wait. */
    public enum State { GROWN, FILE_SYSTEM_PENDING, INFEASIBLE, WAITING, GONE }

    public record ClaimStatus(String name, String from, String to, State state, String capacity, String message) {}

    private final Cluster cluster;
    private final AwaitObject await;
    private final Events events;
    private final Progress progress;
    private final Checkpoint checkpoint;

    ClaimGrower(Cluster cluster, AwaitObject await, Events events, Progress progress, Checkpoint checkpoint) {
        this.cluster = cluster;
        this.await = await;
        this.events = events;
        this.progress = progress;
        this.checkpoint = checkpoint;
    }

    /** Patches every claim below its target; answers each claim's request before (name → request, "" if gone). */
    Map<String, String> grow(String ns, String sts, Map<String, String> targets, Consumer<String> patched) {
        Map<String, String> before = new LinkedHashMap<>();
        for (Map.Entry<String, String> t : targets.entrySet()) {
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
            Quantity request = Quantity.parseOrNull(Objects.text(current.get(), "spec", "resources", "requests", "storage"));
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
                Quantity now = Quantity.parseOrNull(Objects.text(after, "spec", "resources", "requests", "storage"));
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

    /** Follows each claim by watch until it settles or {@code deadline}. */
    Map<String, ClaimStatus> await(String ns, Map<String, String> targets, Map<String, String> before, Instant deadline) {
        Map<String, ClaimStatus> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> t : targets.entrySet()) {
            Quantity target = Quantity.parse(t.getValue());
            AwaitObject.Outcome o = await.until(WatchedKind.PERSISTENT_VOLUME_CLAIM, ns, t.getKey(),
                    c -> c.isEmpty() || settled(c.get(), target), deadline);
            out.put(t.getKey(), status(t.getKey(), before.getOrDefault(t.getKey(), ""), target, o.object()));
        }
        return out;
    }

    /** Where the claim stands now (a fresh GET). */
    ClaimStatus read(String ns, String claim, String from, Quantity target) {
        return status(claim, from, target, cluster.getClaim(ns, claim));
    }

    static boolean settled(ObjectNode claim, Quantity target) {
        State s = stateOf(claim, target);
        return s != State.WAITING;
    }

    static State stateOf(ObjectNode claim, Quantity target) {
        Quantity capacity = Quantity.parseOrNull(Objects.text(claim, "status", "capacity", "storage"));
        if (capacity != null && !capacity.isLessThan(target)) {
            return State.GROWN;
        }
        String allocation = Objects.text(claim, "status", "allocatedResourceStatuses", "storage");
        if (allocation.endsWith("Infeasible")) {
            return State.INFEASIBLE;
        }
        if (Objects.hasCondition(claim, "FileSystemResizePending")) {
            return State.FILE_SYSTEM_PENDING;
        }
        return State.WAITING;
    }

    private static ClaimStatus status(String name, String from, Quantity target, Optional<ObjectNode> claim) {
        if (claim.isEmpty()) {
            return new ClaimStatus(name, from, target.toString(), State.GONE, "", "the claim no longer exists");
        }
        ObjectNode c = claim.get();
        State s = stateOf(c, target);
        String message = switch (s) {
            case INFEASIBLE -> conditionMessage(c, "ControllerResizeError", "NodeResizeError")
                    .orElse("the resizer reports " + Objects.text(c, "status", "allocatedResourceStatuses", "storage"));
            case FILE_SYSTEM_PENDING -> "the volume grew; the kubelet grows its file system, while the pod runs if the CSI"
                    + " driver expands online, else when the pod restarts";
            case WAITING -> "capacity " + Objects.text(c, "status", "capacity", "storage") + " has not reached " + target
                    + (Objects.hasCondition(c, "Resizing") ? " (Resizing)" : "");
            default -> "";
        };
        return new ClaimStatus(name, from, target.toString(), s, Objects.text(c, "status", "capacity", "storage"), message);
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
