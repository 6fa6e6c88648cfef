package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ClaimDeleteAllowed;
import dev.stsresize.cluster.ClaimDeleteCheck;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.CopyCheck;
import dev.stsresize.cluster.CopyPodLog;
import dev.stsresize.cluster.CopyVerified;
import dev.stsresize.cluster.WatchedKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The copy migration's writes (docs/design.md, "The copy migration"), each computed from what it reads now, as the
 * StatefulSet controller computes its next action: a run resumed at any point finds each claim where a crash left it
 * and goes on from there. The order that keeps the data, per claim:
 * <ol>
 *   <li>the old volume set to Retain (recorded first) before any pod goes down;</li>
 *   <li>the temporary claim at the target and the copy pod (old claim read-only); the pod's own manifests compared
 *       ({@link CopyPodLog#verify}): without that proof nothing is deleted;</li>
 *   <li>the new volume set to Retain and recorded; the copy pod deleted <em>before</em> the temporary claim (a pod, even
 *       Completed, holds its claims' {@code kubernetes.io/pvc-protection} finalizer); the temporary claim deleted (its
 *       volume goes Released, the copy kept); the original claim deleted (its volume Released, kept by Retain) — each
 *       claim delete only with a {@link ClaimDeleteAllowed} made from the proof and the volume re-read as Retain;</li>
 *   <li>the new volume's claimRef re-pointed to the claim's own name (never removed: an Available volume without one is
 *       bound to any claim of its class), the claim created again on it by {@code volumeName}, and the wait for the
 *       <em>claim</em> to be Bound (the volume may show Bound first).</li>
 * </ol>
 */
final class CopySteps {
    /** How often an eviction refused by a PodDisruptionBudget (429) is asked again. */
    static final Duration EVICTION_RETRY = Duration.ofSeconds(5);

    private final Cluster cluster;
    private final Waiter waiter;
    private final Progress progress;
    private final Checkpoint checkpoint;
    private final Clock clock;

    CopySteps(Cluster cluster, Waiter waiter, Progress progress, Checkpoint checkpoint, Clock clock) {
        this.cluster = cluster;
        this.waiter = waiter;
        this.progress = progress;
        this.checkpoint = checkpoint;
        this.clock = clock;
    }

    /** The copy cannot go on safely: nothing more is written; the message names what was found and what to do. */
    static final class CopyStopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CopyStopped(String message) {
            super(message);
        }
    }

    // ---- retain -----------------------------------------------------------------------------------

    /**
     * Every volume to copy set to Retain, its claim's UID, the volume and the policy it had recorded first: from here on,
     * deleting a claim keeps its data on a Released volume.
     */
    void retainOld(Steps.Run run) {
        Record r = run.record();
        String ns = r.namespace();
        CopyProgress copy = r.copy();
        // each claim and then its volume, every claim at once: two round trips whatever their number
        List<java.util.concurrent.Callable<CopyProgress.CopiedClaim>> reads = new ArrayList<>();
        for (CopyProgress.CopiedClaim c : copy.claims().values()) {
            if (c.oldVolume().isEmpty()) { // else recorded by an earlier process: the volume is re-read below
                reads.add(() -> withOld(ns, c));
            }
        }
        for (CopyProgress.CopiedClaim c : Together.all(reads)) {
            copy = copy.with(c);
        }
        run.lock.update(r.withCopy(copy));
        for (CopyProgress.CopiedClaim c : copy.claims().values()) {
            if (!c.newVolume().isEmpty() && claimMoved(ns, c)) {
                continue; // this claim already lives on its new volume
            }
            setPolicy(ns, r.name(), Phase.RETAIN, c.oldVolume(), "Retain", "old volume of " + c.claim());
        }
    }

    /** The claim with its volume, the claim's UID and the volume's reclaim policy as read now. */
    private CopyProgress.CopiedClaim withOld(String ns, CopyProgress.CopiedClaim c) {
        ObjectNode claim = cluster.getClaim(ns, c.claim()).orElseThrow(() -> new CopyStopped("claim " + ns + "/" + c.claim()
                + " is gone: someone deleted it before its copy began; nothing was deleted by this run"));
        String volume = claim.path("spec").path("volumeName").asText("");
        if (volume.isEmpty() || !"Bound".equals(claim.path("status").path("phase").asText())) {
            throw new CopyStopped("claim " + ns + "/" + c.claim() + " is not Bound to a volume: a copy reads a bound claim");
        }
        ObjectNode pv = cluster.getPersistentVolume(volume).orElseThrow(() -> new CopyStopped("PersistentVolume " + volume
                + " of claim " + ns + "/" + c.claim() + " is not found"));
        return c.withOld(Objects.uid(claim), volume, policy(pv));
    }

    private boolean claimMoved(String ns, CopyProgress.CopiedClaim c) {
        return cluster.getClaim(ns, c.claim()).map(o -> !Objects.uid(o).equals(c.uid())).orElse(true);
    }

    /** Sets a PV's reclaim policy unless it has it, at the resourceVersion read (409: read again, once). */
    private void setPolicy(String ns, String sts, Phase phase, String volume, String policy, String what) {
        for (int attempt = 0; attempt < 3; attempt++) {
            ObjectNode pv = cluster.getPersistentVolume(volume).orElseThrow(() -> new CopyStopped("PersistentVolume " + volume
                    + " (" + what + ") is not found: it was deleted outside this run"));
            if (policy.equals(policy(pv))) {
                return;
            }
            String rv = pv.path("metadata").path("resourceVersion").asText("");
            try {
                cluster.patchVolumeReclaimPolicy(volume, policy, rv, false);
            } catch (ClusterException e) {
                if (e.isConflict()) {
                    continue;
                }
                throw e;
            }
            progress.on(ProgressEvent.write(ns, sts, phase, "PersistentVolume " + volume + " (" + what + "): reclaim policy "
                    + policy, new Write.VolumeReclaimPolicy(ns, volume, policy, rv)));
            checkpoint.afterWrite("reclaim policy " + policy + " " + volume);
            return;
        }
        throw new CopyStopped("PersistentVolume " + volume + " kept changing while its reclaim policy was set: run again");
    }

    private static String policy(JsonNode pv) {
        return pv.path("spec").path("persistentVolumeReclaimPolicy").asText("");
    }

    // ---- evict ------------------------------------------------------------------------------------

    /**
     * The pod of {@code ordinal} evicted while the StatefulSet is absent (nothing re-creates it), asked again while its
     * PodDisruptionBudget refuses (429), until {@code deadline}; then followed until it is gone.
     */
    /** @return whether the pod was found running here (false: gone already, taken down by an earlier process or scaled away) */
    boolean evict(Steps.Run run, int ordinal, Instant deadline) {
        String ns = run.namespace();
        String sts = run.name();
        String pod = sts + "-" + ordinal;
        Optional<ObjectNode> before = cluster.getPod(ns, pod);
        if (before.isEmpty()) {
            return false; // scaled away, or evicted by an earlier process
        }
        while (true) {
            try {
                cluster.evictPod(ns, pod, false);
                break;
            } catch (ClusterException e) {
                if (e.isNotFound()) {
                    return true;
                }
                if (e.code() != 429) {
                    throw e;
                }
                if (!clock.instant().plus(EVICTION_RETRY).isBefore(deadline)) {
                    throw new CopyStopped("evicting pod " + ns + "/" + pod + " is refused by its PodDisruptionBudget (" + e.getMessage()
                            + ") until --timeout ran out; nothing of its claims was copied or deleted. The StatefulSet is re-applied:"
                            + " run again when the budget allows one pod down");
                }
                progress.on(ProgressEvent.info(ns, sts, Phase.EVICT, "pod " + pod + ": its PodDisruptionBudget does not allow it"
                        + " down now (" + e.getMessage() + "); asking again in " + EVICTION_RETRY.toSeconds() + "s"));
                // the pause is a wait on the pod itself: it ends early when the pod goes, or at once on a stop
                if (waiter.until(ns, sts, Phase.EVICT, "pod " + pod + "'s budget", WatchedKind.POD, pod, Optional::isEmpty,
                        clock.instant().plus(EVICTION_RETRY)).reached()) {
                    return true;
                }
                if (waiter.stop().requested()) {
                    throw new CopyStopped("stopped while pod " + ns + "/" + pod + "'s budget refused its eviction; nothing was copied");
                }
            }
        }
        progress.on(ProgressEvent.write(ns, sts, Phase.EVICT, "pod " + pod + " evicted: it is down until its claims are copied and"
                + " the StatefulSet re-creates it", new Write.Eviction(ns, pod)));
        checkpoint.afterWrite("evict " + pod);
        String uid = Objects.uid(before.get());
        // nothing is copied while the pod may still write: it is gone only once the kubelet has unmounted its volumes
        gone("pod " + ns + "/" + pod, WatchedKind.POD, ns, sts, Phase.EVICT, pod, uid, deadline,
                "its containers or volumes are not released on its node (kubectl describe pod " + pod + " -n " + ns
                        + "); nothing was copied");
        return true;
    }

    /**
     * Waits until the object {@code name} of UID {@code uid} is gone; a stop or the deadline ends the copy here, saying
     * {@code why} when the object is still there.
     */
    private void gone(String what, WatchedKind kind, String ns, String sts, Phase phase, String name, String uid, Instant deadline,
            String why) {
        Waiter.Result r = waiter.until(Waiter.Wait.of(ns, sts, phase, what + " to go", kind, name,
                o -> o.isEmpty() || !Objects.uid(o.get()).equals(uid), deadline));
        if (r.reached()) {
            return;
        }
        if (waiter.stop().requested()) {
            throw new CopyStopped("stopped while waiting for " + what + " to go");
        }
        throw new CopyStopped(what + " is still there after --timeout: " + why);
    }

    // ---- copy ---------------------------------------------------------------------------------------

    /**
     * Each claim of {@code ordinal} copied and verified, the proofs kept in {@code run}; a claim already on its new
     * volume, or whose original is gone (a resumed run past its delete), is left to {@link #rebind}.
     */
    void copy(Steps.Run run, int ordinal, Instant deadline) {
        Record r = run.record();
        for (CopyProgress.CopiedClaim c : r.copy().claimsOf(ordinal)) {
            Optional<ObjectNode> original = cluster.getClaim(r.namespace(), c.claim());
            if (original.isEmpty() || !Objects.uid(original.get()).equals(c.uid())
                    || original.get().path("metadata").hasNonNull("deletionTimestamp")) {
                continue;
            }
            if (!run.proofs.containsKey(c.claim())) {
                copyOne(run, run.record().copy().claims().get(c.claim()), original.get(), deadline);
            }
        }
    }

    /**
     * One claim: the proof taken from a copy pod that already ended (a resumed run), else the temporary claim and a
     * copy pod made (again) and followed to its end. A new volume recorded whose proof is gone with its pod and
     * temporary claim is given up — kept with Retain and listed — and the copy starts again.
     */
    private void copyOne(Steps.Run run, CopyProgress.CopiedClaim c, ObjectNode original, Instant deadline) {
        String ns = run.namespace();
        String sts = run.name();
        String temp = temporaryName(c.claim());
        String podName = CopyPodLog.podName(c.claim());
        Optional<ObjectNode> pod = cluster.getPod(ns, podName);
        Optional<ObjectNode> tempClaim = cluster.getClaim(ns, temp);
        if (pod.isEmpty() && tempClaim.isEmpty() && !c.newVolume().isEmpty()) {
            String given = c.newVolume();
            setPolicy(ns, sts, Phase.COPY, given, "Retain", "a copy of " + c.claim() + " whose proof was lost");
            run.lock.update(run.record().withCopy(run.record().copy().with(c.abandonNew())));
            progress.on(ProgressEvent.warn(ns, sts, Phase.COPY, "claim " + c.claim() + ": the copy on PersistentVolume " + given
                    + " can no longer be proven (its copy pod and temporary claim are gone); it is kept (Retain), listed at the"
                    + " end, and the claim is copied again"));
            c = run.record().copy().claims().get(c.claim());
        }
        if (pod.isPresent() && finished(pod.get())) {
            if (proveFrom(run, c, pod.get()) instanceof CopyVerified) {
                return;
            }
            deletePod(run, pod.get());
            pod = Optional.empty();
        }
        if (tempClaim.isEmpty()) {
            ObjectNode t = temporaryClaim(ns, temp, c, original, run.record().copy(), run.record().claimTargets().get(c.claim()));
            createClaim(ns, sts, Phase.COPY, t, "temporary claim " + temp + " at " + run.record().claimTargets().get(c.claim())
                    + " for the copy of " + c.claim());
        }
        if (pod.isEmpty()) {
            ObjectNode spec = CopyPodSpec.of(ns, c.claim(), temp, run.record().copy().image());
            try {
                pod = Optional.of(cluster.createCopyPod(spec, false));
            } catch (ClusterException e) {
                if (e.code() != 409) {
                    throw e;
                }
                pod = cluster.getPod(ns, podName);
            }
            progress.on(ProgressEvent.write(ns, sts, Phase.COPY, "copy pod " + podName + ": " + c.claim() + " read-only at /src, "
                    + temp + " at /dst", new Write.CopyPodCreate(ns, podName)));
            checkpoint.afterWrite("copy pod " + podName);
        }
        String uid = pod.map(Objects::uid).orElse("");
        Waiter.Result ended = waiter.until(Waiter.Wait.of(ns, sts, Phase.COPY, "the copy of " + c.claim(), WatchedKind.POD, podName,
                o -> o.isPresent() && (finished(o.get()) || !Objects.uid(o.get()).equals(uid)), deadline)
                .withDetail(o -> copyProgress(ns, podName, o)));
        if (!ended.reached()) {
            if (waiter.stop().requested()) {
                throw new CopyStopped("stopped while claim " + c.claim() + " was being copied (pod " + podName + " may finish);"
                        + " nothing was deleted");
            }
            throw new CopyStopped("the copy of claim " + ns + "/" + c.claim() + " did not end before --timeout (pod " + podName
                    + "); nothing was deleted. Look at it with: kubectl logs " + podName + " -n " + ns);
        }
        if (proveFrom(run, c, ended.object().orElseThrow()) instanceof CopyCheck.Unverified why) {
            throw new CopyStopped("the copy of claim " + ns + "/" + c.claim() + " is not proven: " + why.reason() + ". Nothing was"
                    + " deleted: the claim, its volume and its data are as they were; the copy pod " + podName + " and the temporary"
                    + " claim " + temp + " are left for you to read (kubectl logs " + podName + " -n " + ns + ")");
        }
    }

    /** Reads the ended pod's log once; keeps the proof and records the new volume when it verifies. */
    private CopyCheck proveFrom(Steps.Run run, CopyProgress.CopiedClaim c, ObjectNode pod) {
        String ns = run.namespace();
        CopyCheck check = CopyPodLog.verify(ns, c.claim(), pod, cluster.podLog(ns, Objects.name(pod)));
        if (!(check instanceof CopyVerified proof)) {
            return check;
        }
        String temp = temporaryName(c.claim());
        ObjectNode t = cluster.getClaim(ns, temp).orElseThrow(() -> new CopyStopped("temporary claim " + ns + "/" + temp
                + " is gone though its copy pod ended: the copy's volume cannot be found; nothing was deleted"));
        String volume = t.path("spec").path("volumeName").asText("");
        ObjectNode pv = cluster.getPersistentVolume(volume).orElseThrow(() -> new CopyStopped("the volume of temporary claim "
                + ns + "/" + temp + " is not found; nothing was deleted"));
        run.proofs.put(c.claim(), proof);
        CopyProgress copy = run.record().copy();
        run.lock.update(run.record().withCopy(copy.with(copy.claims().get(c.claim()).withNew(volume, policy(pv)))));
        progress.on(ProgressEvent.info(ns, run.name(), Phase.COPY, "claim " + c.claim() + " copied to PersistentVolume " + volume
                + " and verified: " + proof.files() + " files, " + proof.bytes() + " bytes, the same owners, modes, links and sha256"
                + " on both sides"));
        return proof;
    }

    /**
     * How much of a running copy pod's log a tick reads: its last progress line is among the last few (copy.sh prints
     * one per stretch of files), and the whole log grows with the volume's files. The proof reads the whole log.
     */
    static final int PROGRESS_LINES = 20;

    private String copyProgress(String ns, String pod, Optional<ObjectNode> seen) {
        if (seen.isEmpty()) {
            return "";
        }
        String phase = seen.get().path("status").path("phase").asText("Pending");
        if (!"Running".equals(phase)) {
            return "pod " + phase + notStarted(seen.get());
        }
        try {
            String last = "";
            for (String line : cluster.podLogTail(ns, pod, PROGRESS_LINES).text().split("\n")) {
                if (line.startsWith("stsresize-copy: progress ") || line.startsWith("stsresize-copy: start ")) {
                    last = line.substring("stsresize-copy: ".length());
                }
            }
            return last;
        } catch (RuntimeException e) {
            return "";
        }
    }

    /** The kubelet's reasons a container waits that mean its image cannot be had (kubelet/images/types.go). */
    private static final java.util.Set<String> IMAGE_REASONS = java.util.Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
            "ErrImageNeverPull");

    /**
     * Why a copy pod has not started, in the kubelet's and the scheduler's words (a container's waiting reason and
     * message, an unschedulable pod): while it waits, its pod is down, so the wait says why and what ends it. The
     * words are the cluster's: one line, shown as the copy's own log lines are ({@link CopyPodLog#shown}).
     */
    static String notStarted(JsonNode pod) {
        for (JsonNode s : pod.at("/status/containerStatuses")) {
            JsonNode waiting = s.at("/state/waiting");
            String reason = waiting.path("reason").asText("");
            if (!reason.isEmpty() && !"ContainerCreating".equals(reason)) {
                String message = oneLine(waiting.path("message").asText(""));
                return ": " + oneLine(reason) + (message.isEmpty() ? "" : " (" + message + ")") + (IMAGE_REASONS.contains(reason)
                        ? "; the copy image (--copy-image) must be one every node can pull: a stop now brings the pod back on its"
                                + " own claims, nothing deleted" : "");
            }
        }
        for (JsonNode c : pod.at("/status/conditions")) {
            // the scheduler's PodScheduled=False (pkg/scheduler/schedule_one.go, handleSchedulingFailure) with its reason
            if ("PodScheduled".equals(c.path("type").asText()) && "False".equals(c.path("status").asText())) {
                String message = oneLine(c.path("message").asText(""));
                return ": not scheduled" + (message.isEmpty() ? "" : " (" + message + ")");
            }
        }
        return "";
    }

    private static String oneLine(String text) {
        return CopyPodLog.shown(text.replaceAll("\\s+", " ").strip());
    }

    static boolean finished(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** The temporary claim's name: the copy pod's, a claim of its own kind. */
    static String temporaryName(String claim) {
        return CopyPodLog.podName(claim);
    }

    private static ObjectNode temporaryClaim(String ns, String name, CopyProgress.CopiedClaim c, ObjectNode original, CopyProgress copy,
            String target) {
        ObjectNode t = Objects.MAPPER.createObjectNode();
        t.put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
        ObjectNode meta = t.putObject("metadata");
        meta.put("name", name).put("namespace", ns);
        meta.putObject("labels").put(CopyPodLog.MANAGED_BY_LABEL, CopyPodLog.MANAGED_BY).put(CopyPodLog.COPY_OF_LABEL,
                CopyPodLog.copyOfLabel(c.claim()));
        ObjectNode spec = t.putObject("spec");
        spec.set("accessModes", original.path("spec").path("accessModes").deepCopy());
        String cls = copy.copyClass().isEmpty() ? original.path("spec").path("storageClassName").asText("") : copy.copyClass();
        if (!cls.isEmpty()) {
            spec.put("storageClassName", cls);
        }
        spec.put("volumeMode", original.path("spec").path("volumeMode").asText("Filesystem"));
        spec.putObject("resources").putObject("requests").put("storage", target);
        return t;
    }

    private void createClaim(String ns, String sts, Phase phase, ObjectNode claim, String words) {
        String name = Objects.name(claim);
        try {
            cluster.createClaim(claim, false);
        } catch (ClusterException e) {
            if (e.code() != 409) {
                throw e;
            }
            return; // made by an earlier process of this run: the caller reads what is there
        }
        progress.on(ProgressEvent.write(ns, sts, phase, words, new Write.ClaimCreate(ns, name)));
        checkpoint.afterWrite("create claim " + name);
    }

    private void deletePod(Steps.Run run, ObjectNode pod) {
        String ns = run.namespace();
        String name = Objects.name(pod);
        cluster.deleteCopyPod(ns, name, Objects.uid(pod));
        progress.on(ProgressEvent.write(ns, run.name(), Phase.REBIND, "copy pod " + name + " deleted", new Write.CopyPodDelete(ns, name,
                Objects.uid(pod))));
        checkpoint.afterWrite("delete copy pod " + name);
        gone("copy pod " + ns + "/" + name, WatchedKind.POD, ns, run.name(), Phase.REBIND, name, Objects.uid(pod), run.deadline,
                "its volumes are not released on its node (kubectl describe pod " + name + " -n " + ns + "); the claims it holds"
                        + " cannot be deleted until it is gone");
    }

    // ---- rebind -------------------------------------------------------------------------------------

    /**
     * Each claim of {@code ordinal} moved to its new volume under its own name. Where the original claim still stands,
     * the proof of this process is needed (else the copy is proven or made again first); past the original's delete,
     * the recorded new volume is checked against the cluster before the claim is created on it.
     */
    void rebind(Steps.Run run, int ordinal, Instant deadline) {
        for (CopyProgress.CopiedClaim recorded : run.record().copy().claimsOf(ordinal)) {
            rebindOne(run, recorded.claim(), deadline);
        }
    }

    private void rebindOne(Steps.Run run, String claimName, Instant deadline) {
        String ns = run.namespace();
        String sts = run.name();
        CopyProgress.CopiedClaim c = run.record().copy().claims().get(claimName);
        Optional<ObjectNode> original = cluster.getClaim(ns, claimName);
        boolean originalStands = original.isPresent() && Objects.uid(original.get()).equals(c.uid());
        if (originalStands && !original.get().path("metadata").hasNonNull("deletionTimestamp")) {
            if (!run.proofs.containsKey(claimName)) {
                copyOne(run, c, original.get(), deadline);
                c = run.record().copy().claims().get(claimName);
            }
            CopyVerified proof = run.proofs.get(claimName);
            setPolicy(ns, sts, Phase.REBIND, c.newVolume(), "Retain", "the copy of " + claimName);
            cluster.getPod(ns, CopyPodLog.podName(claimName)).ifPresent(p -> deletePod(run, p));
            String temp = temporaryName(claimName);
            Optional<ObjectNode> t = cluster.getClaim(ns, temp);
            if (t.isPresent()) {
                deleteClaim(run, proof, t.get(), "temporary claim " + temp + " deleted: PersistentVolume " + c.newVolume()
                        + " keeps the copy (Retain)");
            }
            deleteClaim(run, proof, cluster.getClaim(ns, claimName).orElseThrow(), "claim " + claimName + " deleted: PersistentVolume "
                    + c.oldVolume() + " keeps its data (Released, Retain)");
        } else if (original.isPresent() && !originalStands) {
            String on = original.get().path("spec").path("volumeName").asText("");
            if (!on.equals(c.newVolume()) || c.newVolume().isEmpty()) {
                throw new CopyStopped("claim " + ns + "/" + claimName + " was created again by someone else"
                        + (on.isEmpty() ? "" : ", on PersistentVolume " + on) + ", not on the copy's volume " + c.newVolume()
                        + "; nothing more is written. The old data is on PersistentVolume " + c.oldVolume() + " (Retain)");
            }
            awaitBound(run, claimName, c.newVolume(), deadline);
            return;
        }
        if (c.newVolume().isEmpty()) {
            throw new CopyStopped("claim " + ns + "/" + claimName + " is gone and the record names no volume its copy went to; its"
                    + " data is on PersistentVolume " + c.oldVolume() + " (Retain). Nothing more is written");
        }
        Optional<ObjectNode> stillThere = cluster.getClaim(ns, claimName);
        if (stillThere.isPresent()) {
            gone("claim " + ns + "/" + claimName, WatchedKind.PERSISTENT_VOLUME_CLAIM, ns, sts, Phase.REBIND, claimName,
                    Objects.uid(stillThere.get()), deadline, "a pod still uses it (its kubernetes.io/pvc-protection finalizer stays"
                            + " until no pod does: kubectl describe pvc " + claimName + " -n " + ns + "); its data is safe on"
                            + " PersistentVolume " + c.oldVolume() + " (Retain), the copy on " + c.newVolume());
        }
        pointAtClaim(run, c);
        createClaim(ns, sts, Phase.REBIND, rebound(run.record(), c), "claim " + claimName + " created again on PersistentVolume "
                + c.newVolume());
        awaitBound(run, claimName, c.newVolume(), deadline);
    }

    private void deleteClaim(Steps.Run run, CopyVerified proof, ObjectNode claim, String words) {
        String ns = run.namespace();
        ClaimDeleteCheck check = ClaimDeleteAllowed.check(cluster, proof, claim);
        if (check instanceof ClaimDeleteCheck.Refused refused) {
            throw new CopyStopped(refused.reason());
        }
        ClaimDeleteAllowed allowed = (ClaimDeleteAllowed) check;
        cluster.deleteClaim(allowed);
        progress.on(ProgressEvent.write(ns, run.name(), Phase.REBIND, words, new Write.ClaimDelete(ns, allowed.claim(), allowed.uid())));
        checkpoint.afterWrite("delete claim " + allowed.claim());
    }

    /**
     * The new volume's claimRef pointed at the claim's own name. The volume must be the one the record names and still
     * refer to this run's temporary claim or to that name: a volume bound elsewhere since is not taken.
     */
    private void pointAtClaim(Steps.Run run, CopyProgress.CopiedClaim c) {
        String ns = run.namespace();
        for (int attempt = 0; attempt < 3; attempt++) {
            ObjectNode pv = cluster.getPersistentVolume(c.newVolume()).orElseThrow(() -> new CopyStopped("PersistentVolume "
                    + c.newVolume() + " holding the copy of " + ns + "/" + c.claim() + " is not found"));
            JsonNode ref = pv.path("spec").path("claimRef");
            String refName = ref.path("name").asText("");
            if (!ns.equals(ref.path("namespace").asText("")) || !(refName.equals(temporaryName(c.claim())) || refName.equals(c.claim()))) {
                throw new CopyStopped("PersistentVolume " + c.newVolume() + " no longer refers to the copy of " + ns + "/" + c.claim()
                        + " (claimRef " + ref.path("namespace").asText("") + "/" + refName + "); it is not taken. The claim's data is"
                        + " on PersistentVolume " + c.oldVolume() + " (Retain)");
            }
            if (refName.equals(c.claim())) {
                return; // pointed at the claim's name already (or bound to the claim re-created on it)
            }
            String rv = pv.path("metadata").path("resourceVersion").asText("");
            try {
                cluster.pointVolumeAtClaim(c.newVolume(), ns, c.claim(), rv, false);
            } catch (ClusterException e) {
                if (e.isConflict()) {
                    continue;
                }
                throw e;
            }
            progress.on(ProgressEvent.write(ns, run.name(), Phase.REBIND, "PersistentVolume " + c.newVolume() + " now refers to claim "
                    + c.claim(), new Write.ClaimRefRepoint(ns, c.newVolume(), c.claim(), rv)));
            checkpoint.afterWrite("re-point " + c.newVolume());
            return;
        }
        throw new CopyStopped("PersistentVolume " + c.newVolume() + " kept changing while it was re-pointed: run again");
    }

    /**
     * The claim as the StatefulSet controller would make it from the template re-applied (its labels: the template's and
     * the selector's), at the target, on the new volume by name.
     */
    static ObjectNode rebound(Record r, CopyProgress.CopiedClaim c) {
        String template = c.claim().substring(0, c.claim().length() - ("-" + r.name() + "-" + c.ordinal()).length());
        JsonNode tpl = null;
        for (JsonNode t : r.reapply().path("spec").path("volumeClaimTemplates")) {
            if (template.equals(t.path("metadata").path("name").asText())) {
                tpl = t;
            }
        }
        if (tpl == null) {
            throw new CopyStopped("claim " + c.claim() + " matches no claim template of " + r.namespace() + "/" + r.name());
        }
        ObjectNode claim = Objects.MAPPER.createObjectNode();
        claim.put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
        ObjectNode meta = claim.putObject("metadata");
        meta.put("name", c.claim()).put("namespace", r.namespace());
        ObjectNode labels = meta.putObject("labels");
        tpl.path("metadata").path("labels").fields().forEachRemaining(e -> labels.set(e.getKey(), e.getValue()));
        r.reapply().path("spec").path("selector").path("matchLabels").fields().forEachRemaining(e -> labels.set(e.getKey(), e.getValue()));
        if (tpl.path("metadata").path("annotations").isObject()) {
            meta.set("annotations", tpl.path("metadata").path("annotations").deepCopy());
        }
        ObjectNode spec = tpl.path("spec").deepCopy();
        spec.remove("volumeName");
        spec.remove("dataSource");
        spec.remove("dataSourceRef");
        Objects.child(Objects.child(spec, "resources"), "requests").put("storage", r.claimTargets().get(c.claim()));
        spec.put("volumeName", c.newVolume());
        claim.set("spec", spec);
        return claim;
    }

    private void awaitBound(Steps.Run run, String claim, String volume, Instant deadline) {
        String ns = run.namespace();
        boolean bound = waiter.until(ns, run.name(), Phase.REBIND, "claim " + claim + " to be Bound to " + volume,
                WatchedKind.PERSISTENT_VOLUME_CLAIM, claim, o -> o.isPresent() && "Bound".equals(o.get().path("status").path("phase")
                        .asText()) && volume.equals(o.get().path("spec").path("volumeName").asText()), deadline).reached();
        if (!bound) {
            throw new CopyStopped("claim " + ns + "/" + claim + " is not Bound to PersistentVolume " + volume + " before --timeout; the"
                    + " StatefulSet is not re-applied until it is. Run `kubectl stsresize resume " + ns + "/" + run.name() + "`");
        }
        progress.on(ProgressEvent.info(ns, run.name(), Phase.REBIND, "claim " + claim + " Bound to PersistentVolume " + volume));
    }

    // ---- after the re-apply -------------------------------------------------------------------------

    /** The pod of {@code ordinal}, re-created by the StatefulSet {@code stsUid}, Ready on its new volumes. */
    boolean podReady(Steps.Run run, int ordinal, String stsUid, Instant deadline) {
        String ns = run.namespace();
        String pod = run.name() + "-" + ordinal;
        return waiter.until(ns, run.name(), Phase.POD_READY, "pod " + pod + " to be Ready", WatchedKind.POD, pod,
                o -> o.isPresent() && Objects.ownedBy(o.get(), stsUid) && ready(o.get()), deadline).reached();
    }

    static boolean ready(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if ("Ready".equals(c.path("type").asText()) && "True".equals(c.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    /** Every new volume given its class's reclaim policy back (Retain kept where the class said so, or said nothing). */
    void reclaim(Steps.Run run) {
        for (CopyProgress.CopiedClaim c : run.record().copy().claims().values()) {
            if (!c.newVolume().isEmpty() && !c.newPolicy().isEmpty() && !"Retain".equals(c.newPolicy())) {
                setPolicy(run.namespace(), run.name(), Phase.RECLAIM, c.newVolume(), c.newPolicy(), "now claim " + c.claim() + "'s");
            }
        }
    }
}
