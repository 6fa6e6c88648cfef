package dev.stsresize.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The declared StatefulSets of the manifest, validated and each with its namespace filled in, and a
 * count of the documents skipped because they are something else (by apiVersion/kind).
 */
public record Manifest(List<Document> statefulSets, Map<String, Integer> skipped) {
    public Manifest {
        statefulSets = List.copyOf(statefulSets);
        skipped = Map.copyOf(skipped);
    }

    public List<ObjectNode> objects() {
        return statefulSets.stream().map(Document::object).toList();
    }

    public Set<String> namespaces() {
        Set<String> out = new TreeSet<>();
        statefulSets.forEach(d -> out.add(d.object().path("metadata").path("namespace").asText()));
        return out;
    }

    public int skippedCount() {
        return skipped.values().stream().mapToInt(Integer::intValue).sum();
    }
}
