package dev.stsresize.render;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.TemplateSize;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.SuggestedSize;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code -o json} / {@code -o yaml} contract, {@code stsresize/v1} {@code Plan}: a stable document
 * scripts can rely on. Field order is fixed; {@code reason} appears only for refused and blocked;
 * {@code templates} lists only templates whose size changes; {@code claims} lists exactly the claims
 * the converge would grow; quantities are in the API server's canonical form.
 */
public final class PlanDocument {
    public static final String API_VERSION = "stsresize/v1";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private PlanDocument() {}

    public static ObjectNode of(List<Decision> decisions) {
        return of(decisions, Optional.empty());
    }

    /**
     * With the usage read from the cluster: each item then also gets {@code usage} (every claim whose usage is
     * known, whatever the verdict: {@code claim, usedBytes, capacityBytes, availableBytes, fillsInSeconds} when a
     * rate is known) and {@code suggestedSizes} ({@code template, current, suggested, why, cappedByQuota}), both
     * possibly empty; without usage (offline, {@code --no-usage}) neither field is written.
     *
     * @param usage by {@code namespace/name}
     */
    public static ObjectNode of(List<Decision> decisions, Optional<Map<String, StatefulSetUsage>> usage) {
        return of(decisions, usage, CopyOptIn.NONE);
    }

    /**
     * With the operator's opt-in to the copy: a copy plan's claims to copy have {@code action: copy} and
     * {@code copyStorageClass} (their new volumes' class), and the item has {@code downtime} (what the text's paragraph says).
     */
    public static ObjectNode of(List<Decision> decisions, Optional<Map<String, StatefulSetUsage>> usage, CopyOptIn copy) {
        ObjectNode doc = document("Plan");
        ArrayNode items = (ArrayNode) doc.get("items");
        decisions.stream()
                .sorted(Comparator.comparing(Decision::namespace).thenComparing(Decision::name))
                .forEach(d -> {
                    ObjectNode item = item(d, copy);
                    Optional<StatefulSetUsage> known = usage.flatMap(u -> Optional.ofNullable(u.get(Metadata.key(d.namespace(), d.name()))));
                    CopyDowntime.paragraph(d, known).ifPresent(text -> item.put("downtime", text));
                    usage.ifPresent(u -> usageFields(item, Optional.ofNullable(u.get(Metadata.key(d.namespace(), d.name())))));
                    items.add(item);
                });
        return doc;
    }

    /** An empty {@code stsresize/v1} document of {@code kind}: its {@code items} array is filled by the caller. */
    static ObjectNode document(String kind) {
        ObjectNode doc = JSON.objectNode();
        doc.put("apiVersion", API_VERSION);
        doc.put("kind", kind);
        doc.putArray("items");
        return doc;
    }

    /** A new item of {@code items}, naming its StatefulSet: every document's items start so. */
    static ObjectNode item(ArrayNode items, String namespace, String name) {
        ObjectNode item = items.addObject();
        item.put("namespace", namespace);
        item.put("name", name);
        return item;
    }

    static ObjectNode item(Decision d) {
        return item(d, CopyOptIn.NONE);
    }

    static ObjectNode item(Decision d, CopyOptIn copy) {
        ObjectNode item = JSON.objectNode();
        item.put("namespace", d.namespace());
        item.put("name", d.name());
        item.put("verdict", d.verdict().label());
        if (d instanceof Refusal r) {
            item.put("reason", r.reason().label());
        }
        item.put("detail", d.detail());
        item.put("recreate", d.recreate());
        ArrayNode templates = item.putArray("templates");
        for (TemplateSize t : d.changedTemplates()) {
            ObjectNode o = templates.addObject();
            o.put("name", t.name());
            o.put("from", t.live().toString());
            o.put("to", t.declared().toString());
        }
        // every claim the table lists, with the table's action: a refused or blocked StatefulSet's too
        ArrayNode claims = item.putArray("claims");
        for (ClaimState c : d.claims()) {
            ObjectNode o = claims.addObject();
            o.put("name", c.name());
            o.put("template", c.template());
            o.put("storageClass", c.storageClass());
            if (c.classKnown()) {
                o.put("expandable", c.expandable());
            } else {
                o.putNull("expandable"); // the StorageClasses could not be read
            }
            o.put("action", c.resizeFailed() ? "resize-failed" : c.lagging() ? "resizing" : !c.grow() ? "keep" : c.copy() ? "copy"
                    : d.verdict().hasWork() ? "grow" : "needs-growth");
            o.put("scaledAway", c.scaledAway());
            o.put("from", text(c.request()));
            o.put("to", c.target().toString());
            o.put("capacity", text(c.capacity()));
            if (c.copy()) {
                o.put("copyStorageClass", copy.classFor(c.storageClass()));
            }
        }
        ArrayNode warnings = item.putArray("warnings");
        d.warnings().forEach(warnings::add);
        return item;
    }

    /** {@code usage[]} and {@code suggestedSizes[]} of one item (additive to stsresize/v1). */
    public static void usageFields(ObjectNode item, Optional<StatefulSetUsage> usage) {
        ArrayNode claims = item.putArray("usage");
        ArrayNode sizes = item.putArray("suggestedSizes");
        usage.ifPresent(u -> {
            for (ClaimUsage c : u.claims()) {
                ObjectNode o = claims.addObject();
                o.put("claim", c.claim());
                o.put("usedPercent", percent(c));
                o.put("usedBytes", c.usedBytes());
                o.put("capacityBytes", c.capacityBytes());
                o.put("availableBytes", c.availableBytes());
                o.put("sharedFileSystem", c.sharedFileSystem());
                c.fillsIn().ifPresent(f -> o.put("fillsInSeconds", f.toSeconds()));
            }
            for (SuggestedSize s : u.suggestions()) {
                ObjectNode o = sizes.addObject();
                o.put("template", s.template());
                o.put("current", s.current());
                o.put("suggested", s.suggested());
                o.put("why", s.why());
                o.put("cappedByQuota", s.cappedByQuota());
            }
            unmeasuredField(item, u.unmeasured());
        });
    }

    /** {@code unmeasured[]} = {@code {claim, reason}}: the claims of running ordinals with no usage, each with why. */
    static void unmeasuredField(ObjectNode item, List<dev.stsresize.plan.UnmeasuredClaim> unmeasured) {
        if (unmeasured.isEmpty()) {
            return;
        }
        ArrayNode out = item.putArray("unmeasured");
        unmeasured.forEach(c -> out.addObject().put("claim", c.claim()).put("reason", c.reason()));
    }

    /** The alert's measure ({@link ClaimUsage#usedPercent}) to a tenth of a point. */
    static double percent(ClaimUsage c) {
        return Math.round(c.usedPercent() * 10) / 10.0;
    }

    private static String text(Quantity q) {
        return q == null ? null : q.toString();
    }
}
