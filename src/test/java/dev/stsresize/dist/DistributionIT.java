package dev.stsresize.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stsresize.cli.Version;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release as users get it: the archive the build wrote (reproducible, complete), the krew
 * manifests that point at it, and an install laid out as krew lays it out, driven by the real kubectl.
 */
class DistributionIT {
    static final Path ARCHIVE = Paths.get(System.getProperty("stsresize.archive",
            "target/kubectl-stsresize-v" + Version.get() + ".tar.gz")).toAbsolutePath();
    static final Path TARGET = ARCHIVE.getParent();
    static final boolean RELEASE = Boolean.getBoolean("stsresize.release");
    static final YAMLMapper YAML = new YAMLMapper();

    record Run(int code, String out, String err) {
        String describe() {
            return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    @Test
    void theBuildsArchiveIsReproducedByteForByteFromItsInputs(@TempDir Path tmp) throws IOException {
        String built = Files.readString(ARCHIVE.resolveSibling(ARCHIVE.getFileName() + ".sha256"));
        assertThat(built).matches("[0-9a-f]{64}  kubectl-stsresize-v" + Version.get() + "\\.tar\\.gz\n");
        assertThat(ReleaseArchive.sha256(Files.readAllBytes(ARCHIVE))).isEqualTo(built.substring(0, 64));
        // the same inputs through the same code, as a second build of this commit would give them
        String again = ReleaseArchive.write(tmp.resolve(ARCHIVE.getFileName()), Instant.parse("2026-12-01T00:00:00Z"), List.of(
                new ReleaseArchive.Entry("kubectl-stsresize", TARGET.resolve("kubectl-stsresize"), 0755),
                new ReleaseArchive.Entry("kubectl-stsresize.jar", TARGET.resolve("kubectl-stsresize.jar"), 0644),
                new ReleaseArchive.Entry("kubectl_complete-stsresize", TARGET.resolve("kubectl_complete-stsresize"), 0755),
                new ReleaseArchive.Entry("LICENSE", Path.of("LICENSE"), 0644),
                new ReleaseArchive.Entry("README.md", Path.of("README.md"), 0644),
                new ReleaseArchive.Entry("kubectl-stsresize.bash", completion("bash"), 0644),
                new ReleaseArchive.Entry("kubectl-stsresize.zsh", completion("zsh"), 0644),
                new ReleaseArchive.Entry("kubectl-stsresize.fish", completion("fish"), 0644)));
        assertThat(again).as("the pom's outputTimestamp and entry list match this test's").isEqualTo(built.substring(0, 64));
    }

    @Test
    void theArchiveHoldsTheLauncherKeyedToItsJar(@TempDir Path tmp) throws IOException {
        Map<String, Path> files = unpack(ARCHIVE, tmp);
        assertThat(files.keySet()).containsExactlyInAnyOrder("kubectl-stsresize", "kubectl-stsresize.jar",
                "kubectl_complete-stsresize", "LICENSE", "README.md", "kubectl-stsresize.bash", "kubectl-stsresize.zsh",
                "kubectl-stsresize.fish");
        assertThat(Files.readString(files.get("LICENSE"))).contains("Apache License");
        assertThat(Files.isExecutable(files.get("kubectl-stsresize"))).isTrue();
        assertThat(Files.isExecutable(files.get("kubectl_complete-stsresize"))).isTrue();
        String jarSum = ReleaseArchive.sha256(Files.readAllBytes(files.get("kubectl-stsresize.jar")));
        assertThat(Files.readString(files.get("kubectl-stsresize"))).contains("jar_sum=" + jarSum + "\n");
    }

    @Test
    void pluginYamlPointsAtThisArchiveAndKrewYamlRendersToIt() throws IOException {
        JsonNode plugin = KrewRulesTest.pluginYaml();
        String tag = "v" + Version.get();
        assertThat(plugin.path("spec").path("version").asText()).isEqualTo(tag);
        String archiveSha = Files.readString(ARCHIVE.resolveSibling(ARCHIVE.getFileName() + ".sha256")).substring(0, 64);
        for (JsonNode pl : plugin.path("spec").path("platforms")) {
            assertThat(pl.path("uri").asText()).endsWith("/releases/download/" + tag + "/" + ARCHIVE.getFileName());
            assertThat(pl.path("bin").asText()).isEqualTo("kubectl-stsresize");
            if (RELEASE) {
                assertThat(pl.path("sha256").asText())
                        .as("a release needs plugin.yaml's sha256 to be the archive's: set it to " + archiveSha)
                        .isEqualTo(archiveSha);
            }
        }
        // krew-release-bot: {{ .TagName }} is the tag, addURIAndSha writes the uri and the archive's sha256
        String template = Files.readString(Path.of("krew/.krew.yaml"));
        String sha = plugin.path("spec").path("platforms").get(0).path("sha256").asText();
        String rendered = template.replaceAll("\\{\\{ addURIAndSha \"([^\"]*)\" \\.TagName }}", "uri: $1\n    sha256: " + sha)
                .replace("{{ .TagName }}", tag);
        assertThat(rendered).doesNotContain("{{");
        JsonNode fromTemplate = YAML.readTree(rendered);
        assertThat(KrewRules.check("stsresize", fromTemplate)).isEmpty();
        assertThat(fromTemplate).as("krew/.krew.yaml renders to plugin.yaml").isEqualTo(plugin);
    }

    @Test
    void theRefreshScriptSetsEveryPlatformsSha256ToTheBuiltArchive(@TempDir Path tmp) throws Exception {
        // docs/developing.md, "The release archive": the one command before a release; here on a copy of the checkout's files
        Files.createDirectories(tmp.resolve("krew"));
        Path script = Files.copy(Path.of("krew/refresh-sha256.sh"), tmp.resolve("krew/refresh-sha256.sh"));
        String original = Files.readString(Path.of("plugin.yaml")).replaceAll("sha256: [0-9a-f]{64}", "sha256: " + "0".repeat(64));
        Files.writeString(tmp.resolve("plugin.yaml"), original);
        Path sums = Files.createDirectories(tmp.resolve("target")).resolve(ARCHIVE.getFileName() + ".sha256");
        Files.copy(ARCHIVE.resolveSibling(ARCHIVE.getFileName() + ".sha256"), sums);
        String archiveSha = Files.readString(sums).substring(0, 64);

        Run r = run(Map.of(), tmp, "sh", script.toString());
        assertThat(r.code()).as(r.describe()).isZero();
        String refreshed = Files.readString(tmp.resolve("plugin.yaml"));
        assertThat(refreshed).isEqualTo(original.replace("0".repeat(64), archiveSha));
        assertThat(KrewRules.check("stsresize", YAML.readTree(refreshed))).isEmpty();

        Files.delete(sums);
        Run missing = run(Map.of(), tmp, "sh", script.toString());
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("mvn -B -q package -DskipTests");
    }

    @Test
    void installedAsKrewInstallsItKubectlRunsItListsItAndCompletesIt(@TempDir Path tmp) throws Exception {
        assumeTrue(onPath("kubectl"), "kubectl is not installed: the krew-install test needs the real kubectl");
        // krew: verify the sha256, unpack into store/<plugin>/<version>/, link bin onto PATH
        Path store = Files.createDirectories(tmp.resolve("krew/store/stsresize/v" + Version.get()));
        unpack(ARCHIVE, store);
        Path bin = Files.createDirectories(tmp.resolve("krew/bin"));
        Files.createSymbolicLink(bin.resolve("kubectl-stsresize"), store.resolve("kubectl-stsresize"));
        Map<String, String> env = Map.of("PATH", bin + ":" + System.getenv("PATH"),
                "KUBECONFIG", tmp.resolve("none").toString(), "XDG_CACHE_HOME", tmp.resolve("cache").toString());

        Run help = run(env, tmp, "kubectl", "stsresize", "--help");
        assertThat(help.code()).as(help.describe()).isZero();
        assertThat(help.out()).as(help.describe()).startsWith("Usage: kubectl stsresize");
        assertThat(help.err()).as(help.describe()).isEmpty();

        Run list = run(env, tmp, "kubectl", "plugin", "list");
        assertThat(list.out()).as(list.describe()).contains(bin.resolve("kubectl-stsresize").toString());
        assertThat(list.err()).as(list.describe()).doesNotContain("kubectl-stsresize");

        // the caveats' one command: a copy of the completion helper beside the plugin's link
        Files.copy(store.resolve("kubectl_complete-stsresize"), bin.resolve("kubectl_complete-stsresize"));
        Run complete = run(env, tmp, "kubectl", "__complete", "stsresize", "pl");
        assumeTrue(complete.out().contains("plan") || complete.err().contains("kubectl_complete-stsresize"),
                "this kubectl does not complete plugins (that needs 1.26+)");
        assertThat(complete.out()).as(complete.describe()).contains("plan\t").contains(":4");
    }

    static Path completion(String shell) {
        return Path.of("src/main/resources/dev/stsresize/completion/kubectl-stsresize." + shell);
    }

    /** Unpacks a tar.gz as krew does: regular files with their modes. */
    static Map<String, Path> unpack(Path archive, Path into) throws IOException {
        byte[] tar = new GZIPInputStream(new ByteArrayInputStream(Files.readAllBytes(archive))).readAllBytes();
        Map<String, Path> files = new HashMap<>();
        int off = 0;
        while (off + 512 <= tar.length && tar[off] != 0) {
            String name = text(tar, off, 100);
            int mode = Integer.parseInt(text(tar, off + 100, 8).trim(), 8);
            int size = Integer.parseInt(text(tar, off + 124, 12).trim(), 8);
            assertThat(tar[off + 156]).as("only regular files").isEqualTo((byte) '0');
            Path file = into.resolve(name);
            Files.createDirectories(file.getParent());
            Files.write(file, java.util.Arrays.copyOfRange(tar, off + 512, off + 512 + size));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(perms(mode)));
            files.put(name, file);
            off += 512 + (size + 511) / 512 * 512;
        }
        return files;
    }

    private static String perms(int mode) {
        StringBuilder b = new StringBuilder();
        String rwx = "rwx";
        for (int bit = 8; bit >= 0; bit--) {
            b.append((mode & (1 << bit)) != 0 ? rwx.charAt(2 - bit % 3) : '-');
        }
        return b.toString();
    }

    private static String text(byte[] b, int off, int len) {
        int end = off;
        while (end < off + len && b[end] != 0) {
            end++;
        }
        return new String(b, off, end - off, StandardCharsets.US_ASCII);
    }

    static Run run(Map<String, String> env, Path dir, String... cmd) throws IOException, InterruptedException {
        var r = dev.stsresize.testkit.Processes.run(env, dir, java.time.Duration.ofSeconds(120), cmd);
        return new Run(r.code(), r.out(), r.err());
    }

    static boolean onPath(String tool) {
        return dev.stsresize.testkit.Processes.onPath(tool);
    }

}
