package dev.stsresize.tui;

import java.util.List;

/**
 * What the converge of one StatefulSet verified, built from the Converger's result and the objects
 * read back after it, never from what was asked: each pod's UID before and after and the owner it
 * names now, each claim's request before, target and capacity. {@code converged} is the Converger's
 * outcome; {@link #problems} says what is not so when it is false.
 *
 * @param outcome the Result document's outcome word (converged, claims-grown, failed, …)
 * @param reason the reason word for failed or blocked ("" otherwise)
 * @param detail the Converger's own sentence
 * @param newUid the StatefulSet's UID now ("" when it is absent)
 * @param oldUid the UID it had when decided on
 */
public record Summary(String outcome, boolean converged, String reason, String detail, String oldUid, String newUid,
        List<PodCheck> pods, List<ClaimCheck> claims, List<String> warnings) {

    /**
     * One pod: same UID before and after, and a controller reference to the new StatefulSet;
     * {@code restarted} when the operator had it evicted for its file system resize (a new UID then is the point).
     */
    public record PodCheck(String name, String uidBefore, String uidAfter, String owner, boolean restarted) {
        public boolean sameUid() {
            return !uidBefore.isEmpty() && uidBefore.equals(uidAfter);
        }
    }

    /**
     * One claim: request before, target, capacity read after; {@code pod} mounts it when its file system waits;
     * {@code fileSystem} the run's word for its file system ({@code grown}, {@code waits-for-restart}, {@code pending},
     * {@code no-pod}, {@code unknown}; "" when the run did not follow it).
     */
    public record ClaimCheck(String name, String from, String to, String capacity, boolean atTarget, boolean fileSystemPending,
            String pod, String fileSystem) {
        public ClaimCheck(String name, String from, String to, String capacity, boolean atTarget, boolean fileSystemPending, String pod) {
            this(name, from, to, capacity, atTarget, fileSystemPending, pod, "");
        }
    }

    public Summary {
        reason = reason == null ? "" : reason;
        pods = List.copyOf(pods);
        claims = List.copyOf(claims);
        warnings = List.copyOf(warnings);
    }

    public boolean ownedByNew(PodCheck p) {
        return !newUid.isEmpty() && newUid.equals(p.owner());
    }

    /**
     * Whether the pods can write to the new space now: true when every file system the run followed is grown,
     * false when one is not, null when the run followed none.
     */
    public Boolean spaceUsable() {
        List<ClaimCheck> followed = claims.stream().filter(c -> !c.fileSystem().isEmpty()).toList();
        // a claim no pod mounts keeps no pod waiting: it grows when one mounts it
        return followed.isEmpty() ? null : followed.stream().allMatch(c -> c.fileSystem().equals("grown") || c.fileSystem().equals("no-pod"));
    }

    /** Claims whose file system waits for a restart of a pod that mounts it: what the restart offer is about. */
    public List<ClaimCheck> restartable() {
        return claims.stream().filter(c -> c.fileSystemPending() && !c.pod().isEmpty()).toList();
    }

    /** What was not verified, one phrase each; empty when every check held. */
    public List<String> problems() {
        List<String> out = new java.util.ArrayList<>();
        if (!converged) {
            out.add(outcome + (reason.isEmpty() ? "" : " (" + reason + ")") + ": " + detail);
        }
        for (PodCheck p : pods) {
            if (p.uidAfter().isEmpty()) {
                out.add("pod " + p.name() + " is gone");
            } else if (!p.sameUid() && !p.restarted()) {
                out.add("pod " + p.name() + " was replaced");
            } else if (!newUid.isEmpty() && !ownedByNew(p)) {
                out.add("pod " + p.name() + " is not owned by " + newUid);
            }
        }
        return out;
    }
}
