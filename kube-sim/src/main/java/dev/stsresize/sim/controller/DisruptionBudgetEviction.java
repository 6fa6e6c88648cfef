package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.registry.EvictionPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * The Eviction API's budget check (pkg/registry/core/pod/storage/eviction.go): a pod that is not
 * running, or matched by no budget, may go; more than one budget is a 500; a budget the disruption
 * controller has not processed yet, or with no disruption left, answers 429 TooManyRequests "Cannot
 * evict pod as it would violate the pod's disruption budget." with a DisruptionBudget cause;
 * otherwise the eviction spends one disruption (status.disruptionsAllowed - 1, the pod recorded in
 * disruptedPods) before the pod is deleted.
 */
final class DisruptionBudgetEviction implements EvictionPolicy {
    static final String VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
    private final Context ctx;
    private final Api api;

    DisruptionBudgetEviction(Context ctx) {
        this.ctx = ctx;
        this.api = ctx.api("kube-apiserver");
    }

    @Override
    public void check(ObjectNode pod, ObjectNode eviction) {
        String phase = pod.path("status").path("phase").asText("Pending");
        if (ObjectMeta.deleting(pod) || phase.equals("Succeeded") || phase.equals("Failed") || phase.equals("Pending")) {
            return; // canIgnorePDB
        }
        List<ObjectNode> budgets = new ArrayList<>();
        for (ObjectNode pdb : api.list(ctx.kinds().budgets(), ObjectMeta.ns(pod))) {
            if (ObjectMeta.budgetSelects(pdb, pod)) {
                budgets.add(pdb);
            }
        }
        if (budgets.isEmpty()) {
            return;
        }
        if (budgets.size() > 1) {
            throw ApiError.of(500, "InternalError",
                    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", null);
        }
        ObjectNode pdb = budgets.get(0);
        JsonNode st = pdb.path("status");
        if (st.path("observedGeneration").asLong(0) < pdb.path("metadata").path("generation").asLong(1)) {
            throw tooManyRequests("The disruption budget " + ObjectMeta.name(pdb) + " is still being processed by the server.");
        }
        if (!StatefulSetPods.runningAndReady(pod) && st.path("currentHealthy").asInt() >= st.path("desiredHealthy").asInt()) {
            return; // an unhealthy pod may go while the budget is met (unhealthyPodEvictionPolicy IfHealthyBudget)
        }
        int allowed = st.path("disruptionsAllowed").asInt(0);
        if (allowed <= 0) {
            throw tooManyRequests("The disruption budget " + ObjectMeta.name(pdb) + " needs " + st.path("desiredHealthy").asInt()
                    + " healthy pods and has " + st.path("currentHealthy").asInt() + " currently");
        }
        ObjectNode next = pdb.withObject("/status");
        next.put("disruptionsAllowed", allowed - 1);
        next.withObject("/disruptedPods").put(ObjectMeta.name(pod), api.store().now());
        api.updateStatus(ctx.kinds().budgets(), pdb);
    }

    private static ApiError tooManyRequests(String cause) {
        ObjectNode details = ObjectMeta.NODES.objectNode();
        details.putArray("causes").addObject().put("reason", "DisruptionBudget").put("message", cause);
        return ApiError.of(429, "TooManyRequests", VIOLATION, details);
    }
}
