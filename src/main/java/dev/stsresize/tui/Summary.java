package dev.stsresize.tui;

import dev.stsresize.converge.Verification;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The end screen's data: what the converge of one StatefulSet verified, read back from the objects after it by the
 * converge ({@link Verification}, built by {@code converge.ReadBack}), never from what was asked. Plain data for the
 * views; what it bears out or not is {@link Verification}'s, asked through {@link #verification}.
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
            return new Verification.Pod(name, uidBefore, uidAfter, owner, restarted).sameUid();
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

    /** The end screen of a run as the converge read it back. */
    public static Summary of(Verification v) {
        return new Summary(v.outcome(), v.converged(), v.reason(), v.detail(), v.oldUid(), v.newUid(),
                v.pods().stream().map(p -> new PodCheck(p.name(), p.uidBefore(), p.uidAfter(), p.owner(), p.restarted())).toList(),
                v.claims().stream().map(c -> new ClaimCheck(c.name(), c.from(), c.to(), c.capacity(), c.atTarget(), c.fileSystemPending(),
                        c.pod(), c.fileSystem())).toList(), v.warnings());
    }

    /** The same facts as the converge's: what they bear out is said there, once. */
    public Verification verification() {
        return new Verification(outcome, converged, reason, detail, oldUid, newUid,
                pods.stream().map(p -> new Verification.Pod(p.name(), p.uidBefore(), p.uidAfter(), p.owner(), p.restarted())).toList(),
                claims.stream().map(c -> new Verification.Claim(c.name(), c.from(), c.to(), c.capacity(), c.atTarget(),
                        c.fileSystemPending(), c.pod(), c.fileSystem())).toList(), warnings);
    }

    public boolean ownedByNew(PodCheck p) {
        return !newUid.isEmpty() && newUid.equals(p.owner());
    }

    /** Whether the pods can write to the new space now ({@link Verification#spaceUsable}). */
    public Boolean spaceUsable() {
        return verification().spaceUsable();
    }

    /** Claims whose file system waits for a restart of a pod that mounts it: what the restart offer is about. */
    public List<ClaimCheck> restartable() {
        List<Verification.Claim> read = verification().claims();
        return IntStream.range(0, claims.size()).filter(i -> read.get(i).restartable()).mapToObj(claims::get).toList();
    }

    /** What was not verified, one phrase each; empty when every check held ({@link Verification#problems}). */
    public List<String> problems() {
        return verification().problems();
    }
}
