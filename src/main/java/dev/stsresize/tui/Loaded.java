package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One load of the decisions with what the header says about where they came from.
 *
 * @param uids the live StatefulSets' UIDs by "namespace/name": the orphan delete's precondition
 * @param context the kubeconfig context, or where the snapshot came from
 * @param cluster the cluster's server, or "offline"
 * @param scope the namespaces considered ("all namespaces" with -A)
 * @param manifest the manifest's source, as given to -f
 */
public record Loaded(List<Decision> decisions, Map<String, String> uids, String context, String cluster, String scope,
        String manifest) {
    public Loaded {
        decisions = List.copyOf(decisions);
        uids = Map.copyOf(uids);
    }

    public static Loaded empty() {
        return new Loaded(List.of(), Map.of(), "", "", "", "");
    }

    public String uid(Decision d) {
        return uids.getOrDefault(key(d), "");
    }

    public Map<Verdict, Integer> counts() {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        decisions.forEach(d -> counts.merge(d.verdict(), 1, Integer::sum));
        return counts;
    }

    public static String key(Decision d) {
        return d.namespace() + "/" + d.name();
    }
}
