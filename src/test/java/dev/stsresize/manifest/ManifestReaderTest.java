package dev.stsresize.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

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
    void readsJsonAndYamlAfterAByteOrderMarkAsKubectlDoes() throws IOException {
        String json = "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"a\"},\"spec\":{}}\n";
        Manifest fromFile = read(reader(), write("bom.json", "\uFEFF" + json).toString());
        Manifest fromStdin = read(reader("\uFEFF" + json), "-");
        Manifest yaml = read(reader(), write("bom.yaml", "\uFEFF" + sts("b", "1Gi")).toString());
        assertThat(fromFile.objects()).extracting(o -> o.path("metadata").path("name").asText()).containsExactly("a");
        assertThat(fromStdin.objects()).hasSize(1);
        assertThat(yaml.objects()).extracting(o -> o.path("metadata").path("name").asText()).containsExactly("b");
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
    void refusesAnAnchorThatContainsItselfAsKubectlDoes() throws IOException {
        Path f = write("loop.yaml", sts("db", "1Gi") + "  x-loop: &sel\n    inner: *sel\n");
        assertThatThrownBy(() -> read(reader(), f.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("loop.yaml, document 1 (line ").hasMessageContaining("the anchor &sel contains itself");
        Path list = write("loop-list.yaml", "a: &a [1, *a]\n");
        assertThatThrownBy(() -> read(reader(), list.toString())).isInstanceOf(UserError.class)
                .hasMessageContaining("the anchor &a contains itself");
    }

    @Test
    void refusesAStandardTagOnANodeItCannotDescribe() throws IOException {
        for (String[] c : new String[][] {{"namespace: !!set shop", "!!set stands on a single value"},
                {"namespace: !!map shop", "!!map stands on a single value"}, {"namespace: !!str [shop]", "!!str stands on a list"},
                {"namespace: !!seq {a: b}", "!!seq stands on a mapping"}, {"namespace: !!null {a: b}", "!!null stands on a mapping"}}) {
            Path f = write("tag.yaml", sts("db", "1Gi").replace("metadata:\n  name: db\n", "metadata:\n  name: db\n  " + c[0] + "\n"));
            assertThatThrownBy(() -> read(reader(), f.toString())).as(c[0]).isInstanceOf(UserError.class)
                    .hasMessageContaining("tag.yaml, document 1 (line 5, column").hasMessageContaining(c[1]);
        }
        Path fine = write("tags.yaml", sts("db", "1Gi").replace("metadata:\n  name: db\n",
                "metadata:\n  name: !!str db\n  labels: !!map {a: !!str b}\n"));
        assertThat(read(reader(), fine.toString()).objects()).hasSize(1);
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

    // issue 13 item 5: what kube-apiserver would refuse is refused while reading, with its words

    private String refusal(String content) throws IOException {
        Path f = write("bad.yaml", sts("ok", "1Gi") + "---\n" + content);
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> read(reader(), f.toString()));
        assertThat(t).isInstanceOf(UserError.class);
        assertThat(((UserError) t).exitCode()).isEqualTo(1);
        assertThat(t.getMessage()).as("names file and document").contains("bad.yaml, document 2 (line 13)")
                .doesNotContain("\n");
        return t.getMessage();
    }

    @Test
    void aNameThatIsNotADnsSubdomainIsRefusedWithTheApiServersText() throws IOException {
        assertThat(refusal(sts("../../x", "1Gi").replace("name: ../../x", "name: \"../../x\"")))
                .contains("StatefulSet \"../../x\": kube-apiserver would refuse it: metadata.name: Invalid value: \"../../x\": "
                        + "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must"
                        + " start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is"
                        + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
                .contains("Nothing was sent.");
        assertThat(refusal(sts("Db", "1Gi"))).contains("metadata.name: Invalid value: \"Db\"");
        assertThat(refusal(sts("a".repeat(254), "1Gi"))).contains("must be no more than 253 characters");
    }

    @Test
    void aNamespaceThatIsNotADnsLabelIsRefusedFromTheManifestAndFromMinusN() throws IOException {
        assertThat(refusal(sts("db", "1Gi").replace("name: db\n", "name: db\n  namespace: \"..\"\n")))
                .contains("metadata.namespace: Invalid value: \"..\": a lowercase RFC 1123 label must consist of lower case"
                        + " alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g."
                        + " 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
        assertThat(refusal(sts("db", "1Gi").replace("name: db\n", "name: db\n  namespace: a.b\n")))
                .contains("metadata.namespace: Invalid value: \"a.b\"");
        Path f = write("m.yaml", sts("db", "1Gi"));
        assertThatThrownBy(() -> reader().read(List.of(f.toString()), false, "..", false)).isInstanceOf(UserError.class)
                .hasMessageContaining("m.yaml, document 1 (line 1): StatefulSet \"db\" names no namespace and the kubeconfig"
                        + " context's namespace is \"..\"")
                .hasMessageContaining("Nothing was sent.");
        assertThatThrownBy(() -> reader().read(List.of(f.toString()), false, "..", true)).isInstanceOf(UserError.class)
                .hasMessageStartingWith("-n: the namespace \"..\" is not one kube-apiserver accepts (metadata.namespace:"
                        + " Invalid value: \"..\": a lowercase RFC 1123 label");
    }

    @Test
    void replicasMustBeANonNegativeInt32AsTheApiServerDecodesIt() throws IOException {
        String big = refusal(sts("db", "1Gi").replace("spec:\n  serviceName", "spec:\n  replicas: 99999999999999999999\n  serviceName"));
        assertThat(big).contains("StatefulSet in version \"v1\" cannot be handled as a StatefulSet: json: cannot unmarshal number"
                + " 99999999999999999999 into Go struct field StatefulSetSpec.spec.replicas of type int32");
        assertThat(refusal(sts("db", "1Gi").replace("spec:\n  serviceName", "spec:\n  replicas: 2147483648\n  serviceName")))
                .contains("cannot unmarshal number 2147483648");
        assertThat(refusal(sts("db", "1Gi").replace("spec:\n  serviceName", "spec:\n  replicas: \"3\"\n  serviceName")))
                .contains("cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of type int32");
        assertThat(refusal(sts("db", "1Gi").replace("spec:\n  serviceName", "spec:\n  replicas: 1.5\n  serviceName")))
                .contains("cannot unmarshal number 1.5");
        // past double's range: Jackson reads an infinite double, which has no exact value to compare
        assertThat(refusal(sts("db", "1Gi").replace("spec:\n  serviceName", "spec:\n  replicas: 1.0e+400\n  serviceName")))
                .contains("cannot unmarshal number");
        Path huge = write("huge-replicas.json", "{\"apiVersion\": \"apps/v1\", \"kind\": \"StatefulSet\", \"metadata\": {\"name\": \"db\"},"
                + " \"spec\": {\"replicas\": 31e2147483648}}");
        assertThatThrownBy(() -> read(reader(), huge.toString())).isInstanceOf(UserError.class).hasMessageContaining("cannot unmarshal number");
        assertThat(refusal(sts("db", "1Gi").replace("spec:\n  serviceName", "spec:\n  replicas: -1\n  serviceName")))
                .contains("spec.replicas: Invalid value: -1: must be greater than or equal to 0");
        Path f = write("ok.yaml", sts("db", "1Gi").replace("spec:\n  serviceName", "spec:\n  replicas: 2147483647\n  serviceName")
                + "---\n" + sts("two", "1Gi").replace("spec:\n  serviceName", "spec:\n  replicas: 3.0\n  serviceName"));
        List<com.fasterxml.jackson.databind.node.ObjectNode> ok = read(reader(), f.toString()).objects();
        assertThat(ok.get(0).path("spec").path("replicas").asInt()).isEqualTo(Integer.MAX_VALUE);
        assertThat(ok.get(1).path("spec").path("replicas").isInt()).as("3.0 sent as 3, as kubectl sends it").isTrue();
    }

    @Test
    void aStorageRequestThatIsNotPositiveIsRefusedAsTheClaimsWouldBe() throws IOException {
        assertThat(refusal(sts("db", "-5Gi"))).contains("StatefulSet \"db\", spec.volumeClaimTemplates[0] (\"data\"): kube-apiserver"
                + " would refuse it: spec.resources.requests[storage]: Invalid value: \"-5Gi\": must be greater than zero");
        assertThat(refusal(sts("db", "0"))).contains("Invalid value: \"0\": must be greater than zero");
    }

    @Test
    void aTemplateNameThatCannotNameAPodVolumeIsRefused() throws IOException {
        assertThat(refusal(sts("db", "1Gi").replace("{name: data}", "{name: Data}")))
                .contains("spec.volumeClaimTemplates[0].metadata.name: Invalid value: \"Data\": a lowercase RFC 1123 label");
    }

    @Test
    void aHugeDocumentIsRefusedByItsByteSizeBeforeItIsParsed() throws IOException {
        // one 64 MiB scalar: SnakeYAML scans it in quadratic time (minutes); the size check stops at 3 MiB
        Path y = dir.resolve("huge.yaml");
        try (var w = Files.newBufferedWriter(y)) {
            w.write(sts("small", "1Gi") + "---\n" + sts("db", "1Gi") + "  annotations:\n    x: ");
            char[] chunk = "a".repeat(1 << 16).toCharArray();
            for (int i = 0; i < 1024; i++) {
                w.write(chunk);
            }
            w.write("\n");
        }
        assertThatThrownBy(() -> read(reader(), y.toString())).isInstanceOf(UserError.class)
                .hasMessageStartingWith(y + ", document 2 (line 13): refused before reading it, the document is larger than"
                        + " 3145728 bytes (3 MiB)");
        Path j = dir.resolve("huge.json");
        Files.writeString(j, "{\"kind\":\"ConfigMap\"}\n{\"a\":\"" + "y".repeat(4 << 20) + "\"}");
        assertThatThrownBy(() -> read(reader(), j.toString())).isInstanceOf(UserError.class)
                .hasMessageStartingWith(j + ", document 2 (line 2): refused before reading it");
    }

    @Test
    void theSizeIsCountedInBytesPerDocument() throws IOException {
        ReadLimits small = new ReadLimits(4096, 100, 50);
        ManifestReader r = new ManifestReader(InputStream.nullInputStream(), small);
        // 1500 three-byte characters: 1500 characters, 4500 bytes
        String wide = sts("db", "1Gi").replace("metadata:\n  name: db\n", "metadata:\n  name: db\n  annotations: {x: \""
                + "€".repeat(1500) + "\"}\n");
        Path y = write("wide.yaml", wide);
        assertThatThrownBy(() -> r.read(List.of(y.toString()), false, "default", false)).isInstanceOf(UserError.class)
                .hasMessageContaining("wide.yaml, document 1 (line 1)").hasMessageContaining("larger than 4096 bytes");
        // many documents, each under the limit, are fine together
        Path many = write("many.yaml", String.join("---\n", java.util.Collections.nCopies(8, sts("db", "1Gi")))
                .replace("---\n", "---\n# x\n"));
        assertThatThrownBy(() -> r.read(List.of(many.toString()), false, "default", false))
                .hasMessageContaining("declared a second time"); // read through to the duplicate: no size refusal
    }

    /** Read ahead (while the command connects), the manifest is the one read in place, and so is its first error. */
    @Test
    void readAheadGivesWhatReadGivesAndTheSameFirstError() throws IOException {
        Path good = write("good.yaml", "# lead\n" + sts("db", "10Gi") + "---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\n"
                + sts("web", "1Gi").replace("name: web\n", "name: web\n  namespace: shop\n"));
        Path dir2 = write("more/a.yaml", sts("cache", "2Gi")).getParent();
        List<String> paths = List.of(good.toString(), dir2.toString());
        Manifest inPlace = reader().read(paths, false, "dev", false);
        Manifest ahead = reader().readAhead(paths, false).manifest("dev", false);
        assertThat(ahead).isEqualTo(inPlace);
        assertThat(ahead.namespaces()).containsExactly("dev", "shop");

        // a StatefulSet refused in document 2 is the error, not the syntax error of document 3 read after it
        Path bad = write("bad.yaml", sts("ok", "1Gi") + "---\n" + sts("nameless", "1Gi").replace("  name: nameless\n", "")
                + "---\nbroken: [\n");
        String first = catchThrowable(() -> reader().read(List.of(bad.toString()), false, "dev", false)).getMessage();
        assertThat(first).contains("document 2").contains("has no metadata.name");
        assertThatThrownBy(() -> reader().readAhead(List.of(bad.toString()), false).manifest("dev", false))
                .isInstanceOf(UserError.class).hasMessage(first);
        Path syntax = write("syntax.yaml", sts("ok", "1Gi") + "---\nbroken: [\n");
        String syntaxError = catchThrowable(() -> reader().read(List.of(syntax.toString()), false, "dev", false)).getMessage();
        assertThat(syntaxError).contains("document 2").contains("not valid YAML");
        assertThatThrownBy(() -> reader().readAhead(List.of(syntax.toString()), false).manifest("dev", false))
                .isInstanceOf(UserError.class).hasMessage(syntaxError);
        // -n checked before anything, as read does
        assertThatThrownBy(() -> reader().readAhead(List.of(good.toString()), false).manifest("Not_A_Namespace", true))
                .isInstanceOf(UserError.class).hasMessageContaining("-n");
    }
}
