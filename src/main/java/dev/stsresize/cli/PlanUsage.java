package dev.stsresize.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.converge.Assessed;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.SizingPolicy;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.usage.UsageReader;
import dev.stsresize.usage.UsageReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The usage beside a plan: measured from the manifest's names while the plan's own LISTs and dry runs run
 * (so it costs the plan little more than its slowest node), then sized against the live templates.
 */
final class PlanUsage {
    private final CompletableFuture<UsageReader.Measurement> measuring;
    private final SizingPolicy policy;
    private final List<String> notes = new ArrayList<>();

    private PlanUsage(CompletableFuture<UsageReader.Measurement> measuring, SizingPolicy policy) {
        this.measuring = measuring;
        this.policy = policy;
    }

    /**
     * With {@code -A}: the usage's pod and ResourceQuota LISTs and Prometheus' queries need no name from the manifest,
     * so they are sent before it is read ({@link #start} goes on from them).
     */
    static Optional<UsageReader.Started> early(Optional<UsageReader> reader, boolean allNamespaces) {
        return allNamespaces ? reader.map(r -> r.start(List.of(NamespaceScope.all()))) : Optional.empty();
    }

    static PlanUsage start(UsageReader reader, Optional<UsageReader.Started> early, List<ObjectNode> declared,
            boolean allNamespaces, SizingPolicy policy) {
        Set<String> keys = new TreeSet<>();
        Set<String> namespaces = new TreeSet<>();
        for (ObjectNode d : declared) {
            String ns = d.path("metadata").path("namespace").asText("");
            keys.add(Metadata.key(ns, d.path("metadata").path("name").asText("")));
            namespaces.add(ns);
        }
        List<NamespaceScope> scopes = allNamespaces ? List.of(NamespaceScope.all())
                : namespaces.stream().filter(n -> !n.isEmpty()).map(NamespaceScope::of).toList();
        CompletableFuture<UsageReader.Measurement> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(early.isPresent() ? reader.measure(early.get(), keys) : reader.measure(keys, scopes, Optional.empty()));
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        }, "stsresize-plan-usage");
        t.setDaemon(true);
        t.start();
        return new PlanUsage(f, policy);
    }

    /** The usage of each assessed StatefulSet that has one, by {@code namespace/name}; suggestions the manifest meets dropped. */
    Map<String, StatefulSetUsage> finish(List<Assessed> items) {
        UsageReader.Measurement m;
        try {
            m = measuring.get();
        } catch (ExecutionException e) {
            notes.add("usage unknown: " + e.getCause().getMessage());
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
        List<ObjectNode> live = items.stream().map(Assessed::live).filter(o -> o != null).toList();
        UsageReport report = UsageReader.report(m, live, policy);
        notes.addAll(report.notes());
        Map<String, StatefulSetUsage> out = new LinkedHashMap<>();
        for (Assessed a : items) {
            report.of(a.namespace(), a.name()).ifPresent(u -> out.put(u.key(), u.withoutSuggestionsMetBy(a.decision().templates())));
            if (report.of(a.namespace(), a.name()).isEmpty() && !report.unmeasured(a.namespace(), a.name()).isEmpty()) {
                // no line of its own in the table: the claims' reasons are said as a note
                notes.add(dev.stsresize.plan.Metadata.key(a.namespace(), a.name()) + ": "
                        + dev.stsresize.render.UsageText.unmeasured(report.unmeasured(a.namespace(), a.name())));
            }
        }
        return out;
    }

    List<String> notes() {
        return notes;
    }
}
