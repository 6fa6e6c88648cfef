package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.CopyPodLog;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Quantity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A run read back from the objects now, never from what was asked nor from a condition alone: each claim the decision
 * grows, read as the wait reads it ({@link ClaimGrower#status}), each claim it copies with its copy pod, and after the run its {@link Verification} (the pods'
 * UIDs and controllers, the claims' capacity, the file systems still waiting).
 */
public final class ReadBack {
    private final Cluster cluster;

    public ReadBack(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Every claim the decision grows, read now; one that cannot be read is left out of this reading. */
    public List<ClaimGrower.ClaimStatus> claims(Decision d) {
        List<ClaimGrower.ClaimStatus> out = new ArrayList<>();
        for (ClaimState c : d.claimsToGrow()) {
            Optional<ObjectNode> claim;
            try {
                claim = cluster.getClaim(d.namespace(), c.name());
            } catch (RuntimeException e) {
                continue;
            }
            out.add(ClaimGrower.status(c.name(), "", c.target(), claim));
        }
        return out;
    }

    /** Where a claim to copy stands, read from the objects: its own claim, and the copy pod of it. */
    public enum CopyStage {
        /** still on its old volume, below the target, no copy pod of it */
        TO_COPY("to copy"),
        /** still on its old volume while its copy pod runs */
        COPYING("copying"),
        /** deleted after its copy was proven, or created again and not yet Bound at the target: on its way to its new volume */
        REBINDING("re-binding to its new volume"),
        /** Bound at the target: on its new volume */
        COPIED("copied");

        private final String label;

        CopyStage(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** One claim to copy as read now: its request and capacity ("" when it is gone) and where that leaves it. */
    public record CopyStatus(String name, String request, String capacity, String target, CopyStage stage) {}

    /**
     * Every claim the decision copies, read now, with its copy pod: the claim's name stays while it moves to a new
     * volume, so where it stands is read from the claim and the pod, not from the run's own account. One that cannot
     * be read is left out of this reading.
     */
    public List<CopyStatus> copies(Decision d) {
        // each claim read beside the others: the wizard reads them after each of the copy's writes, on the run's thread
        List<java.util.concurrent.Callable<CopyStatus>> reads = d.claimsToCopy().stream()
                .<java.util.concurrent.Callable<CopyStatus>>map(c -> () -> copyStatus(c, cluster.getClaim(d.namespace(), c.name()),
                        () -> cluster.getPod(d.namespace(), CopyPodLog.podName(c.name())).isPresent()))
                .toList();
        // one unreadable now is left out of this reading: the table keeps the rest
        return Together.settled(reads).stream().filter(r -> r.failure() == null).map(Together.Settled::value).toList();
    }

    static CopyStatus copyStatus(ClaimState c, Optional<ObjectNode> claim, java.util.function.BooleanSupplier copyPodStands) {
        String target = c.target().toString();
        if (claim.isEmpty()) {
            return new CopyStatus(c.name(), "", "", target, CopyStage.REBINDING);
        }
        ObjectNode o = claim.get();
        Quantity request = Quantity.parseOrNull(o.at("/spec/resources/requests/storage").asText(""));
        Quantity capacity = Quantity.parseOrNull(o.at("/status/capacity/storage").asText(""));
        CopyStage stage;
        if (request != null && request.compareTo(c.target()) >= 0) {
            boolean bound = "Bound".equals(o.at("/status/phase").asText()) && capacity != null && capacity.compareTo(c.target()) >= 0;
            stage = bound ? CopyStage.COPIED : CopyStage.REBINDING;
        } else {
            stage = copyPodStands.getAsBoolean() ? CopyStage.COPYING : CopyStage.TO_COPY;
        }
        return new CopyStatus(c.name(), o.at("/spec/resources/requests/storage").asText(""), o.at("/status/capacity/storage").asText(""),
                target, stage);
    }

    /**
     * The run's result with the pods and claims read back now.
     *
     * @param oldUid the StatefulSet's UID when it was decided on
     * @param restarted pods restarted for their file systems after the run (a new UID then is the point)
     */
    public Verification verification(String oldUid, Set<String> restarted, StatefulSetResult r) {
        String ns = r.namespace();
        String newUid = cluster.getStatefulSet(ns, r.name()).map(Objects::uid).orElse("");
        List<Verification.Pod> pods = new ArrayList<>();
        for (StatefulSetResult.PodResult p : r.pods()) {
            Optional<ObjectNode> pod = cluster.getPod(ns, p.name());
            pods.add(new Verification.Pod(p.name(), p.uidBefore(), pod.map(Objects::uid).orElse(""),
                    pod.map(Objects::controllerUid).orElse(""), p.restarted() || restarted.contains(p.name())));
        }
        List<Verification.Claim> claims = new ArrayList<>();
        for (StatefulSetResult.ClaimResult c : r.claims()) {
            claims.add(claim(r, c));
        }
        pods.sort(Comparator.comparingInt((Verification.Pod p) -> ordinal(p.name())).thenComparing(Verification.Pod::name));
        claims.sort(Comparator.comparingInt((Verification.Claim c) -> ordinal(c.name())).thenComparing(Verification.Claim::name));
        // a claim's waiting file system is said on its own line, read now; the run's sentence about it may be stale
        List<String> warnings = r.warnings().stream().filter(w -> !(w.startsWith("claim ") && w.contains(" waits for a file system resize"))).toList();
        return new Verification(r.outcome().label(), r.succeeded(), r.reason(), r.detail(), oldUid, r.claimsOnly() ? oldUid : newUid,
                pods, claims, warnings);
    }

    private Verification.Claim claim(StatefulSetResult r, StatefulSetResult.ClaimResult c) {
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
        return new Verification.Claim(c.name(), c.from(), c.to(), capacity, st == ClaimGrower.State.GROWN,
                st == ClaimGrower.State.FILE_SYSTEM_PENDING, pod, fs);
    }

    private static int ordinal(String name) {
        try {
            return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }
}
