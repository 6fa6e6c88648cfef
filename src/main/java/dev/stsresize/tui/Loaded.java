package dev.stsresize.tui;

import dev.stsresize.manifest.Source;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Verdict;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One load of the decisions with what the header says about where they came from.
 *
 * @param uids the live StatefulSets' UIDs by "namespace/name": the orphan delete's precondition
 * @param context the kubeconfig context, or where the snapshot came from
 * @param cluster the cluster's server, or "offline"
 * @param scope the namespaces considered ("all namespaces" with -A)
 * @param manifest the manifest's source, as given to -f
 * @param conditions each claim's True conditions by "namespace/claim" (Resizing, FileSystemResizePending, …)
 * @param interrupted runs of the manifest's StatefulSets that stopped before they finished
 * @param fieldManagers the manager each StatefulSet would be re-applied with, by "namespace/name"
 * @param sources where each StatefulSet is declared (file and line), by "namespace/name": what the UI's size edit changes
 * @param unproved the "namespace/name" of the StatefulSets decided from the objects alone whose proofs (permissions,
 *     dry runs) the server has not answered yet: their verdict may still turn into a refusal, and no write starts from it
 * @param copy the operator's copy options (image, class) a copy's writes are said with; {@link CopyOptIn#NONE} when none
 *     were given, whose image and classes are the defaults a copy chosen with the C key takes
 */
public record Loaded(List<Decision> decisions, Map<String, String> uids, String context, String cluster, String scope,
        String manifest, Map<String, List<String>> conditions, List<InterruptedRun> interrupted, Map<String, String> fieldManagers,
        Map<String, Source> sources, Set<String> unproved, CopyOptIn copy) {
    public Loaded {
        decisions = List.copyOf(decisions);
        uids = Map.copyOf(uids);
        conditions = Map.copyOf(conditions);
        interrupted = List.copyOf(interrupted);
        fieldManagers = Map.copyOf(fieldManagers);
        sources = Map.copyOf(sources);
        unproved = Set.copyOf(unproved);
        copy = copy == null ? CopyOptIn.NONE : copy;
    }

    public Loaded(List<Decision> decisions, Map<String, String> uids, String context, String cluster, String scope, String manifest,
            Map<String, List<String>> conditions, List<InterruptedRun> interrupted, Map<String, String> fieldManagers,
            Map<String, Source> sources, Set<String> unproved) {
        this(decisions, uids, context, cluster, scope, manifest, conditions, interrupted, fieldManagers, sources, unproved, CopyOptIn.NONE);
    }

    public Loaded(List<Decision> decisions, Map<String, String> uids, String context, String cluster, String scope, String manifest,
            Map<String, List<String>> conditions, List<InterruptedRun> interrupted, Map<String, String> fieldManagers) {
        this(decisions, uids, context, cluster, scope, manifest, conditions, interrupted, fieldManagers, Map.of(), Set.of(), CopyOptIn.NONE);
    }

    /** The same load, with where each StatefulSet is declared. */
    public Loaded withSources(Map<String, Source> s) {
        return new Loaded(decisions, uids, context, cluster, scope, manifest, conditions, interrupted, fieldManagers, s, unproved, copy);
    }

    /** The same load, decided from the objects alone: the proofs of {@code keys} are still to come. */
    public Loaded withUnproved(Set<String> keys) {
        return new Loaded(decisions, uids, context, cluster, scope, manifest, conditions, interrupted, fieldManagers, sources, keys, copy);
    }

    /**
     * The same load with {@code d} in place of the decision of the same StatefulSet, proved: one row decided again (the
     * copy's key). A decision of a StatefulSet the load does not list changes nothing.
     */
    public Loaded withDecision(Decision d) {
        List<Decision> next = decisions.stream().map(x -> key(x).equals(key(d)) ? d : x).toList();
        Set<String> stillUnproved = new java.util.HashSet<>(unproved);
        stillUnproved.remove(key(d));
        return new Loaded(next, uids, context, cluster, scope, manifest, conditions, interrupted, fieldManagers, sources, stillUnproved, copy);
    }

    /** The same load, its copies said with {@code options}. */
    public Loaded withCopy(CopyOptIn options) {
        return new Loaded(decisions, uids, context, cluster, scope, manifest, conditions, interrupted, fieldManagers, sources, unproved, options);
    }


    /** Whether the server's proofs (permissions, dry runs) of this decision are still to come. */
    public boolean unproved(Decision d) {
        return unproved.contains(key(d));
    }

    /** Where each of the manifest's StatefulSets is declared (their namespaces are filled in when read). */
    public static Map<String, Source> sourcesOf(dev.stsresize.manifest.Manifest m) {
        Map<String, Source> out = new java.util.HashMap<>();
        m.statefulSets().forEach(doc -> out.putIfAbsent(Metadata.key(doc.object(), "default"), doc.source()));
        return out;
    }

    /** Where the StatefulSet is declared, or null when not known. */
    public Source source(Decision d) {
        return sources.get(key(d));
    }

    public Loaded(List<Decision> decisions, Map<String, String> uids, String context, String cluster, String scope, String manifest,
            Map<String, List<String>> conditions, List<InterruptedRun> interrupted) {
        this(decisions, uids, context, cluster, scope, manifest, conditions, interrupted, Map.of());
    }

    public Loaded(List<Decision> decisions, Map<String, String> uids, String context, String cluster, String scope, String manifest) {
        this(decisions, uids, context, cluster, scope, manifest, Map.of(), List.of());
    }

    public static Loaded empty() {
        return new Loaded(List.of(), Map.of(), "", "", "", "");
    }

    /** The claim's True conditions, as last read (empty when none or unknown). */
    public List<String> conditions(String namespace, String claim) {
        return conditions.getOrDefault(Metadata.key(namespace, claim), List.of());
    }

    public String uid(Decision d) {
        return uids.getOrDefault(key(d), "");
    }

    /** The re-apply's field manager ("" when not read). */
    public String fieldManager(Decision d) {
        return fieldManagers.getOrDefault(key(d), "");
    }

    public Map<Verdict, Integer> counts() {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        decisions.forEach(d -> counts.merge(d.verdict(), 1, Integer::sum));
        return counts;
    }

    public static String key(Decision d) {
        return Metadata.key(d.namespace(), d.name());
    }
}
