package dev.stsresize.tui.source;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.plan.SizingPolicy;
import dev.stsresize.tui.UsageSource;
import dev.stsresize.usage.UsageReader;
import dev.stsresize.usage.UsageReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The UI's usage reads: every StatefulSet of the namespaces in scope (not only the manifest's, so the fullest
 * volumes are found first), one LIST per namespace, then {@link UsageReader} (a summary per node, Prometheus
 * when given). Never throws for what cannot be read: the report's notes say it.
 */
public final class ClusterUsage implements UsageSource {
    private final Cluster cluster;
    private final UsageReader reader;
    private final Supplier<List<NamespaceScope>> scopes;
    private final SizingPolicy policy;

    public ClusterUsage(Cluster cluster, UsageReader reader, Supplier<List<NamespaceScope>> scopes, SizingPolicy policy) {
        this.cluster = cluster;
        this.reader = reader;
        this.scopes = scopes;
        this.policy = policy;
    }

    @Override
    public UsageReport read() {
        List<NamespaceScope> in = scopes.get();
        List<ObjectNode> statefulSets = new ArrayList<>();
        try {
            for (NamespaceScope scope : in) {
                statefulSets.addAll(cluster.listStatefulSets(scope).items());
            }
        } catch (RuntimeException e) {
            return UsageReport.empty(List.of("usage unknown (cannot list statefulsets: " + e.getMessage() + ")"), Instant.now());
        }
        return reader.read(statefulSets, in, policy);
    }
}
