package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;
import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * ResourceQuota admission for claims (staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go
 * and pkg/quota/v1/evaluator/core/persistent_volume_claims.go): the delta a write adds to
 * {@code requests.storage}, {@code persistentvolumeclaims} and their per-class
 * {@code <class>.storageclass.storage.k8s.io/…} forms must keep every quota of the namespace within
 * {@code spec.hard}. The used amount is {@code status.used} when a quota controller has set it, else
 * it is summed from the claims in the store. A validating
 * plugin of the {@link AdmissionChain}, last as in the real order; like the real plugin (admission.go
 * Validate) it ignores subresources.
 */
public final class QuotaAdmission implements AdmissionPlugin.Validating {
    private static final String STORAGE = "requests.storage";
    private static final String COUNT = "persistentvolumeclaims";
    private static final String CLASS_SUFFIX = ".storageclass.storage.k8s.io/";

    private final Store store;
    private final ResourceType quotas;
    private final ResourceType claims;

    public QuotaAdmission(Store store, Catalog catalog) {
        this.store = store;
        this.quotas = catalog.byResource("", "resourcequotas").orElseThrow();
        this.claims = catalog.byResource("", "persistentvolumeclaims").orElseThrow();
    }

    @Override
    public String name() {
        return "ResourceQuota";
    }

    @Override
    public boolean handles(Attributes a) {
        return a.isMainResource("persistentvolumeclaims");
    }

    @Override
    public void validate(Attributes a) {
        validate(a.oldObject(), a.object());
    }

    /** {@code old} is null on create. */
    private void validate(ObjectNode old, ObjectNode updated) {
        String ns = updated.path("metadata").path("namespace").asText();
        Map<String, BigDecimal> delta = usage(updated);
        if (old != null) {
            Map<String, BigDecimal> before = usage(old);
            delta.replaceAll((k, v) -> v.subtract(before.getOrDefault(k, BigDecimal.ZERO)).max(BigDecimal.ZERO));
        }
        delta.values().removeIf(v -> v.signum() == 0);
        if (delta.isEmpty()) {
            return;
        }
        for (ObjectNode quota : store.list(quotas, ns)) {
            JsonNode hard = quota.path("spec").path("hard");
            Map<String, BigDecimal> requested = new TreeMap<>();
            Map<String, BigDecimal> used = new TreeMap<>();
            Map<String, BigDecimal> limited = new TreeMap<>();
            for (Map.Entry<String, BigDecimal> d : delta.entrySet()) {
                JsonNode h = hard.get(d.getKey());
                if (h == null) {
                    continue;
                }
                BigDecimal u = used(quota, ns, d.getKey());
                BigDecimal limit = Quantities.value(h.asText());
                if (u.add(d.getValue()).compareTo(limit) > 0) {
                    requested.put(d.getKey(), d.getValue());
                    used.put(d.getKey(), u);
                    limited.put(d.getKey(), limit);
                }
            }
            if (!requested.isEmpty()) {
                String name = updated.path("metadata").path("name").asText();
                throw ApiError.forbidden("", "persistentvolumeclaims", name, "exceeded quota: "
                        + quota.path("metadata").path("name").asText() + ", requested: " + pretty(requested)
                        + ", used: " + pretty(used) + ", limited: " + pretty(limited));
            }
        }
    }

    private BigDecimal used(ObjectNode quota, String ns, String key) {
        JsonNode recorded = quota.path("status").path("used").get(key);
        if (recorded != null) {
            return Quantities.value(recorded.asText());
        }
        BigDecimal sum = BigDecimal.ZERO;
        for (ObjectNode c : store.list(claims, ns)) {
            sum = sum.add(usage(c).getOrDefault(key, BigDecimal.ZERO));
        }
        return sum;
    }

    /** The evaluator's usage of one claim: its count and storage request, plain and per class. */
    public static Map<String, BigDecimal> usage(ObjectNode claim) {
        Map<String, BigDecimal> u = new TreeMap<>();
        String storage = claim.path("spec").path("resources").path("requests").path("storage").asText("");
        BigDecimal size = storage.isEmpty() ? BigDecimal.ZERO : Quantities.value(storage);
        u.put(COUNT, BigDecimal.ONE);
        u.put(STORAGE, size);
        String cls = ResizeAdmission.claimClass(claim);
        if (!cls.isEmpty()) {
            u.put(cls + CLASS_SUFFIX + COUNT, BigDecimal.ONE);
            u.put(cls + CLASS_SUFFIX + STORAGE, size);
        }
        return u;
    }

    /** prettyPrint of the quota controller: sorted {@code key=quantity} joined by commas. */
    private static String pretty(Map<String, BigDecimal> m) {
        return m.entrySet().stream()
                .map(e -> e.getKey() + "=" + format(e.getKey(), e.getValue()))
                .collect(Collectors.joining(","));
    }

    /** A used amount as the quota controller writes it: counts plain, sizes in binary form when exact. */
    public static String format(String key, BigDecimal v) {
        // counts print as plain integers; sizes in the binary form apimachinery picks for byte quantities
        return key.endsWith(COUNT) ? v.toPlainString() : binaryIfExact(v);
    }

    private static String binaryIfExact(BigDecimal v) {
        try {
            long n = v.longValueExact();
            String[] suffix = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
            int k = 0;
            while (k < 6 && n != 0 && n % 1024 == 0) {
                n /= 1024;
                k++;
            }
            return k == 0 ? Quantities.canonical(v.toPlainString()) : n + suffix[k];
        } catch (ArithmeticException e) {
            return Quantities.canonical(v.toPlainString());
        }
    }
}
