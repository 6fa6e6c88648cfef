package dev.stsresize.usage;

import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.UnmeasuredClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Why a claim of a StatefulSet's ordinals has no usage: what the pod LIST and the summaries said, kept from one
 * read so that each unmeasured claim is told its own reason, the one the operator can act on. A claim is looked
 * for only where the kubelet would measure it: {@code <template>-<statefulset>-<ordinal>} for the ordinals
 * {@code spec.replicas} runs (scaled-away claims have no pod, and need none).
 *
 * <p>Where the summaries were forbidden or the pods could not be listed, one note says so and no claim is told
 * again.
 */
final class Unmeasured {
    static final Unmeasured NOTHING = new Unmeasured(false, Map.of(), true, Map.of(), Map.of());

    /** One pod of a StatefulSet: its name, node ("" before scheduling), phase, and whether it is being deleted. */
    record Placed(String pod, String node, String phase, boolean deleting) {
        /** A pod whose volumes the kubelet measures: on a node and Running (the summary lists only running pods). */
        boolean running() {
            return !node.isEmpty() && "Running".equals(phase) && !deleting;
        }
    }

    private final boolean podsListed;
    private final Map<String, Map<String, Placed>> pods;
    private final boolean summariesForbidden;
    private final Map<String, String> unreadNodes;
    private final Map<String, String> unusable;

    /**
     * @param podsByStatefulSet the pods of each StatefulSet asked about, by {@code namespace/name}
     * @param unreadNodes the nodes whose summary did not come, and why
     * @param unusable by {@code namespace/claim}, volumes a summary listed without usable figures, and why
     */
    Unmeasured(boolean podsListed, Map<String, List<Placed>> podsByStatefulSet, boolean summariesForbidden,
            Map<String, String> unreadNodes, Map<String, String> unusable) {
        this.podsListed = podsListed;
        this.pods = new HashMap<>();
        podsByStatefulSet.forEach((key, list) -> {
            Map<String, Placed> byName = new HashMap<>();
            list.forEach(p -> byName.put(p.pod(), p));
            pods.put(key, byName);
        });
        this.summariesForbidden = summariesForbidden;
        this.unreadNodes = Map.copyOf(unreadNodes);
        this.unusable = Map.copyOf(unusable);
    }

    /** Per StatefulSet key, its claims with no usage in {@code measured} ({@code namespace/claim}), each with why. */
    Map<String, List<UnmeasuredClaim>> of(List<UsageReport.Target> targets, Set<String> measured) {
        Map<String, List<UnmeasuredClaim>> out = new LinkedHashMap<>();
        if (!podsListed || summariesForbidden) {
            return out;
        }
        for (UsageReport.Target t : targets) {
            Map<String, Placed> own = pods.get(t.key());
            if (own == null) {
                continue; // not asked about
            }
            List<UnmeasuredClaim> missing = new ArrayList<>();
            for (int ordinal = t.firstOrdinal(); ordinal < t.firstOrdinal() + t.replicas(); ordinal++) {
                String pod = t.name() + "-" + ordinal;
                for (String template : t.templates().keySet()) {
                    String claim = template + "-" + pod;
                    if (!measured.contains(Metadata.key(t.namespace(), claim))) {
                        missing.add(new UnmeasuredClaim(claim, why(t.namespace(), claim, pod, own.get(pod))));
                    }
                }
            }
            if (!missing.isEmpty()) {
                out.put(t.key(), missing);
            }
        }
        return out;
    }

    private String why(String namespace, String claim, String podName, Placed pod) {
        String unusableWhy = unusable.get(Metadata.key(namespace, claim));
        if (unusableWhy != null) {
            return unusableWhy;
        }
        if (pod == null) {
            return "pod " + podName + " does not exist";
        }
        if (pod.deleting()) {
            return "pod " + podName + " is being deleted";
        }
        if (pod.node().isEmpty()) {
            return "pod " + podName + " is not scheduled to a node";
        }
        if (!pod.running()) {
            return "pod " + podName + " is " + (pod.phase().isEmpty() ? "not running" : pod.phase());
        }
        String unread = unreadNodes.get(pod.node());
        if (unread != null) {
            return "node " + pod.node() + "'s summary was not read: " + unread;
        }
        return "the kubelet on " + pod.node() + " reports no stats for it: its volume plugin keeps none, as hostPath's does not,"
                + " or its CSI driver offers none, or it was mounted after the kubelet's last volume measure: it is reported at the kubelet's next volume measure"
                + " (its volumeStatsAggPeriod, 1m by default)";
    }
}
