package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stsresize.manifest.ManifestEditorTest;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SetSizeCommandTest {
    @TempDir Path dir;

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new Cli(new PrintWriter(out), new PrintWriter(err), new ByteArrayInputStream(new byte[0]), Map.of(), false).run(args);
        return new Run(code, out.toString(), err.toString());
    }

    private Path manifest() throws Exception {
        Path f = dir.resolve("db.yaml");
        Files.writeString(f, ManifestEditorTest.MANIFEST.replace("\n", "\r\n"));
        return f;
    }

    @Test
    void writesOnlyTheQuantityAndPrintsTheDiff() throws Exception {
        Path f = manifest();
        byte[] before = Files.readAllBytes(f);
        Run r = run("set-size", "-f", f.toString(), "-n", "shop", "shop/db", "data=20Gi", "wal=2Gi");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("--- " + f + "\n+++ " + f + "\n@@ -18,9 +18,9 @@\n")
                .contains("-          storage: \"10Gi\"   # quoted, keeps its quotes\n+          storage: \"20Gi\"   # quoted, keeps its quotes\n");
        assertThat(r.err()).contains(f + " written");
        String expected = new String(before, StandardCharsets.UTF_8).replace("\"10Gi\"", "\"20Gi\"").replace("storage: 1Gi}", "storage: 2Gi}");
        assertThat(Files.readAllBytes(f)).isEqualTo(expected.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theDiffAppliesWithPatch() throws Exception {
        Path f = dir.resolve("db.yaml");
        Files.writeString(f, ManifestEditorTest.MANIFEST);
        Path copy = Files.copy(f, dir.resolve("copy.yaml"));
        Run r = run("set-size", "--dry-run", "-f", f.toString(), "db", "-n", "shop", "data=20Gi", "wal=2Gi");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/patch")), "patch(1) is not installed");
        Process p = new ProcessBuilder("patch", "-s", copy.toString()).redirectErrorStream(true).start();
        p.getOutputStream().write(r.out().getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
        assertThat(Files.readString(copy)).isEqualTo(ManifestEditorTest.MANIFEST.replace("\"10Gi\"", "\"20Gi\"")
                .replace("storage: 1Gi}", "storage: 2Gi}"));
    }

    /** -n means what it means for every command: without it, a NAME alone is in the kubeconfig context's namespace. */
    @Test
    void aNameAloneIsInTheContextsNamespaceAsForEveryCommand() throws Exception {
        Path f = manifest();
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, "apiVersion: v1\nkind: Config\ncurrent-context: ops\n"
                + "contexts: [{name: ops, context: {cluster: c, user: u, namespace: shop}}]\n"
                + "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\nusers: [{name: u, user: {token: t}}]\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new Cli(new PrintWriter(out), new PrintWriter(err), new ByteArrayInputStream(new byte[0]),
                Map.of("KUBECONFIG", kubeconfig.toString()), false).run("set-size", "--dry-run", "-f", f.toString(), "db", "data=20Gi");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("+          storage: \"20Gi\"");
        // control: the context's namespace is not shop, so db is not found there
        Files.writeString(kubeconfig, Files.readString(kubeconfig).replace("namespace: shop", "namespace: other"));
        Run elsewhere = new Run(new Cli(new PrintWriter(new StringWriter()), new PrintWriter(err = new StringWriter()),
                new ByteArrayInputStream(new byte[0]), Map.of("KUBECONFIG", kubeconfig.toString()), false)
                .run("set-size", "--dry-run", "-f", f.toString(), "db", "data=20Gi"), "", err.toString());
        assertThat(elsewhere.code()).isNotZero();
        assertThat(elsewhere.err()).startsWith("error: ");
    }

    /** set-size sends nothing: an unreadable ambient kubeconfig only costs the context's namespace, said in a note. */
    @Test
    void anAmbientKubeconfigThatIsNotThereDoesNotStopAnEditNamingItsNamespace() throws Exception {
        Path f = manifest();
        StringWriter err = new StringWriter();
        int code = new Cli(new PrintWriter(new StringWriter()), new PrintWriter(err), new ByteArrayInputStream(new byte[0]),
                Map.of("KUBECONFIG", dir.resolve("absent").toString()), false).run("set-size", "--dry-run", "-f", f.toString(), "db",
                "data=20Gi");
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).contains("note: the kubeconfig gives no namespace");
        // control: the same kubeconfig named by the flag is the operator's input, refused as every command refuses it
        Run flagged = run("set-size", "--dry-run", "-f", f.toString(), "--kubeconfig", dir.resolve("absent").toString(), "shop/db",
                "data=20Gi");
        assertThat(flagged.code()).isEqualTo(1);
        assertThat(flagged.err()).startsWith("error: ");
    }

    @Test
    void dryRunWritesNothing() throws Exception {
        Path f = manifest();
        byte[] before = Files.readAllBytes(f);
        Run r = run("set-size", "--dry-run", "-f", f.toString(), "-n", "shop", "db", "data=20Gi");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("+          storage: \"20Gi\"");
        assertThat(r.err()).contains("not written (--dry-run=client)");
        assertThat(Files.readAllBytes(f)).isEqualTo(before);
    }

    @Test
    void refusalsWriteNothingAndNameTheFileAndLine() throws Exception {
        Path f = manifest();
        byte[] before = Files.readAllBytes(f);
        Run shrink = run("set-size", "-f", f.toString(), "-n", "shop", "shop/db", "wal=2Gi", "data=5Gi");
        assertThat(shrink.code()).isEqualTo(ExitCodes.FAILED);
        assertThat(shrink.err()).startsWith("error: " + f + ", line 21: ").contains("only grow");
        assertThat(shrink.out()).isEmpty();
        Run missing = run("set-size", "-f", f.toString(), "shop/cache", "data=20Gi");
        assertThat(missing.err()).contains("no StatefulSet shop/cache").contains("taken to be in default");
        assertThat(run("set-size", "-f", "-", "shop/db", "data=20Gi").err()).contains("cannot edit stdin");
        assertThat(run("set-size", "-f", f.toString(), "shop/db", "data").err()).contains("TEMPLATE=SIZE");
        assertThat(run("set-size", "-f", f.toString(), "shop/db", "data=1Gi", "data=2Gi").err()).contains("once per template");
        assertThat(run("set-size", "-f", f.toString(), "shop/db").err()).contains("TEMPLATE=SIZE");
        assertThat(Files.readAllBytes(f)).isEqualTo(before);
    }
}
