package dev.stsresize.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.LiveState;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotReaderTest {
    @TempDir Path dir;

    private static List<String> names(List<ObjectNode> objects) {
        return objects.stream().map(o -> o.path("metadata").path("namespace").asText() + "/" + o.path("metadata").path("name").asText()).toList();
    }

    @Test
    void keepsStatefulSetsClaimsAndClassesAndIgnoresEveryOtherKind() {
        LiveState s = new SnapshotReader(InputStream.nullInputStream(), ReadLimits.DEFAULT)
                .read(List.of("examples/live-snapshot.yaml"), null);
        assertThat(names(s.statefulSets())).containsExactly("shop/postgres", "shop/redis", "shop/kafka", "shop/search");
        assertThat(s.claims()).hasSize(11);
        assertThat(s.storageClasses()).extracting(o -> o.path("metadata").path("name").asText()).containsExactly("gp3", "local-fixed");
    }

    @Test
    void keepsNamespacedObjectsOfTheGivenNamespacesOnlyButEveryStorageClass() throws IOException {
        String snap = """
                apiVersion: v1
                kind: List
                items:
                - {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: a, namespace: one}}
                - {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: b, namespace: two}}
                - {apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data-a-0, namespace: one}}
                - {apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data-b-0, namespace: two}}
                - {apiVersion: v1, kind: PersistentVolume, metadata: {name: pv-1}}
                - {apiVersion: v1, kind: Pod, metadata: {name: a-0, namespace: one}}
                """;
        Path f = Files.writeString(dir.resolve("snap.yaml"), snap);
        Path classes = Files.writeString(dir.resolve("classes.json"),
                "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"fast\"},\"allowVolumeExpansion\":true}");
        SnapshotReader r = new SnapshotReader(InputStream.nullInputStream(), ReadLimits.DEFAULT);
        LiveState one = r.read(List.of(f.toString(), classes.toString()), Set.of("one"));
        assertThat(names(one.statefulSets())).containsExactly("one/a");
        assertThat(names(one.claims())).containsExactly("one/data-a-0");
        assertThat(one.storageClasses()).hasSize(1);
        LiveState all = r.read(List.of(f.toString(), classes.toString()), null);
        assertThat(names(all.statefulSets())).containsExactly("one/a", "two/b");
    }

    @Test
    void readsTheSnapshotFromStdinAndFromADirectory() throws IOException {
        String sts = "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"a\",\"namespace\":\"one\"}}";
        LiveState fromStdin = new SnapshotReader(new ByteArrayInputStream(sts.getBytes(StandardCharsets.UTF_8)), ReadLimits.DEFAULT)
                .read(List.of("-"), null);
        assertThat(fromStdin.statefulSets()).hasSize(1);
        Files.createDirectories(dir.resolve("nested"));
        Files.writeString(dir.resolve("nested/sts.json"), sts);
        LiveState fromDir = new SnapshotReader(InputStream.nullInputStream(), ReadLimits.DEFAULT).read(List.of(dir.toString()), null);
        assertThat(fromDir.statefulSets()).as("snapshot directories are read recursively").hasSize(1);
    }
}
