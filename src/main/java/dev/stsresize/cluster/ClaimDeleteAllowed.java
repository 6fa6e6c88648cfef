package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * The proof the port asks before it deletes a claim ({@link Cluster#deleteClaim}): made only by {@link #check},
 * from (a) a copy verified by its own pod ({@link CopyVerified}, which only {@link CopyPodLog#verify} makes) whose
 * source or destination the claim is, and (b) the claim's PersistentVolume re-read by {@link #check} itself, at that
 * moment, with reclaim policy {@code Retain} and still bound to this claim (its claimRef names the claim's UID):
 * deleting the claim then leaves the PV Released, its data kept. The two claims a copy lets go: the source (the
 * original, whose PV keeps the old data) and the destination (the run's temporary claim, whose PV is then re-pointed
 * at the original's name). The delete carries the claim's UID as a precondition, so a claim re-created meanwhile is
 * not touched.
 */
public final class ClaimDeleteAllowed implements ClaimDeleteCheck {
    private final String namespace;
    private final String claim;
    private final String uid;
    private final String volume;
    private final CopyVerified copy;
    private final boolean destination;

    private ClaimDeleteAllowed(String namespace, String claim, String uid, String volume, CopyVerified copy, boolean destination) {
        this.namespace = namespace;
        this.claim = claim;
        this.uid = uid;
        this.volume = volume;
        this.copy = copy;
        this.destination = destination;
    }

    /**
     * Reads {@code claim}'s PV again through {@code cluster} and allows the delete of {@code claim} (as the caller
     * read it: its UID is the delete's precondition) only when {@code copy} is the verified copy of that claim or to
     * that claim (its destination) and the PV is {@code Retain}, not terminating, and bound to that claim's UID.
     */
    public static ClaimDeleteCheck check(Cluster cluster, CopyVerified copy, ObjectNode claim) {
        Objects.requireNonNull(copy, "a claim is deleted only after its copy was verified");
        JsonNode meta = claim.path("metadata");
        String namespace = meta.path("namespace").asText("");
        String name = meta.path("name").asText("");
        String uid = meta.path("uid").asText("");
        String volume = claim.path("spec").path("volumeName").asText("");
        String which = "claim " + namespace + "/" + name;
        boolean isDestination = copy.namespace().equals(namespace) && copy.destination().equals(name);
        if (!copy.namespace().equals(namespace) || !(copy.claim().equals(name) || isDestination)) {
            return new ClaimDeleteCheck.Refused(which + " is not deleted: the copy verified is of " + copy.namespace() + "/" + copy.claim()
                    + " to " + copy.destination() + ", neither of them this claim");
        }
        if (uid.isEmpty() || volume.isEmpty()) {
            return new ClaimDeleteCheck.Refused(which + " is not deleted: it has no UID or is bound to no PersistentVolume");
        }
        Optional<ObjectNode> read = cluster.getPersistentVolume(volume);
        if (read.isEmpty()) {
            return new ClaimDeleteCheck.Refused(which + " is not deleted: its PersistentVolume " + volume + " is not found");
        }
        JsonNode pv = read.get();
        String policy = pv.path("spec").path("persistentVolumeReclaimPolicy").asText("");
        if (!"Retain".equals(policy)) {
            return new ClaimDeleteCheck.Refused(which + " is not deleted: its PersistentVolume " + volume + " has reclaim policy "
                    + (policy.isEmpty() ? "(none)" : policy) + ", not Retain, so deleting the claim could delete its data;"
                    + " set it with: kubectl patch pv " + volume + " --type merge -p '{\"spec\":{\"persistentVolumeReclaimPolicy\":\"Retain\"}}'");
        }
        if (pv.path("metadata").hasNonNull("deletionTimestamp")) {
            return new ClaimDeleteCheck.Refused(which + " is not deleted: its PersistentVolume " + volume + " is being deleted");
        }
        JsonNode ref = pv.path("spec").path("claimRef");
        if (!namespace.equals(ref.path("namespace").asText()) || !name.equals(ref.path("name").asText())
                || !uid.equals(ref.path("uid").asText())) {
            return new ClaimDeleteCheck.Refused(which + " is not deleted: its PersistentVolume " + volume + " is not bound to it"
                    + " (claimRef " + ref.path("namespace").asText("") + "/" + ref.path("name").asText("") + ")");
        }
        return new ClaimDeleteAllowed(namespace, name, uid, volume, copy, isDestination);
    }

    public String namespace() {
        return namespace;
    }

    public String claim() {
        return claim;
    }

    /** The claim's UID: the delete's precondition. */
    public String uid() {
        return uid;
    }

    /** The PV kept, Released with Retain, once the claim is gone. */
    public String volume() {
        return volume;
    }

    public CopyVerified copy() {
        return copy;
    }

    /** Whether the claim is the copy's destination (the run's temporary claim), not the claim copied. */
    public boolean destination() {
        return destination;
    }

    @Override
    public String toString() {
        return "delete of " + (destination ? "the copy's destination claim " : "claim ") + namespace + "/" + claim + " (uid " + uid
                + ") allowed: " + copy + "; PV " + volume + " Retain";
    }
}
