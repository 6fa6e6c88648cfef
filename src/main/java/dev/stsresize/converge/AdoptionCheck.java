package dev.stsresize.converge;

import dev.stsresize.plan.Metadata;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.WatchedKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Step 8: adoption verified from the objects, never from a condition: the StatefulSet's
 * observedGeneration caught up; every pod present before the delete has the same UID and a
 * controller reference to the new UID; every ControllerRevision is controlled by it; under
 * whenDeleted Delete every claim has its owner reference back. Replicas and readyReplicas as they are.
 */
final class AdoptionCheck {
    /** The verdict, each pod's UIDs, in words; and each pod as last seen (name → empty when gone), for the file systems. */
    record Result(boolean adopted, List<StatefulSetResult.PodResult> pods, String detail, Map<String, Optional<ObjectNode>> seen) {
        Result(boolean adopted, List<StatefulSetResult.PodResult> pods, String detail) {
            this(adopted, pods, detail, Map.of());
        }
    }

    private final Cluster cluster;
    private final Waiter waiter;

    AdoptionCheck(Cluster cluster, Waiter waiter) {
        this.cluster = cluster;
        this.waiter = waiter;
    }

    /** {@link #verify(ObjectNode, Dependents, String, Instant, List)} with nothing sent alongside. */
    Result verify(ObjectNode applied, Dependents before, String oldRevision, Instant deadline) {
        return verify(applied, before, oldRevision, deadline, List.of());
    }

