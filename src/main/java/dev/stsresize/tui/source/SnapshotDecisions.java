package dev.stsresize.tui.source;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.manifest.Manifest;
import dev.stsresize.manifest.ManifestReader;
import dev.stsresize.manifest.ReadLimits;
import dev.stsresize.manifest.SnapshotReader;
import dev.stsresize.plan.Decider;
import dev.stsresize.plan.LiveState;
import dev.stsresize.plan.Metadata;
import dev.stsresize.tui.DecisionSource;
import dev.stsresize.tui.Loaded;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decisions from manifest files and a captured snapshot, as {@code plan} makes them. A refresh reads
 * the files again (a re-captured snapshot shows); what came on stdin was read once and is reused.
 */
public final class SnapshotDecisions implements DecisionSource {
    private final InputStream stdin;
    private final List<String> files;
    private final boolean recursive;
    private final List<String> live;
    private final String namespace;
    private final boolean allNamespaces;
    private Manifest stdinManifest;
    private LiveState stdinState;

    public SnapshotDecisions(InputStream stdin, List<String> files, boolean recursive, List<String> live, String namespace,
            boolean allNamespaces) {
        this.stdin = stdin;
        this.files = List.copyOf(files);
        this.recursive = recursive;
        this.live = List.copyOf(live);
        this.namespace = namespace;
        this.allNamespaces = allNamespaces;
    }

    @Override
    public synchronized Loaded load() {
        boolean explicit = namespace != null;
        Manifest manifest = stdinManifest;
        if (manifest == null) {
            manifest = new ManifestReader(stdin, ReadLimits.DEFAULT).read(files, recursive, explicit ? namespace : "default", explicit);
            if (files.contains("-")) {
                stdinManifest = manifest;
            }
        }
        Set<String> scope = allNamespaces ? null : manifest.namespaces();
        LiveState state = stdinState;
        if (state == null) {
            state = new SnapshotReader(stdin, ReadLimits.SNAPSHOT).read(live, scope);
            if (live.contains("-")) {
                stdinState = state;
            }
        }
        Map<String, String> uids = new HashMap<>();
        Map<String, String> managers = new HashMap<>();
        for (ObjectNode sts : state.statefulSets()) {
            String key = Metadata.key(sts, "default");
            uids.put(key, sts.path("metadata").path("uid").asText(""));
            managers.put(key, dev.stsresize.converge.ReapplyObject.fieldManager(sts, java.util.Optional.empty()));
        }
        String where = shown(live);
        return new Loaded(Decider.decide(manifest.objects(), state), uids, "(offline)", "snapshot " + where,
                scope == null ? "all namespaces" : String.join(",", new java.util.TreeSet<>(scope)),
                shown(files), conditions(state.claims()), List.of(), managers).withSources(Loaded.sourcesOf(manifest));
    }

    /** Each claim's True conditions by "namespace/name", as the diff shows them. */
    static Map<String, List<String>> conditions(List<ObjectNode> claims) {
        Map<String, List<String>> out = new HashMap<>();
        for (ObjectNode c : claims) {
            List<String> types = new java.util.ArrayList<>();
            for (var cond : c.path("status").path("conditions")) {
                if ("True".equals(cond.path("status").asText("True"))) {
                    types.add(cond.path("type").asText());
                }
            }
            if (!types.isEmpty()) {
                out.put(Metadata.key(c, "default"), types);
            }
        }
        return out;
    }

    private static String shown(List<String> paths) {
        return String.join(",", paths.stream().map(f -> f.equals("-") ? "stdin" : f).toList());
    }
}
