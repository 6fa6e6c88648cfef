package dev.stsresize.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.UserError;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestReaderTest {
    @TempDir Path dir;

    static String sts(String name, String size) {
        return """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: %s
                spec:
                  serviceName: %s
                  selector: {matchLabels: {app: %s}}
                  template: {metadata: {labels: {app: %s}}, spec: {containers: [{name: c, image: busybox}]}}
                  volumeClaimTemplates:
                  - metadata: {name: data}
                    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: %s}}}
                """.formatted(name, name, name, name, size);
    }

    private Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
        return p;
    }

    private static ManifestReader reader() {
        return reader("");
    }

    private static ManifestReader reader(String stdin) {
        return new ManifestReader(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), ReadLimits.DEFAULT);
    }

    private static Manifest read(ManifestReader r, String... paths) {
        return r.read(List.of(paths), false, "default", false);
    }

    @Test
    void readsMultiDocumentYamlWithCommentsAndEmptyDocumentsAndSkipsOtherKinds() throws IOException {
        Path f = write("all.yaml", "# a comment\n---\n---\n" + sts("db", "10Gi") + "---\n# only a comment\n---\n"
                + "apiVersion: v1\nkind: Service\nmetadata: {name: db}\n---\n" + sts("web", "1Gi")
                + "---\napiVersion: apps/v1beta2\nkind: StatefulSet\nmetadata: {name: old}\n");
        Manifest m = read(reader(), f.toString());
        assertThat(m.statefulSets()).extracting(d -> d.object().path("metadata").path("name").asText()).containsExactly("db", "web");
        assertThat(m.skipped()).isEqualTo(Map.of("v1 Service", 1, "apps/v1beta2 StatefulSet", 1));
        assertThat(m.skippedCount()).isEqualTo(2);
        Source web = m.statefulSets().get(1).source();
        assertThat(web.file()).isEqualTo(f.toString());
        // 1-based line of its apiVersion, two lines above the 0-based index of its name
        assertThat(web.line()).isEqualTo(Files.readAllLines(f).indexOf("  name: web") - 2);
        assertThat(web.document()).as("empty documents count, the comment before the first --- does not").isEqualTo(5);
        assertThat(web.toString()).contains("all.yaml, document ").contains("(line " + web.line() + ")");
    }

    @Test
    void fillsTheNamespaceFromMinusNOrDefaultAndKeepsAnExplicitOne() throws IOException {
        Path f = write("m.yaml", sts("db", "10Gi") + "---\n" + sts("other", "1Gi").replace("name: other\n", "name: other\n  namespace: prod\n"));
        Manifest m = reader().read(List.of(f.toString()), false, "team-a", false);
        assertThat(m.objects()).extracting(o -> o.path("metadata").path("namespace").asText()).containsExactly("team-a", "prod");
        assertThat(m.namespaces()).containsExactly("prod", "team-a");
    }

    @Test
    void refusesAStatefulSetInAnotherNamespaceThanAnExplicitMinusN() throws IOException {
        Path f = write("m.yaml", sts("db", "10Gi").replace("name: db\n", "name: db\n  namespace: prod\n"));
        assertThatThrownBy(() -> reader().read(List.of(f.toString()), false, "dev", true))
                .isInstanceOf(UserError.class).hasMessageContaining("m.yaml, document 1")
                .hasMessageContaining("namespace \"prod\"").hasMessageContaining("-n dev");
    }

    @Test
    void keepsFieldsClientJavaDoesNotKnow() throws IOException {
        Path f = write("m.yaml", sts("db", "10Gi").replace("  serviceName: db\n", "  serviceName: db\n  someFutureField: {x: 1}\n"));
        assertThat(read(reader(), f.toString()).objects().get(0).path("spec").path("someFutureField").path("x").asInt()).isEqualTo(1);
    }

    @Test
    void readsJsonAStreamOfJsonValuesAndListsOfItems() throws IOException {
        String list = """
                {"apiVersion":"v1","kind":"List","items":[
                  {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}},
                  {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"a"},"spec":{}}]}
                {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"b"},"spec":{}}
                """;
        Manifest m = read(reader(), write("list.json", list).toString());
        assertThat(m.objects()).extracting(o -> o.path("metadata").path("name").asText()).containsExactly("a", "b");
        assertThat(m.statefulSets().get(0).source().item()).isEqualTo(2);
        assertThat(m.statefulSets().get(0).source().toString()).endsWith("document 1 (line 1), item 2");
        assertThat(m.statefulSets().get(1).source().document()).isEqualTo(2);
        assertThat(m.skipped()).containsEntry("v1 ConfigMap", 1);
    }

    @Test
    void readsAYamlListAsKubectlGetPrintsIt() throws IOException {
        String yaml = "apiVersion: v1\nkind: List\nitems:\n" + sts("db", "10Gi").indent(2).replaceFirst("  apiVersion", "- apiVersion")
                + "metadata: {resourceVersion: \"\"}\n";
        Manifest m = read(reader(), write("list.yaml", yaml).toString());
        assertThat(m.objects()).hasSize(1);
        assertThat(m.statefulSets().get(0).source().item()).isEqualTo(1);
    }

    @Test
    void readsHelmAndKustomizeOutputFromStdin() {
        String helm = "---\n# Source: pg/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: pg\n---\n"
                + "# Source: pg/templates/statefulset.yaml\n" + sts("pg", "8Gi");
        Manifest m = read(reader(helm), "-");
        assertThat(m.objects()).hasSize(1);
        assertThat(m.statefulSets().get(0).source().file()).isEqualTo("<stdin>");
        assertThat(m.statefulSets().get(0).source().document()).isEqualTo(2);
    }

    @Test
    void readsStdinOnlyOnce() {
        assertThatThrownBy(() -> read(reader(sts("a", "1Gi")), "-", "-")).isInstanceOf(UserError.class)
                .hasMessageContaining("given twice");
    }

    @Test
    void readsADirectoryAndItsSubdirectoriesOnlyWithMinusR() throws IOException {
        write("a.yaml", sts("a", "1Gi"));
        write("b.json", "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"b\"},\"spec\":{}}");
        write("notes.txt", "not: a manifest: at all");
        write("sub/c.yml", sts("c", "1Gi"));
        ManifestReader r = reader();
        assertThat(r.read(List.of(dir.toString()), false, "default", false).objects()).hasSize(2);
        assertThat(r.read(List.of(dir.toString()), true, "default", false).objects())
                .extracting(o -> o.path("metadata").path("name").asText()).containsExactly("a", "b", "c");
    }

    @Test
    void refusesAPathThatDoesNotExist() {
        assertThatThrownBy(() -> read(reader(), dir.resolve("nope.yaml").toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("nope.yaml").hasMessageContaining("does not exist");
    }

    @Test
    void namesTheFileDocumentAndLineOfMalformedYaml() throws IOException {
        Path f = write("bad.yaml", sts("db", "10Gi") + "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: [unclosed\n");
        assertThatThrownBy(() -> read(reader(), f.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("bad.yaml, document 2 (line ").hasMessageContaining("not valid YAML")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n\tat "));
    }

    @Test
    void refusesDuplicateKeys() throws IOException {
        Path f = write("dup.yaml", "apiVersion: apps/v1\nkind: StatefulSet\nkind: Service\n");
        assertThatThrownBy(() -> read(reader(), f.toString())).isInstanceOf(UserError.class).hasMessageContaining("document 1");
    }

    @Test
    void refusesTextThatIsNotUtf8() throws IOException {
        Path f = dir.resolve("latin1.yaml");
        Files.write(f, "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: caf\u00e9}\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> read(reader(), f.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("latin1.yaml is not UTF-8 text");
        Path late = dir.resolve("late.yaml");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            many.append(sts("db" + i, "1Gi")).append("---\n");
        }
        byte[] head = many.toString().getBytes(StandardCharsets.UTF_8);
        byte[] tail = "# caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        Files.write(late, all);
        assertThatThrownBy(() -> read(reader(), late.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("late.yaml is not UTF-8 text");
    }

    @Test
    void refusesAStatefulSetWithoutAName() throws IOException {
        Path f = write("m.yaml", sts("db", "1Gi") + "---\n" + sts("x", "1Gi").replace("  name: x\n", "  labels: {a: b}\n"));
        assertThatThrownBy(() -> read(reader(), f.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("m.yaml, document 2 (line ").hasMessageContaining("no metadata.name");
    }

    @Test
    void refusesATemplateWithoutAStorageRequest() throws IOException {
        Path f = write("m.yaml", sts("db", "1Gi").replace("resources: {requests: {storage: 1Gi}}", "resources: {limits: {storage: 1Gi}}"));
        assertThatThrownBy(() -> read(reader(), f.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("m.yaml, document 1 (line 1)").hasMessageContaining("spec.volumeClaimTemplates[0] (\"data\")")
                .hasMessageContaining("no spec.resources.requests.storage");
    }

    @Test
    void refusesAnUnparsableQuantity() throws IOException {
        Path f = write("m.yaml", sts("db", "10 GB"));
        assertThatThrownBy(() -> read(reader(), f.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("StatefulSet \"db\"").hasMessageContaining("\"10 GB\" is not a Kubernetes quantity");
    }

    @Test
    void acceptsAStorageRequestWrittenAsANumber() throws IOException {
        Path f = write("m.yaml", sts("db", "1073741824"));
        assertThat(read(reader(), f.toString()).objects()).hasSize(1);
    }

    @Test
    void refusesAStatefulSetDeclaredTwice() throws IOException {
        Path f = write("m.yaml", sts("db", "1Gi") + "---\n" + sts("db", "2Gi"));
        assertThatThrownBy(() -> read(reader(), f.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("declared a second time").hasMessageContaining("document 1");
    }

    @Test
    void refusesAnAliasBombBeforeItExpands() throws IOException {
        StringBuilder b = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            char p = (char) (c - 1);
            b.append(c).append(": &").append(c).append(" [*").append(p);
            for (int i = 0; i < 8; i++) {
                b.append(",*").append(p);
            }
            b.append("]\n");
        }
        Path f = write("bomb.yaml", b.toString());
        assertThatThrownBy(() -> read(reader(), f.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("bomb.yaml, document 1").hasMessageContaining("aliases");
    }

    @Test
    void acceptsAFewAliasesAsRealManifestsUseThem() throws IOException {
        Path f = write("m.yaml", "x-labels: &labels {app: db}\n" + sts("db", "1Gi").replace("metadata:\n  name: db\n",
                "metadata:\n  name: db\n  labels: *labels\n"));
        assertThat(read(reader(), f.toString()).objects().get(0).path("metadata").path("labels").path("app").asText()).isEqualTo("db");
    }

    @Test
    void refusesDeepNestingInYamlAndJson() throws IOException {
        Path y = write("deep.yaml", "a: " + "[".repeat(5000) + "]".repeat(5000) + "\n");
        assertThatThrownBy(() -> read(reader(), y.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("deep.yaml, document 1").hasMessageContaining("nests deeper than 100");
        Path j = write("deep.json", "{\"a\":" + "[".repeat(5000) + "]".repeat(5000) + "}");
        assertThatThrownBy(() -> read(reader(), j.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("deep.json, document 1").hasMessageContaining("nests deeper than 100");
    }

    @Test
    void refusesAnOversizedDocument() throws IOException {
        ReadLimits small = new ReadLimits(4096, 100, 50);
        ManifestReader r = new ManifestReader(InputStream.nullInputStream(), small);
        String big = sts("db", "1Gi").replace("metadata:\n  name: db\n", "metadata:\n  name: db\n  annotations: {x: \"" + "y".repeat(5000) + "\"}\n");
        Path y = write("big.yaml", sts("small", "1Gi") + "---\n" + big);
        assertThatThrownBy(() -> r.read(List.of(y.toString()), false, "default", false)).isInstanceOf(UserError.class)
                .hasMessageContaining("big.yaml, document 2").hasMessageContaining("larger than 4096");
        Path j = write("big.json", "{\"a\":\"" + "y".repeat(5000) + "\"}");
        assertThatThrownBy(() -> r.read(List.of(j.toString()), false, "default", false)).isInstanceOf(UserError.class)
                .hasMessageContaining("big.json, document 1").hasMessageContaining("larger than 4096");
    }
}