    /**
     * @param oldRevision the revision the pods ran under before ({@code status.currentRevision} of the
     *     live object): when the re-applied object's revision differs, the pod template changed and a
     *     replaced pod is the rolling update the plan announced, reported, not a failure
     * @param alongside requests sent with the reads that follow the generation's wait (the phase, the file systems'
     *     first reads): none of them changes what the adoption reads
     */
    Result verify(ObjectNode applied, Dependents before, String oldRevision, Instant deadline, List<Callable<Object>> alongside) {
        String ns = Objects.namespace(applied);
        String name = Objects.name(applied);
        String uid = Objects.uid(applied);
        long generation = applied.path("metadata").path("generation").asLong(1);
        List<String> problems = new ArrayList<>();

        // watched from the apply's answer: no GET of its own
        AwaitObject.Outcome sts = waiter.until(Waiter.Wait.of(ns, name, Phase.VERIFY, "StatefulSet " + name + " to observe generation "
                + generation, WatchedKind.STATEFUL_SET, name, s -> s.isEmpty() || s.get().path("status").path("observedGeneration")
                .asLong(0) >= generation, deadline).withSlow(s -> LateControllers.statefulSetController("StatefulSet " + name + " not observed"))
                .from(applied)).outcome();
        if (sts.object().isEmpty() || !uid.equals(Objects.uid(sts.object().get()))) {
            Together.all(alongside);
            return new Result(false, List.of(), "the re-applied StatefulSet " + ns + "/" + name + " (UID " + uid + ") is gone again");
        }
        if (!sts.reached()) {
            problems.add("observedGeneration " + sts.object().get().path("status").path("observedGeneration").asLong(0)
                    + " has not caught up with generation " + generation);
        }

        // every pod, the revisions, the claims and the StatefulSet read together; a wait only for what is not there yet
        String selector = Objects.selector(applied.path("spec").path("selector"));
        boolean claimsOwned = "Delete".equals(Metadata.textOrEmpty(applied, "spec", "persistentVolumeClaimRetentionPolicy", "whenDeleted"));
        List<String> podNames = List.copyOf(before.pods().keySet());
        List<String> claimNames = claimsOwned ? List.copyOf(before.claims().keySet()) : List.of();
        List<Callable<Object>> reads = new ArrayList<>(alongside);
        podNames.forEach(p -> reads.add(() -> cluster.getPod(ns, p)));
        claimNames.forEach(c -> reads.add(() -> cluster.getClaim(ns, c)));
        reads.add(() -> unadoptedRevisions(ns, selector, uid));
        reads.add(() -> cluster.getStatefulSet(ns, name));
        List<Object> read = Together.all(reads).subList(alongside.size(), reads.size());
        @SuppressWarnings("unchecked")
        Optional<ObjectNode> present = (Optional<ObjectNode>) read.get(read.size() - 1);
        if (present.isEmpty() || !uid.equals(Objects.uid(present.get()))) {
            // the wait may have ended on the apply's answer itself: the StatefulSet as read now decides
            return new Result(false, List.of(), "the re-applied StatefulSet " + ns + "/" + name + " (UID " + uid + ") is gone again");
        }
        boolean waited = false;

        List<StatefulSetResult.PodResult> pods = new ArrayList<>();
        Map<String, Optional<ObjectNode>> seen = new java.util.LinkedHashMap<>();
        for (int i = 0; i < podNames.size(); i++) {
            String pod = podNames.get(i);
            String podUid = before.pods().get(pod);
            java.util.function.Predicate<Optional<ObjectNode>> adopted = x -> x.isEmpty() || !podUid.equals(Objects.uid(x.get()))
                    || uid.equals(Objects.controllerUid(x.get()));
            AwaitObject.Outcome o = known(read.get(i));
            if (!adopted.test(o.object())) {
                waited = true;
                o = waiter.until(Waiter.Wait.of(ns, name, Phase.VERIFY, "pod " + pod + " to be adopted", WatchedKind.POD, pod, adopted,
                        deadline).withSlow(x -> LateControllers.statefulSetController("pod " + pod + " not adopted"))
                        .from(o.object().orElse(null))).outcome();
            }
            if (o.object().isEmpty() && rolling(ns, name, oldRevision)) {
                // the announced rolling update deletes each pod before it re-creates it: absent between the
                // two is the roll at work, not a loss; wait for the pod the new StatefulSet makes
                waited = true;
                o = waiter.until(ns, name, Phase.VERIFY, "pod " + pod + " to be re-created by the rolling update", WatchedKind.POD,
                        pod, x -> x.isPresent() && uid.equals(Objects.controllerUid(x.get())),
                        deadline);
            }
            String after = o.object().map(Objects::uid).orElse("");
            seen.put(pod, o.object());
            pods.add(new StatefulSetResult.PodResult(pod, podUid, after));
            if (o.object().isEmpty()) {
                problems.add("pod " + pod + " is gone");
            } else if (!podUid.equals(after)) {
                if (!rolling(ns, name, oldRevision)) {
                    problems.add("pod " + pod + " was replaced (UID " + podUid + " -> " + after + ")");
                }
            } else if (!uid.equals(Objects.controllerUid(o.object().get()))) {
                problems.add("pod " + pod + " is not adopted (no controller reference to " + uid + ")");
            }
        }

        @SuppressWarnings("unchecked")
        List<String> orphanRevisions = (List<String>) read.get(podNames.size() + claimNames.size());
        if (!orphanRevisions.isEmpty()) {
            // the controller adopts revisions in the same sync as pods; wait for its next status write, re-list then
            waited = true;
            waiter.until(ns, name, Phase.VERIFY, "the ControllerRevisions to be adopted", WatchedKind.STATEFUL_SET, name,
                    s -> unadoptedRevisions(ns, selector, uid).isEmpty(), deadline);
            orphanRevisions = unadoptedRevisions(ns, selector, uid);
            if (!orphanRevisions.isEmpty()) {
                problems.add("ControllerRevision(s) " + String.join(", ", orphanRevisions) + " not adopted");
            }
        }

        for (int i = 0; i < claimNames.size(); i++) {
            String claim = claimNames.get(i);
            java.util.function.Predicate<Optional<ObjectNode>> owned = x -> x.isEmpty() || Objects.ownedBy(x.get(), uid);
            AwaitObject.Outcome c = known(read.get(podNames.size() + i));
            if (!owned.test(c.object())) {
                waited = true;
                c = waiter.until(Waiter.Wait.of(ns, name, Phase.VERIFY, "claim " + claim + " to be owned by the StatefulSet",
                        WatchedKind.PERSISTENT_VOLUME_CLAIM, claim, owned, deadline)
                        .withSlow(x -> LateControllers.statefulSetController("claim " + claim + " not owned"))
                        .from(c.object().orElse(null))).outcome();
            } else {
                c = new AwaitObject.Outcome(c.object(), true);
            }
            if (c.object().isEmpty()) {
                problems.add("claim " + claim + " is GONE");
            } else if (!c.reached()) {
                problems.add("claim " + claim + " has no owner reference to " + uid + " yet (whenDeleted: Delete)");
            }
        }

        // the counts as they are at the end: read again only when a wait came after the reads above
        @SuppressWarnings("unchecked")
        Optional<ObjectNode> now = waited ? cluster.getStatefulSet(ns, name) : (Optional<ObjectNode>) read.get(read.size() - 1);
        String counts = now.map(s -> "replicas " + s.path("spec").path("replicas").asInt(0) + ", readyReplicas "
                + s.path("status").path("readyReplicas").asInt(0) + ", currentRevision "
                + s.path("status").path("currentRevision").asText("?")).orElse("StatefulSet gone");
        if (problems.isEmpty()) {
            return new Result(true, pods, "adopted by UID " + uid + ": " + pods.size() + " pod(s) with unchanged UIDs, "
                    + "revisions adopted; " + counts, seen);
        }
        return new Result(false, pods, "adoption NOT verified for StatefulSet " + ns + "/" + name + " (UID " + uid + "): "
                + String.join("; ", problems) + "; " + counts, seen);
    }

    /** An object read in a batch, as a wait's outcome that has not reached anything yet. */
    @SuppressWarnings("unchecked")
    private static AwaitObject.Outcome known(Object read) {
        return new AwaitObject.Outcome((Optional<ObjectNode>) read, false);
    }

    /** The re-applied StatefulSet runs another revision than the pods had: its rolling update replaces them. */
    private boolean rolling(String ns, String name, String oldRevision) {
        String update = cluster.getStatefulSet(ns, name).map(s -> Metadata.textOrEmpty(s, "status", "updateRevision")).orElse("");
        return !oldRevision.isEmpty() && !update.isEmpty() && !update.equals(oldRevision);
    }

    private List<String> unadoptedRevisions(String ns, String selector, String uid) {
        List<String> out = new ArrayList<>();
        for (ObjectNode r : cluster.listControllerRevisions(ns, selector).items()) {
            String controller = Objects.controllerUid(r);
            if (controller.isEmpty()) {
                out.add(Objects.name(r));
            }
        }
        return out;
    }
}
