package dev.stsresize.tui.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.ClaimGrower;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Quantity;
import dev.stsresize.tui.ClaimProgress;
import dev.stsresize.tui.Summary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the wizard shows of a run, read back from the objects now, never from what was asked: each claim
 * the decision grows, read as the converge reads it ({@link ClaimGrower#status}), and the end screen's
 * {@link Summary} (the pods' UIDs and owners, the claims' capacity, the file systems still waiting).
 */
final class ReadBack {
    private final Cluster cluster;

    ReadBack(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Every claim the decision grows, read now; one that cannot be read is left out of this reading. */
    List<ClaimProgress> claims(Decision d) {
        List<ClaimProgress> out = new ArrayList<>();
        for (ClaimState c : d.claimsToGrow()) {
            Optional<ObjectNode> claim;
            try {
                claim = cluster.getClaim(d.namespace(), c.name());
            } catch (RuntimeException e) {
                continue;
            }
            out.add(progressOf(ClaimGrower.status(c.name(), "", c.target(), claim)));
        }
        return out;
    }

    /** A claim as the converge reads it, in the wizard's words. */
    static ClaimProgress progressOf(ClaimGrower.ClaimStatus c) {
        ClaimProgress.State state = switch (c.state()) {
            case REQUESTED_LESS -> ClaimProgress.State.REQUESTED_LESS;
            case WAITING -> ClaimProgress.State.RESIZING;
            case FILE_SYSTEM_PENDING -> ClaimProgress.State.FILE_SYSTEM_PENDING;
            case GROWN -> ClaimProgress.State.GROWN;
            case INFEASIBLE -> ClaimProgress.State.INFEASIBLE;
            case GONE -> ClaimProgress.State.GONE;
        };
        String message = state == ClaimProgress.State.INFEASIBLE || state == ClaimProgress.State.GONE ? c.message() : "";
        return new ClaimProgress(c.name(), c.request(), c.capacity(), c.to(), c.conditions(), state, message, c.latest());
    }

    /**
     * The run's result with the pods and claims read back now.
     *
     * @param oldUid the StatefulSet's UID when it was decided on
     * @param restarted pods the wizard had restarted for their file systems (a new UID then is the point)
     */
    Summary summary(String oldUid, Set<String> restarted, StatefulSetResult r) {
        String ns = r.namespace();
        String newUid = cluster.getStatefulSet(ns, r.name()).map(ReadBack::uid).orElse("");
        List<Summary.PodCheck> pods = new ArrayList<>();
        for (StatefulSetResult.PodResult p : r.pods()) {
            Optional<ObjectNode> pod = cluster.getPod(ns, p.name());
            pods.add(new Summary.PodCheck(p.name(), p.uidBefore(), pod.map(ReadBack::uid).orElse(""),
                    pod.map(ReadBack::controllerUid).orElse(""), p.restarted() || restarted.contains(p.name())));
        }
        List<Summary.ClaimCheck> claims = new ArrayList<>();
        for (StatefulSetResult.ClaimResult c : r.claims()) {
            claims.add(claimCheck(r, c));
        }
        pods.sort(Comparator.comparingInt((Summary.PodCheck p) -> ordinal(p.name())).thenComparing(Summary.PodCheck::name));
        claims.sort(Comparator.comparingInt((Summary.ClaimCheck c) -> ordinal(c.name())).thenComparing(Summary.ClaimCheck::name));
        // a claim's waiting file system is said on its own line, read now; the machine's sentence about it may be stale
        List<String> warnings = r.warnings().stream().filter(w -> !(w.startsWith("claim ") && w.contains(" waits for a file system resize"))).toList();
        return new Summary(r.outcome().label(), r.succeeded(), r.reason(), r.detail(), oldUid,
                r.claimsOnly() ? oldUid : newUid, pods, claims, warnings);
    }

    private Summary.ClaimCheck claimCheck(StatefulSetResult r, StatefulSetResult.ClaimResult c) {
        Optional<ObjectNode> claim = cluster.getClaim(r.namespace(), c.name());
        Quantity target = Quantity.parseOrNull(c.to());
        ClaimGrower.State st = target == null ? ClaimGrower.State.GONE : ClaimGrower.status(c.name(), c.from(), target, claim).state();
        String capacity = claim.map(o -> o.path("status").path("capacity").path("storage").asText("")).orElse("");
        String pod = "";
        if (st == ClaimGrower.State.FILE_SYSTEM_PENDING) {
            String candidate = r.name() + c.name().substring(c.name().lastIndexOf('-'));
            pod = cluster.getPod(r.namespace(), candidate).filter(p -> p.path("spec").path("volumes").findValuesAsText("claimName")
                    .contains(c.name())).map(p -> candidate).orElse("");
        }
        // the run's word for the file system, unless the claim since says the kubelet grew it
        String fs = c.fileSystem() == null ? "" : st == ClaimGrower.State.GROWN && c.fileSystem().keepsAPodWaiting()
                && c.fileSystemBytes() < 0 ? "grown" : c.fileSystem().label();
        return new Summary.ClaimCheck(c.name(), c.from(), c.to(), capacity, st == ClaimGrower.State.GROWN,
                st == ClaimGrower.State.FILE_SYSTEM_PENDING, pod, fs);
    }

    static String uid(JsonNode o) {
        return o == null ? "" : o.path("metadata").path("uid").asText("");
    }

    private static int ordinal(String name) {
        try {
            return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    private static String controllerUid(JsonNode o) {
        for (JsonNode ref : o.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ref.path("uid").asText("");
            }
        }
        return "";
    }
}
