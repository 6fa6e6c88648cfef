package dev.stsresize.sim.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFilesTest {
    @TempDir
    Path dir;

    Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    @Test
    void lists_and_multi_document_files_are_read_in_order() throws IOException {
        Path f = file("s.yaml", """
                apiVersion: v1
                kind: List
                items:
                - {apiVersion: v1, kind: Namespace, metadata: {name: prod}}
                - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: fast}, provisioner: x}
                ---
                {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data-db-0", "namespace": "prod"}}
                """);
        List<ObjectNode> objects = StateFiles.read(List.of(f));
        assertThat(objects).extracting(o -> o.path("kind").asText()).containsExactly("Namespace", "StorageClass", "PersistentVolumeClaim");
    }

    @Test
    void written_state_reads_back_the_same_even_for_strings_that_look_like_numbers() throws IOException {
        Path f = file("in.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, labels: {version: '1', on: 'true'}}\n");
        List<ObjectNode> objects = StateFiles.read(f);
        Path out = dir.resolve("out.yaml");
        StateFiles.write(out, objects);
        assertThat(StateFiles.read(out)).isEqualTo(objects);
    }

    @Test
    void an_alias_bomb_is_refused_with_one_clear_paragraph() throws IOException {
        StringBuilder b = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (char c = 'b'; c <= 'k'; c++) {
            b.append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 12; i++) {
                b.append(i == 0 ? "" : ", ").append('*').append((char) (c - 1));
            }
            b.append("]\n");
        }
        Path f = file("bomb.yaml", b.toString());
        assertThatThrownBy(() -> StateFiles.read(f)).isInstanceOf(StateFileException.class)
                .hasMessageContaining("bomb.yaml").hasMessageContaining("YAML aliases").hasMessageNotContaining("\n");
    }

    @Test
    void absurd_nesting_is_refused() throws IOException {
        Path f = file("deep.json", "[".repeat(5000) + "]".repeat(5000));
        assertThatThrownBy(() -> StateFiles.read(f)).isInstanceOf(StateFileException.class).hasMessageContaining("deep.json");
    }

    @Test
    void documents_without_kind_or_name_and_missing_files_are_refused_naming_the_file() throws IOException {
        Path f = file("bad.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {}\n");
        assertThatThrownBy(() -> StateFiles.read(f)).isInstanceOf(StateFileException.class)
                .hasMessage("state file " + f + ", document 1, lacks apiVersion, kind or metadata.name; every object needs all three.");
        assertThatThrownBy(() -> StateFiles.read(dir.resolve("nope.yaml"))).isInstanceOf(StateFileException.class).hasMessageContaining("nope.yaml");
        Path broken = file("broken.yaml", "apiVersion: v1\nkind: [unclosed\n");
        assertThatThrownBy(() -> StateFiles.read(broken)).isInstanceOf(StateFileException.class).hasMessageContaining("cannot be read");
    }
}
