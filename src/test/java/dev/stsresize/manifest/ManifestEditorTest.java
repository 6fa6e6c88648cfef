package dev.stsresize.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.UserError;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class ManifestEditorTest {
    /** Comments, an anchor elsewhere, quoted and unquoted sizes, two documents, two templates, a flow mapping. */
    public static final String MANIFEST = """
            # the shop's databases
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: common, labels: {app: db}}
            data: {storage: 10Gi}   # not a StatefulSet: never touched
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: db            # no namespace: -n's
              labels: &labels {app: db}
            spec:
              template: {metadata: {labels: *labels}}
              volumeClaimTemplates:
              - metadata:
                  name: data
                spec:
                  accessModes: ["ReadWriteOnce"]
                  resources:
                    requests:
                      storage: "10Gi"   # quoted, keeps its quotes
              - metadata: {name: wal}
                spec: {resources: {requests: {storage: 1Gi}}}   # flow style
            ---
            """ + dbWithOneClaim("{name: db, namespace: other}", "          storage: '5Gi'");

    static String edit(String text, String ns, String name, String... pairs) {
        Map<String, String> sizes = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            sizes.put(pairs[i], pairs[i + 1]);
        }
        return new ManifestEditor("db.yaml", text, "shop").setSizes(ns, name, sizes);
    }

    @Test
    void onlyTheQuantitiesChangeByteForByte() {
        String after = edit(MANIFEST, "shop", "db", "data", "20Gi", "wal", "1500Mi");
        String expected = MANIFEST.replace("storage: \"10Gi\"", "storage: \"20Gi\"").replace("{storage: 1Gi}}}", "{storage: 1500Mi}}}");
        assertThat(after).isEqualTo(expected);
        assertThat(after).contains("data: {storage: 10Gi}").contains("storage: '5Gi'");
    }

    @Test
    void theNamespacedDocumentIsFoundByItsNamespace() {
        assertThat(edit(MANIFEST, "other", "db", "data", "6Gi")).isEqualTo(MANIFEST.replace("'5Gi'", "'6Gi'"));
    }

    @Test
    void crlfLineEndingsAndNonAsciiTextBeforeTheSizeAreKept() {
        String crlf = ("# Größe 😀\n" + MANIFEST).replace("\n", "\r\n");
        String after = edit(crlf, "shop", "db", "wal", "2Gi");
        assertThat(after).isEqualTo(crlf.replace("{storage: 1Gi}}}", "{storage: 2Gi}}}"));
    }

    @Test
    void aByteOrderMarkIsKept() {
        String bom = "\uFEFF" + MANIFEST;
        assertThat(edit(bom, "other", "db", "data", "6Gi")).isEqualTo(bom.replace("'5Gi'", "'6Gi'"));
    }

    @Test
    void jsonManifestsAreEditedInPlace() {
        String json = """
                {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "shop"},
                 "spec": {"volumeClaimTemplates": [{"metadata": {"name": "data"},
                   "spec": {"resources": {"requests": {"storage": "10Gi"}}}}]}}
                """;
        assertThat(edit(json, "shop", "db", "data", "11Gi")).isEqualTo(json.replace("\"10Gi\"", "\"11Gi\""));
    }

    @Test
    void aListKindsItemsAreSearched() {
        String list = """
                apiVersion: v1
                kind: List
                items:
                - apiVersion: apps/v1
                  kind: StatefulSet
                  metadata: {name: db}
                  spec: {volumeClaimTemplates: [{metadata: {name: data}, spec: {resources: {requests: {storage: 3Gi}}}}]}
                """;
        assertThat(edit(list, "shop", "db", "data", "4Gi")).isEqualTo(list.replace("3Gi", "4Gi"));
    }

    static String sizeWritten(String storageLine) {
        return dbWithOneClaim("{name: db}", storageLine);
    }

    /** StatefulSet db of this metadata with one claim template, data, whose requests hold the given line. */
    static String dbWithOneClaim(String metadata, String requestsLine) {
        return """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: %s
                spec:
                  volumeClaimTemplates:
                  - metadata: {name: data}
                    spec:
                      resources:
                        requests:
                %s
                """.formatted(metadata, requestsLine);
    }

    static String refusal(String text, String template, String size) {
        try {
            edit(text, "shop", "db", template, size);
        } catch (UserError e) {
            return e.getMessage();
        }
        throw new AssertionError("not refused");
    }

    @Test
    void refusesSizesItCannotEditInPlaceNamingTheLine() {
        String plain = sizeWritten("          storage: 10Gi");
        assertThat(edit(plain, "shop", "db", "data", "12Gi")).isEqualTo(plain.replace("10Gi", "12Gi")); // the control
        assertThat(refusal(sizeWritten("          storage: &size 10Gi"), "data", "20Gi"))
                .startsWith("db.yaml, line 10: ").contains("anchor &size declared at line 10");
        assertThat(refusal("x: &s 10Gi\n" + sizeWritten("          storage: *s"), "data", "20Gi"))
                .startsWith("db.yaml, line 11: ").contains("anchor &s declared at line 1");
        assertThat(refusal("x: &r {requests: {storage: 10Gi}}\n" + sizeWritten("          storage: 1Gi").replace("requests:\n          storage: 1Gi", "*r"),
                "data", "20Gi")).startsWith("db.yaml, line 9: ").contains("anchor &r declared at line 1");
        assertThat(refusal("base: &req {storage: 10Gi}\n" + sizeWritten("          <<: *req"), "data", "20Gi"))
                .startsWith("db.yaml, line 11: ").contains("merge key");
        assertThat(refusal(sizeWritten("          storage: \"10\\x47i\""), "data", "20Gi"))
                .startsWith("db.yaml, line 10: ").contains("cannot be changed in place");
        assertThat(refusal(sizeWritten("          storage: |\n            10Gi"), "data", "20Gi"))
                .startsWith("db.yaml, line 10: ").contains("cannot be changed in place");
        assertThat(refusal(sizeWritten("          storage: \"{{ .Values.size }}\""), "data", "20Gi"))
                .startsWith("db.yaml, line 10: ").contains("Helm template").contains("values file");
        assertThat(refusal(sizeWritten("          storage: {{ .Values.size }}"), "data", "20Gi"))
                .startsWith("db.yaml, line 10: ").contains("Helm");
        assertThat(refusal(sizeWritten("          storage: lots"), "data", "20Gi")).contains("not a quantity");
        // an escape cut off by the end of the file: SnakeYAML's scanner throws a NumberFormatException of its own
        assertThat(refusal(sizeWritten("          storage: \"10Gi\\u").stripTrailing(), "data", "20Gi")).startsWith("db.yaml")
                .contains("not valid YAML or JSON");
    }

    @Test
    void refusesWhatIsNotFoundOrNotAGrowth() {
        assertThat(refusal(MANIFEST, "logs", "20Gi")).startsWith("db.yaml, line 15: ").contains("no volumeClaimTemplate logs")
                .contains("data, wal");
        assertThat(refusal(MANIFEST, "data", "10Gi")).startsWith("db.yaml, line 21: ").contains("not larger").contains("only grow");
        assertThat(refusal(MANIFEST, "data", "10240Mi")).contains("not larger"); // by value, not by text
        assertThat(refusal(MANIFEST, "data", "9Gi")).contains("not larger");
        assertThat(refusal(MANIFEST, "data", "twenty")).contains("\"twenty\"").contains("not a storage quantity");
        assertThat(refusal(MANIFEST, "data", "-20Gi")).contains("not a storage quantity");
        assertThatThrownBy(() -> edit(MANIFEST, "shop", "cache", "data", "20Gi")).isInstanceOf(UserError.class)
                .hasMessageContaining("no StatefulSet shop/cache").hasMessageContaining("shop/db (line 7), other/db (line 25).").hasMessageNotContaining("Helm");
        String values = "persistence:\n  size: 10Gi\n  storageClass: fast\n";
        assertThat(refusal(values, "data", "20Gi")).contains("no StatefulSet shop/db").contains("Line 3").contains("Helm values");
        assertThat(refusal("a: [b\n", "data", "20Gi")).startsWith("db.yaml, line 2").contains("not valid YAML");
    }

    @Test
    void namesTheLineWhereTheSecondTemplatesSharedSizeIsUsed() {
        String text = """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db}
                spec:
                  volumeClaimTemplates:
                  - metadata: {name: data}
                    spec: {resources: {requests: {storage: 10Gi}}}
                  - metadata: {name: wal}
                    spec:
                      resources:
                        requests:
                          cpu: 1
                          storage: &w 1Gi
                """;
        assertThat(refusal2(text, "data", "20Gi", "wal", "2Gi")).startsWith("db.yaml, line 13: ").contains("anchor &w declared at line 13");
    }

    static String refusal2(String text, String... pairs) {
        try {
            edit(text, "shop", "db", pairs);
        } catch (UserError e) {
            return e.getMessage();
        }
        throw new AssertionError("not refused");
    }

    @Test
    void refusesADuplicateKeyRatherThanEditOneOfTwoSizes() {
        assertThat(refusal(sizeWritten("          storage: 10Gi\n          storage: 20Gi"), "data", "30Gi"))
                .startsWith("db.yaml, line 11: ").contains("storage of template data of StatefulSet shop/db is written twice (lines 10 and 11)");
    }

    @Test
    void refusesZeroAsNoSizeAndAFileWithoutAnySizeWithoutPointingAtALine() {
        assertThat(refusal(MANIFEST, "data", "0")).contains("\"0\"").contains("not a storage quantity");
        assertThat(refusal("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", "data", "20Gi"))
                .contains("It declares no StatefulSet.").doesNotContain("Line");
    }

    @Test
    void aRefusalEditsNothingEvenWhenAnEarlierTemplateWasFine() {
        assertThatThrownBy(() -> edit(MANIFEST, "shop", "db", "wal", "2Gi", "data", "1Gi")).hasMessageContaining("not larger");
    }

    @Test
    void theDiffShowsTheChangedLinesWithContext() {
        String after = edit(MANIFEST, "shop", "db", "data", "20Gi", "wal", "2Gi");
        assertThat(UnifiedDiff.of("db.yaml", MANIFEST, after)).isEqualTo("""
                --- db.yaml
                +++ db.yaml
                @@ -18,9 +18,9 @@
                       accessModes: ["ReadWriteOnce"]
                       resources:
                         requests:
                -          storage: "10Gi"   # quoted, keeps its quotes
                +          storage: "20Gi"   # quoted, keeps its quotes
                   - metadata: {name: wal}
                -    spec: {resources: {requests: {storage: 1Gi}}}   # flow style
                +    spec: {resources: {requests: {storage: 2Gi}}}   # flow style
                 ---
                 apiVersion: apps/v1
                 kind: StatefulSet
                """);
        assertThat(UnifiedDiff.of("db.yaml", MANIFEST, MANIFEST)).isEmpty();
    }
}
