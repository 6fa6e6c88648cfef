package dev.stsresize.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.LiveState;
import dev.stsresize.plan.PersistentVolumes;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a captured cluster state: the output of
 * {@code kubectl get sts,controllerrevisions,pvc,pv,sc,csidrivers,pods -A -o yaml} (one List, or several files).
 * Keeps the live StatefulSets, claims, StorageClasses and CSIDrivers; every other kind is ignored.
 */
public final class SnapshotReader {
    private final Inputs inputs;
    private final DocumentReader documents;

    public SnapshotReader(InputStream stdin, ReadLimits limits) {
        this.inputs = new Inputs(stdin, "--live");
        this.documents = new DocumentReader(limits);
    }

    /** @param namespaces the namespaces to keep namespaced objects of; null keeps all ({@code -A}) */
    public LiveState read(List<String> paths, Set<String> namespaces) {
        List<ObjectNode> sets = new ArrayList<>();
        List<ObjectNode> claims = new ArrayList<>();
        List<ObjectNode> classes = new ArrayList<>();
        List<ObjectNode> drivers = new ArrayList<>();
        List<ObjectNode> volumes = new ArrayList<>();
        inputs.forEach(paths, true, (file, reader) -> documents.read(file, reader, doc -> {
            String ns = doc.object().path("metadata").path("namespace").asText("default");
            boolean inScope = namespaces == null || namespaces.contains(ns);
            if (doc.is("apps/v1", "StatefulSet") && inScope) {
                sets.add(doc.object());
            } else if (doc.is("v1", "PersistentVolumeClaim") && inScope) {
                claims.add(doc.object());
            } else if (doc.is("storage.k8s.io/v1", "StorageClass")) {
                classes.add(doc.object());
            } else if (doc.is("storage.k8s.io/v1", "CSIDriver")) {
                drivers.add(doc.object());
            } else if (doc.is("v1", "PersistentVolume")) {
                volumes.add(doc.object());
            }
        }));
        // a snapshot without CSIDrivers may have been taken without asking for them: unknown, not "none"
        // likewise the PersistentVolumes, which only a copy into a no-provisioner class reads
        return new LiveState(sets, claims, classes, true, drivers, !drivers.isEmpty(), volumes.isEmpty()
                ? PersistentVolumes.unreadable("the snapshot holds none") : PersistentVolumes.of(volumes));
    }
}
