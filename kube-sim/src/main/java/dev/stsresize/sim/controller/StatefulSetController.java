package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.store.StoreEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * The StatefulSet controller (pkg/controller/statefulset/stateful_set.go and stateful_set_control.go):
 * adopts orphaned pods and ControllerRevisions that match the selector (after re-reading the set's
 * UID, as RecheckDeletionTimestamp does), keeps one revision per pod template, creates claims then
 * pods per podManagementPolicy and spec.ordinals.start, sets claim owner references per the
 * retention policy, deletes scaled-away pods highest ordinal first, rolls pods to a new template
 * highest ordinal first down to the partition, and writes status. A set being deleted gets its
 * status written and nothing else ("If the StatefulSet is being deleted, don't do anything other
 * than updating status").
 */
final class StatefulSetController extends Controller {
    static final String COMPONENT = "statefulset-controller";
    private final Api api;

    StatefulSetController(Context ctx) {
        super(ctx);
        this.api = ctx.api("kube-controller-manager");
    }

    @Override
    String name() {
        return COMPONENT;
    }

    @Override
    List<Key> keysFor(StoreEvent e) {
        Kinds k = ctx.kinds();
        JsonNode o = e.object();
        if (e.resource().equals(k.statefulSets())) {
            return List.of(new Key(ObjectMeta.ns(o), ObjectMeta.name(o)));
        }
        if (e.resource().equals(k.pods()) || e.resource().equals(k.revisions())) {
            JsonNode ref = ObjectMeta.controllerRef(o);
            if (ref != null) {
                return "StatefulSet".equals(ref.path("kind").asText()) ? List.of(new Key(ObjectMeta.ns(o), ref.path("name").asText())) : List.of();
            }
            // an orphan: every set whose selector matches may adopt it
            List<Key> keys = new ArrayList<>();
            for (ObjectNode set : api.list(k.statefulSets(), ObjectMeta.ns(o))) {
                if (ObjectMeta.selects(set.path("spec").path("selector"), o.path("metadata").path("labels"))) {
                    keys.add(new Key(ObjectMeta.ns(set), ObjectMeta.name(set)));
                }
            }
            return keys;
        }
        if (e.resource().equals(k.claims())) {
            JsonNode ref = ObjectMeta.controllerRef(o);
            List<Key> keys = new ArrayList<>();
            if (ref != null && "StatefulSet".equals(ref.path("kind").asText())) {
                keys.add(new Key(ObjectMeta.ns(o), ref.path("name").asText()));
            }
            if (e.type() == StoreEvent.Type.DELETED) {
                // a set waiting to create a pod whose claim was being deleted
                api.list(k.statefulSets(), ObjectMeta.ns(o)).forEach(s -> keys.add(new Key(ObjectMeta.ns(s), ObjectMeta.name(s))));
            }
            return keys;
        }
        return List.of();
    }

    @Override
    List<Key> initialKeys() {
        return api.list(ctx.kinds().statefulSets(), "").stream().map(s -> new Key(ObjectMeta.ns(s), ObjectMeta.name(s))).toList();
    }

    @Override
    void sync(Key key) {
        ObjectNode set = api.get(ctx.kinds().statefulSets(), key.namespace(), key.name());
        if (set == null) {
            return;
        }
        Adopter adopter = new Adopter(set);
        List<ObjectNode> revisions = owned(set, api.list(ctx.kinds().revisions(), key.namespace()), adopter, ctx.kinds().revisions().kind());
        List<ObjectNode> pods = owned(set, api.list(ctx.kinds().pods(), key.namespace()), adopter, "Pod");
        int collisions = set.path("status").path("collisionCount").asInt(0);
        RevisionPair rp = ObjectMeta.deleting(set) ? existingRevisions(set, revisions) : revisions(set, revisions, collisions);
        collisions = rp.collisionCount();
        if (!ObjectMeta.deleting(set)) {
            reconcilePods(set, pods, rp);
            pods = owned(set, api.list(ctx.kinds().pods(), key.namespace()), adopter, "Pod");
            truncateHistory(set, revisions, pods, rp);
        }
        writeStatus(set, pods, rp, collisions);
    }

    // ---- adoption (ControllerRefManager.ClaimPods / ClaimControllerRevisions) ----

    /** Re-reads the set once before the first adoption: a set deleted or recreated meanwhile adopts nothing. */
    private final class Adopter {
        private final ObjectNode set;
        private Boolean allowed;

        Adopter(ObjectNode set) {
            this.set = set;
        }

        boolean canAdopt() {
            if (allowed == null) {
                ObjectNode fresh = api.get(ctx.kinds().statefulSets(), ObjectMeta.ns(set), ObjectMeta.name(set));
                allowed = fresh != null && ObjectMeta.uid(fresh).equals(ObjectMeta.uid(set)) && !ObjectMeta.deleting(fresh);
            }
            return allowed;
        }
    }

    private List<ObjectNode> owned(ObjectNode set, List<ObjectNode> candidates, Adopter adopter, String kind) {
        List<ObjectNode> out = new ArrayList<>();
        String uid = ObjectMeta.uid(set);
        JsonNode selector = set.path("spec").path("selector");
        for (ObjectNode o : candidates) {
            JsonNode ref = ObjectMeta.controllerRef(o);
            boolean matches = ObjectMeta.selects(selector, o.path("metadata").path("labels"));
            boolean member = !kind.equals("Pod") || StatefulSetPods.ordinal(set, o) >= 0;
            if (ref != null) {
                if (ref.path("uid").asText().equals(uid)) {
                    out.add(o);
                }
                continue;
            }
            if (matches && member && !ObjectMeta.deleting(o) && !ObjectMeta.deleting(set) && adopter.canAdopt()) {
                ObjectMeta.addOwnerRef(o, ObjectMeta.controllerRefTo(set));
                out.add(api.update(kind.equals("Pod") ? ctx.kinds().pods() : ctx.kinds().revisions(), o));
            }
        }
        return out;
    }

    // ---- revisions (getStatefulSetRevisions) ----

    private record RevisionPair(ObjectNode current, ObjectNode update, int collisionCount) {}

    private RevisionPair existingRevisions(ObjectNode set, List<ObjectNode> revisions) {
        ObjectNode update = byName(revisions, set.path("status").path("updateRevision").asText());
        ObjectNode current = byName(revisions, set.path("status").path("currentRevision").asText());
        int collisions = set.path("status").path("collisionCount").asInt(0);
        return new RevisionPair(current != null ? current : update, update, collisions);
    }

    private RevisionPair revisions(ObjectNode set, List<ObjectNode> revisions, int collisions) {
        revisions.sort(Comparator.comparingLong(r -> r.path("revision").asLong()));
        long next = revisions.isEmpty() ? 1 : revisions.get(revisions.size() - 1).path("revision").asLong() + 1;
        ObjectNode data = Revisions.data(set);
        ObjectNode update = null;
        for (ObjectNode r : revisions) {
            if (Revisions.sameData(r.path("data"), data)) {
                update = r;
            }
        }
        if (update != null && update != revisions.get(revisions.size() - 1)) {
            update.put("revision", next); // an old template again: its revision becomes the newest
            update = api.update(ctx.kinds().revisions(), update);
        }
        while (update == null) {
            String hash = Revisions.hash(data, collisions);
            String name = ObjectMeta.name(set) + "-" + hash;
            ObjectNode existing = api.get(ctx.kinds().revisions(), ObjectMeta.ns(set), name);
            if (existing != null) {
                if (Revisions.sameData(existing.path("data"), data) && ObjectMeta.ownedBy(existing, ObjectMeta.uid(set))) {
                    update = existing;
                } else {
                    collisions++; // a hash collision: the real controller bumps status.collisionCount and rehashes
                }
                continue;
            }
            ObjectNode rev = ObjectMeta.NODES.objectNode();
            rev.put("apiVersion", "apps/v1");
            rev.put("kind", "ControllerRevision");
            ObjectNode meta = rev.putObject("metadata").put("name", name).put("namespace", ObjectMeta.ns(set));
            ObjectNode labels = meta.putObject("labels");
            set.path("spec").path("template").path("metadata").path("labels").fields()
                    .forEachRemaining(e -> labels.set(e.getKey(), e.getValue()));
            labels.put(Revisions.REVISION_HASH_LABEL, hash);
            meta.putArray("ownerReferences").add(ObjectMeta.controllerRefTo(set));
            rev.set("data", data);
            rev.put("revision", next);
            update = api.create(ctx.kinds().revisions(), rev);
        }
        ObjectNode current = byName(revisions, set.path("status").path("currentRevision").asText());
        return new RevisionPair(current != null ? current : update, update, collisions);
    }

    /** truncateHistory: revisions no pod runs and neither current nor update, oldest first, beyond revisionHistoryLimit. */
    private void truncateHistory(ObjectNode set, List<ObjectNode> revisions, List<ObjectNode> pods, RevisionPair rp) {
        List<String> live = new ArrayList<>();
        pods.forEach(p -> live.add(p.path("metadata").path("labels").path(Revisions.HASH_LABEL).asText()));
        live.add(ObjectMeta.name(rp.current()));
        live.add(ObjectMeta.name(rp.update()));
        List<ObjectNode> history = new ArrayList<>(revisions.stream().filter(r -> !live.contains(ObjectMeta.name(r))).toList());
        history.sort(Comparator.comparingLong(r -> r.path("revision").asLong()));
        int limit = set.path("spec").path("revisionHistoryLimit").asInt(10);
        for (int i = 0; i < history.size() - limit; i++) {
            api.delete(ctx.kinds().revisions(), history.get(i), null);
        }
    }

    private static ObjectNode byName(List<ObjectNode> objects, String name) {
        return objects.stream().filter(o -> ObjectMeta.name(o).equals(name)).findFirst().orElse(null);
    }

    // ---- pods and claims (updateStatefulSet) ----

    private void reconcilePods(ObjectNode set, List<ObjectNode> pods, RevisionPair rp) {
        boolean ordered = !"Parallel".equals(set.path("spec").path("podManagementPolicy").asText("OrderedReady"));
        TreeMap<Integer, ObjectNode> byOrdinal = new TreeMap<>();
        pods.forEach(p -> byOrdinal.put(StatefulSetPods.ordinal(set, p), p));
        // claims first: missing ones created for pending pods, owner references per the retention policy
        for (ObjectNode pod : pods) {
            if (!ObjectMeta.deleting(pod)) {
                ensureClaims(set, pod, StatefulSetPods.inRange(set, StatefulSetPods.ordinal(set, pod)));
            }
        }
        int start = StatefulSetPods.start(set);
        int end = start + StatefulSetPods.replicas(set);
        int partition = set.path("spec").path("updateStrategy").path("rollingUpdate").path("partition").asInt(0);
        for (int ord = start; ord < end; ord++) {
            ObjectNode pod = byOrdinal.get(ord);
            if (pod == null) {
                if (api.get(ctx.kinds().pods(), ObjectMeta.ns(set), StatefulSetPods.podName(set, ord)) != null) {
                    if (ordered) {
                        return; // a terminating pod of that name, owned by nobody: wait for it to go
                    }
                    continue;
                }
                boolean current = rp.current() != rp.update() && ord - start < partition;
                ObjectNode chosen = current ? rp.current() : rp.update();
                JsonNode template = current ? Revisions.template(chosen) : set.path("spec").path("template");
                if (!createPod(set, StatefulSetPods.pod(set, template, ord, ObjectMeta.name(chosen)), ord) || ordered) {
                    return;
                }
                continue;
            }
            if (ordered && StatefulSetPods.untilAvailable(set, pod, java.time.Instant.now()) != 0) {
                return; // OrderedReady: the next ordinal waits for this one to be Running, Ready and available
            }
        }
        List<ObjectNode> condemned = new ArrayList<>(byOrdinal.tailMap(end).values());
        condemned.addAll(byOrdinal.headMap(start).values());
        condemned.sort(Comparator.comparingInt((ObjectNode p) -> StatefulSetPods.ordinal(set, p)).reversed());
        for (ObjectNode pod : condemned) {
            if (ObjectMeta.deleting(pod)) {
                if (ordered) {
                    return;
                }
                continue;
            }
            if (ordered && !pods.stream().filter(p -> p != pod).allMatch(StatefulSetPods::runningAndReady)) {
                return; // scale down one at a time, with the rest healthy
            }
            deletePod(set, pod);
            if (ordered) {
                return;
            }
        }
        if (!"RollingUpdate".equals(set.path("spec").path("updateStrategy").path("type").asText("RollingUpdate"))) {
            return;
        }
        for (int ord = end - 1; ord >= start + partition; ord--) {
            ObjectNode pod = byOrdinal.get(ord);
            if (pod == null || !StatefulSetPods.runningAndReady(pod)) {
                return; // maxUnavailable 1: wait for the pod being replaced
            }
            if (!pod.path("metadata").path("labels").path(Revisions.HASH_LABEL).asText().equals(ObjectMeta.name(rp.update()))) {
                deletePod(set, pod);
                return;
            }
        }
    }

    private void ensureClaims(ObjectNode set, ObjectNode pod, boolean inRange) {
        int ord = StatefulSetPods.ordinal(set, pod);
        for (JsonNode t : set.path("spec").path("volumeClaimTemplates")) {
            ObjectNode claim = api.get(ctx.kinds().claims(), ObjectMeta.ns(set), StatefulSetPods.claimName(ObjectMeta.name(t), set, ord));
            if (claim == null) {
                if (inRange && "Pending".equals(pod.path("status").path("phase").asText("Pending"))) {
                    createClaim(set, t, ord, pod);
                }
                continue;
            }
            if (!ObjectMeta.deleting(claim) && ClaimRetention.apply(claim, set, pod, inRange)) {
                api.update(ctx.kinds().claims(), claim);
            }
        }
    }

    private boolean createClaim(ObjectNode set, JsonNode template, int ord, JsonNode pod) {
        ObjectNode claim = StatefulSetPods.claim(set, template, ord);
        if (pod != null) {
            ClaimRetention.apply(claim, set, pod, true);
        } else {
            ClaimRetention.apply(claim, set, null, true);
        }
        api.create(ctx.kinds().claims(), claim);
        ctx.events().normal(COMPONENT, set, "SuccessfulCreate", "create Claim " + ObjectMeta.name(claim) + " Pod "
                + StatefulSetPods.podName(set, ord) + " in StatefulSet " + ObjectMeta.name(set) + " success");
        return true;
    }

    /** createPersistentVolumeClaims, then the pod; false while one of its claims is still being deleted. */
    private boolean createPod(ObjectNode set, ObjectNode pod, int ord) {
        for (JsonNode t : set.path("spec").path("volumeClaimTemplates")) {
            String name = StatefulSetPods.claimName(ObjectMeta.name(t), set, ord);
            ObjectNode claim = api.get(ctx.kinds().claims(), ObjectMeta.ns(set), name);
            if (claim == null) {
                createClaim(set, t, ord, null);
            } else if (ObjectMeta.deleting(claim)) {
                ctx.events().warning(COMPONENT, set, "FailedCreate", "create Pod " + ObjectMeta.name(pod) + " in StatefulSet "
                        + ObjectMeta.name(set) + " failed error: pvc " + name + " is being deleted");
                return false; // its DELETED event brings the set back
            }
        }
        try {
            api.create(ctx.kinds().pods(), pod);
        } catch (ApiError e) {
            if (e.code() == 409) {
                return false; // a pod of that name already exists (terminating): its events bring the set back
            }
            throw e;
        }
        ctx.events().normal(COMPONENT, set, "SuccessfulCreate", "create Pod " + ObjectMeta.name(pod) + " in StatefulSet "
                + ObjectMeta.name(set) + " successful");
        return true;
    }

    private void deletePod(ObjectNode set, ObjectNode pod) {
        if (!StatefulSetPods.inRange(set, StatefulSetPods.ordinal(set, pod))) {
            ensureClaims(set, pod, false); // whenScaled Delete: the pod becomes its claims' owner first
        }
        api.delete(ctx.kinds().pods(), pod, null);
        ctx.events().normal(COMPONENT, set, "SuccessfulDelete", "delete Pod " + ObjectMeta.name(pod) + " in StatefulSet "
                + ObjectMeta.name(set) + " successful");
    }

    // ---- status (updateStatefulSetStatus, completeRollingUpdate) ----

    private void writeStatus(ObjectNode set, List<ObjectNode> pods, RevisionPair rp, int collisions) {
        String updateRev = rp.update() == null ? "" : ObjectMeta.name(rp.update());
        String currentRev = rp.current() == null ? updateRev : ObjectMeta.name(rp.current());
        int replicas = 0;
        int ready = 0;
        int available = 0;
        int current = 0;
        int updated = 0;
        long nextAvailable = Long.MAX_VALUE;
        for (ObjectNode p : pods) {
            replicas++;
            if (StatefulSetPods.runningAndReady(p)) {
                ready++;
                long wait = StatefulSetPods.untilAvailable(set, p, java.time.Instant.now());
                if (wait == 0) {
                    available++;
                } else {
                    nextAvailable = Math.min(nextAvailable, wait);
                }
            }
            if (!ObjectMeta.deleting(p)) {
                String rev = p.path("metadata").path("labels").path(Revisions.HASH_LABEL).asText();
                current += rev.equals(currentRev) ? 1 : 0;
                updated += rev.equals(updateRev) ? 1 : 0;
            }
        }
        boolean rolling = "RollingUpdate".equals(set.path("spec").path("updateStrategy").path("type").asText("RollingUpdate"));
        if (rolling && updated == replicas && ready == replicas) {
            currentRev = updateRev;
            current = updated;
        }
        if (nextAvailable != Long.MAX_VALUE) {
            requeue(new Key(ObjectMeta.ns(set), ObjectMeta.name(set)), nextAvailable + 1); // minReadySeconds: look again once it passes
        }
        ObjectNode st = ObjectMeta.NODES.objectNode();
        st.put("availableReplicas", available);
        st.put("collisionCount", collisions);
        putIfPositive(st, "currentReplicas", current);
        if (!currentRev.isEmpty()) {
            st.put("currentRevision", currentRev);
        }
        st.put("observedGeneration", set.path("metadata").path("generation").asLong(1));
        putIfPositive(st, "readyReplicas", ready);
        st.put("replicas", replicas);
        if (!updateRev.isEmpty()) {
            st.put("updateRevision", updateRev);
        }
        putIfPositive(st, "updatedReplicas", updated);
        if (set.path("status").path("conditions").isArray()) {
            st.set("conditions", set.path("status").get("conditions"));
        }
        if (!ObjectMeta.same(st, set.path("status"))) {
            set.set("status", st);
            api.updateStatus(ctx.kinds().statefulSets(), set);
        }
    }

    private static void putIfPositive(ObjectNode o, String field, int v) {
        if (v > 0) {
            o.put(field, v);
        }
    }
}
