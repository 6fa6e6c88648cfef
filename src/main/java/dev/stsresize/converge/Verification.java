package dev.stsresize.converge;

import java.util.ArrayList;
import java.util.List;

/**
 * What a run verified, read back from the objects after it ({@link ReadBack}), never from what was asked nor from a
 * condition alone: each pod's UID before and after and the controller it names now, each claim's request before,
 * target and capacity now, and where its file system stands. {@code converged} is the run's own result; {@link
 * #problems} says what the objects contradict. Every front end that shows the end of a run reads it from here.
 *
 * @param outcome the Result document's outcome word (converged, claims-grown, failed, …)
 * @param reason the reason word for failed or blocked ("" otherwise)
 * @param detail the run's own sentence
 * @param oldUid the StatefulSet's UID when it was decided on
 * @param newUid its UID now ("" when it is absent; the old one where the run only grew claims)
 */
public record Verification(String outcome, boolean converged, String reason, String detail, String oldUid, String newUid,
        List<Pod> pods, List<Claim> claims, List<String> warnings) {

    /** One pod: its UID before and after, the controller it names now; {@code restarted} when evicted for its file system. */
    public record Pod(String name, String uidBefore, String uidAfter, String owner, boolean restarted) {
        public boolean sameUid() {
            return !uidBefore.isEmpty() && uidBefore.equals(uidAfter);
        }
    }

    /**
     * One claim: its request before, target and capacity read now; {@code pod} mounts it when its file system waits;
     * {@code fileSystem} the run's word for its file system ("" when the run did not follow it).
     */
    public record Claim(String name, String from, String to, String capacity, boolean atTarget, boolean fileSystemPending, String pod,
            String fileSystem) {
        /** A claim whose file system waits for a restart of a pod that mounts it: what the restart offer is about. */
        public boolean restartable() {
            return fileSystemPending && !pod.isEmpty();
        }
    }

    public Verification {
        reason = reason == null ? "" : reason;
        pods = List.copyOf(pods);
        claims = List.copyOf(claims);
        warnings = List.copyOf(warnings);
    }

    public boolean ownedByNew(Pod p) {
        return !newUid.isEmpty() && newUid.equals(p.owner());
    }

    /**
     * Whether the pods can write to the new space now: true when every file system the run followed is grown,
     * false when one is not, null when the run followed none.
     */
    public Boolean spaceUsable() {
        List<Claim> followed = claims.stream().filter(c -> !c.fileSystem().isEmpty()).toList();
        // a claim no pod mounts keeps no pod waiting: it grows when one mounts it
        return followed.isEmpty() ? null : followed.stream().allMatch(c -> c.fileSystem().equals("grown") || c.fileSystem().equals("no-pod"));
    }

    /** What the objects do not bear out, one phrase each; empty when every check held. */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (!converged) {
            out.add(outcome + (reason.isEmpty() ? "" : " (" + reason + ")") + ": " + detail);
        }
        for (Pod p : pods) {
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

    /** Whether the run did what it set out to, as the objects read back say. */
    public boolean verified() {
        return converged && problems().isEmpty();
    }

    /**
     * The run's end in one sentence: what the objects bear out, or what they do not. A copy re-creates every pod on
     * purpose: what is verified then is that each stands under the new StatefulSet, each claim at its target.
     */
    public String sentence(boolean copied) {
        if (!verified()) {
            return String.join("; ", problems());
        }
        long atTarget = claims.stream().filter(Claim::atTarget).count();
        String capacity = atTarget + " of " + claims.size() + " claim(s) at capacity";
        if (copied) {
            return "verified from the objects read back: " + pods.size() + " pod(s) re-created on their new volumes, each naming the"
                    + " new StatefulSet as controller; " + capacity;
        }
        long restarted = pods.stream().filter(Pod::restarted).count();
        Boolean usable = spaceUsable();
        return "verified from the objects read back: " + pods.size() + " pod(s) name the new StatefulSet as controller"
                + (restarted == 0 ? " and kept their UIDs" : ", " + restarted + " restarted for their file systems") + "; " + capacity
                + "; " + (Boolean.TRUE.equals(usable) ? "the pods can write to the new space"
                        : Boolean.FALSE.equals(usable) ? "the pods cannot use all of the new space yet" : "file systems not followed");
    }
}
