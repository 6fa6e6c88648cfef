package dev.stsresize.tui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Assessment;
import dev.stsresize.converge.Assessor;
import dev.stsresize.converge.Progress;
import dev.stsresize.manifest.Manifest;
import dev.stsresize.manifest.ManifestReader;
import dev.stsresize.manifest.ReadLimits;
import dev.stsresize.plan.Decision;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Decisions from the manifest and the cluster, as {@code plan} makes them: the {@link Assessor} reads
 * (one LIST of StatefulSets and claims per namespace, StorageClasses once), decides, and proves the
 * re-apply by a server dry run. A refresh reads the files and the cluster again; what came on stdin
 * was read once and is reused. The declared objects of the last load are what the wizard converges.
 */
public final class ClusterDecisions implements DecisionSource {
    private final Cluster cluster;
    private final InputStream stdin;
    private final List<String> files;
    private final boolean recursive;
    private final String defaultNamespace;
    private final boolean explicitNamespace;
    private final boolean allNamespaces;
    private final String context;
    private final String server;
    private Manifest stdinManifest;
    private volatile Map<String, ObjectNode> declared = Map.of();

    /**
     * @param defaultNamespace {@code -n}, else the context's namespace
     * @param context what the header names as the context (the kubeconfig context and its file)
     * @param server the API server's URL
     */
    public ClusterDecisions(Cluster cluster, InputStream stdin, List<String> files, boolean recursive, String defaultNamespace,
            boolean explicitNamespace, boolean allNamespaces, String context, String server) {
        this.cluster = cluster;
        this.stdin = stdin;
        this.files = List.copyOf(files);
        this.recursive = recursive;
        this.defaultNamespace = defaultNamespace;
        this.explicitNamespace = explicitNamespace;
        this.allNamespaces = allNamespaces;
        this.context = context;
        this.server = server;
    }

    @Override
    public synchronized Loaded load() {
        Manifest manifest = stdinManifest;
        if (manifest == null) {
            manifest = new ManifestReader(stdin, ReadLimits.DEFAULT).read(files, recursive, defaultNamespace, explicitNamespace);
            if (files.contains("-")) {
                stdinManifest = manifest;
            }
        }
        Assessment a = new Assessor(cluster, Progress.NONE).assess(manifest.objects(), allNamespaces, Assessor.Depth.PLAN, false,
                Optional.empty());
        Map<String, String> uids = new HashMap<>();
        for (Assessed x : a.items()) {
            if (x.live() != null) {
                uids.put(x.namespace() + "/" + x.name(), x.live().path("metadata").path("uid").asText(""));
            }
        }
        Map<String, ObjectNode> objects = new HashMap<>();
        for (ObjectNode o : manifest.objects()) {
            objects.put(o.path("metadata").path("namespace").asText(defaultNamespace) + "/" + o.path("metadata").path("name").asText(), o);
        }
        declared = Map.copyOf(objects);
        List<Decision> decisions = a.items().stream().map(Assessed::decision).toList();
        return new Loaded(decisions, uids, context, server,
                allNamespaces ? "all namespaces" : String.join(",", new TreeSet<>(manifest.namespaces())),
                String.join(",", files.stream().map(f -> f.equals("-") ? "stdin" : f).toList()));
    }

    /** The manifest's object for a decision, as last read (null when the manifest no longer declares it). */
    public ObjectNode declared(Decision d) {
        return declared.get(Loaded.key(d));
    }
}
