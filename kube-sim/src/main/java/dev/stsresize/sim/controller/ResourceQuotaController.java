package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.admission.QuotaAdmission;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.StoreEvent;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The resource quota controller (pkg/controller/resourcequota/resource_quota_controller.go syncResourceQuota)
 * for what the persistent volume claim evaluator measures (pkg/quota/v1/evaluator/core/persistent_volume_claims.go):
 * {@code status.hard} = {@code spec.hard}, and {@code status.used} of every hard key the evaluator
 * knows ({@code persistentvolumeclaims}, {@code requests.storage}, {@code count/persistentvolumeclaims}
 * and their per-class forms), recomputed when a claim or the quota changes. Keys of other evaluators
 * (pods, cpu…) are left out of {@code used}: the sim measures claims only.
 */
final class ResourceQuotaController extends Controller {
    private static final String COUNT = "count/persistentvolumeclaims";
    private final Api api;
    private final ResourceType quotas;

    ResourceQuotaController(Context ctx) {
        super(ctx);
        this.api = ctx.api("resourcequota-controller");
        this.quotas = ctx.sim().catalog().byResource("", "resourcequotas").orElseThrow();
    }

    @Override
    String name() {
        return "resourcequota-controller";
    }

    @Override
    List<Key> keysFor(StoreEvent e) {
        if (e.resource().equals(quotas)) {
            return List.of(new Key(e.namespace(), e.name()));
        }
        if (e.resource().equals(ctx.kinds().claims())) {
            return api.list(quotas, e.namespace()).stream().map(q -> new Key(ObjectMeta.ns(q), ObjectMeta.name(q))).toList();
        }
        return List.of();
    }

    @Override
    List<Key> initialKeys() {
        return api.list(quotas, "").stream().map(q -> new Key(ObjectMeta.ns(q), ObjectMeta.name(q))).toList();
    }

    @Override
    void sync(Key key) {
        ObjectNode quota = api.get(quotas, key.namespace(), key.name());
        if (quota == null || ObjectMeta.deleting(quota)) {
            return;
        }
        Map<String, BigDecimal> totals = new TreeMap<>();
        for (ObjectNode claim : api.list(ctx.kinds().claims(), key.namespace())) {
            QuotaAdmission.usage(claim).forEach((k, v) -> totals.merge(k, v, BigDecimal::add));
            totals.merge(COUNT, BigDecimal.ONE, BigDecimal::add);
        }
        JsonNode hard = quota.path("spec").path("hard");
        ObjectNode used = ObjectMeta.NODES.objectNode();
        List<String> keys = new ArrayList<>();
        hard.fieldNames().forEachRemaining(keys::add);
        for (String k : keys.stream().sorted().toList()) {
            if (measured(k)) {
                used.put(k, QuotaAdmission.format(k, totals.getOrDefault(k, BigDecimal.ZERO)));
            }
        }
        JsonNode status = quota.path("status");
        if (hard.equals(status.path("hard")) && used.equals(status.path("used"))) {
            return;
        }
        ObjectNode st = quota.withObject("/status");
        st.set("hard", hard.deepCopy());
        st.set("used", used);
        api.updateStatus(quotas, quota);
    }

    private static boolean measured(String key) {
        return key.equals("persistentvolumeclaims") || key.equals("requests.storage") || key.equals(COUNT)
                || key.endsWith(".storageclass.storage.k8s.io/persistentvolumeclaims")
                || key.endsWith(".storageclass.storage.k8s.io/requests.storage");
    }
}
