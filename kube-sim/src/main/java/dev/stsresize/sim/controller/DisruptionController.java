package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.StoreEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The disruption controller (pkg/controller/disruption/disruption.go): keeps each
 * PodDisruptionBudget's status — currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed,
 * observedGeneration and the DisruptionAllowed condition — from the pods its selector matches.
 * The eviction check ({@link DisruptionBudgetEviction}) reads and spends it.
 */
final class DisruptionController extends Controller {
    private final Api api;

    DisruptionController(Context ctx) {
        super(ctx);
        this.api = ctx.api("kube-controller-manager");
    }

    @Override
    String name() {
        return "disruption-controller";
    }

    @Override
    List<Key> keysFor(StoreEvent e) {
        if (e.resource().equals(ctx.kinds().budgets())) {
            return List.of(new Key(e.namespace(), e.name()));
        }
        if (e.resource().equals(ctx.kinds().pods())) {
            List<Key> keys = new ArrayList<>();
            for (ObjectNode pdb : api.list(ctx.kinds().budgets(), e.namespace())) {
                if (ObjectMeta.budgetSelects(pdb, e.object())) {
                    keys.add(new Key(ObjectMeta.ns(pdb), ObjectMeta.name(pdb)));
                }
            }
            return keys;
        }
        return List.of();
    }

    @Override
    List<Key> initialKeys() {
        return api.list(ctx.kinds().budgets(), "").stream().map(p -> new Key(ObjectMeta.ns(p), ObjectMeta.name(p))).toList();
    }

    @Override
    void sync(Key key) {
        ObjectNode pdb = api.get(ctx.kinds().budgets(), key.namespace(), key.name());
        if (pdb == null || ObjectMeta.deleting(pdb)) {
            return;
        }
        int podCount = 0;
        int healthy = 0;
        java.util.Map<String, Integer> scales = new java.util.HashMap<>();
        JsonNode wasDisrupted = pdb.path("status").path("disruptedPods");
        ObjectNode disrupted = ObjectMeta.NODES.objectNode();
        for (ObjectNode pod : api.list(ctx.kinds().pods(), key.namespace())) {
            if (!ObjectMeta.budgetSelects(pdb, pod)) {
                continue;
            }
            podCount++;
            scales.merge(controllerKey(pod), scaleOf(pod), (a, b) -> a);
            if (!ObjectMeta.deleting(pod)) {
                if (wasDisrupted.has(ObjectMeta.name(pod))) {
                    // evicted, but its deletion not seen yet: not healthy (buildDisruptedPodMap)
                    disrupted.set(ObjectMeta.name(pod), wasDisrupted.get(ObjectMeta.name(pod)));
                } else {
                    healthy += StatefulSetPods.runningAndReady(pod) ? 1 : 0;
                }
            }
        }
        JsonNode spec = pdb.path("spec");
        // getExpectedPodCount: an integer minAvailable counts the pods; otherwise their controllers' scale
        int expected;
        int desired;
        if (spec.has("maxUnavailable")) {
            expected = scales.values().stream().mapToInt(Integer::intValue).sum();
            desired = Math.max(0, expected - scaled(spec.get("maxUnavailable"), expected));
        } else if (spec.path("minAvailable").isTextual() && spec.path("minAvailable").asText().endsWith("%")) {
            expected = scales.values().stream().mapToInt(Integer::intValue).sum();
            desired = scaled(spec.path("minAvailable"), expected);
        } else {
            expected = podCount;
            desired = spec.path("minAvailable").asInt(0);
        }
        int allowed = Math.max(0, healthy - desired);
        ObjectNode st = pdb.path("status").isObject() ? (ObjectNode) pdb.get("status").deepCopy() : ObjectMeta.NODES.objectNode();
        st.put("currentHealthy", healthy);
        st.put("desiredHealthy", desired);
        st.put("expectedPods", expected);
        st.put("disruptionsAllowed", allowed);
        st.put("observedGeneration", pdb.path("metadata").path("generation").asLong(1));
        if (disrupted.isEmpty()) {
            st.remove("disruptedPods");
        } else {
            st.set("disruptedPods", disrupted);
        }
        st.putArray("conditions").addObject().put("type", "DisruptionAllowed").put("status", allowed > 0 ? "True" : "False")
                .put("reason", allowed > 0 ? "SufficientPods" : "InsufficientPods").put("message", "")
                .put("observedGeneration", pdb.path("metadata").path("generation").asLong(1))
                .put("lastTransitionTime", conditionTime(pdb, allowed > 0));
        if (!ObjectMeta.same(st, pdb.path("status"))) {
            pdb.set("status", st);
            api.updateStatus(ctx.kinds().budgets(), pdb);
        }
    }

    private static String controllerKey(JsonNode pod) {
        JsonNode ref = ObjectMeta.controllerRef(pod);
        return ref == null ? "pod/" + ObjectMeta.uid(pod) : ref.path("uid").asText();
    }

    /** The replicas of the pod's StatefulSet (getExpectedScale); a pod without one counts once. */
    private int scaleOf(JsonNode pod) {
        JsonNode ref = ObjectMeta.controllerRef(pod);
        if (ref == null || !"StatefulSet".equals(ref.path("kind").asText())) {
            return 1;
        }
        ObjectNode set = api.get(ctx.kinds().statefulSets(), ObjectMeta.ns(pod), ref.path("name").asText());
        return set == null || !ObjectMeta.uid(set).equals(ref.path("uid").asText()) ? 1 : StatefulSetPods.replicas(set);
    }

    private String conditionTime(JsonNode pdb, boolean allowed) {
        for (JsonNode c : pdb.path("status").path("conditions")) {
            if (c.path("type").asText().equals("DisruptionAllowed") && c.path("status").asText().equals(allowed ? "True" : "False")) {
                return c.path("lastTransitionTime").asText();
            }
        }
        return api.store().now();
    }

    /** intstr.GetScaledValueFromIntOrPercent, rounding up as the disruption controller does. */
    static int scaled(JsonNode v, int total) {
        if (v.isTextual() && v.asText().endsWith("%")) {
            int pct = Integer.parseInt(v.asText().substring(0, v.asText().length() - 1));
            return (int) Math.ceil(pct * total / 100.0);
        }
        return v.asInt(0);
    }
}
