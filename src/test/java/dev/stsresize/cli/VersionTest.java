package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The build says what it is: the version and the commit it was built from, in the line and the document. */
class VersionTest {
    /** The classes under test were built by this checkout's build: their commit is the checkout's HEAD. */
    @Test
    void theBuildNamesTheCommitItWasBuiltFrom() throws Exception {
        String head = head();
        assumeTrue(!head.isEmpty(), "no git or no repository here: the build names no commit, and nothing to compare it with");
        assertThat(Version.commit()).isEqualTo(head);
        assertThat(Version.line()).isEqualTo("kubectl-stsresize " + Version.get() + " (commit " + head.substring(0, 12)
                + (Version.modified() ? ", modified" : "") + ")");
    }

    @Test
    void versionPrintsTheLineAndTheDocument() throws Exception {
        assertThat(run("version")).isEqualTo(Version.line() + "\n");
        JsonNode doc = new ObjectMapper().readTree(run("version", "-o", "json"));
        assertThat(doc.path("kind").asText()).isEqualTo("Version");
        assertThat(doc.path("version").asText()).isEqualTo(Version.get());
        assertThat(doc.path("commit").asText()).isEqualTo(Version.commit());
        assertThat(doc.path("modified").isBoolean()).isTrue();
        assertThat(run("version", "-o", "yaml")).contains("kind: Version\n").contains("commit: ");
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        int code = new Cli(new PrintWriter(out), new PrintWriter(new StringWriter()),
                Environment.of(InputStream.nullInputStream(), Map.of(), false)).run(args);
        assertThat(code).isZero();
        return out.toString();
    }

    private static String head() throws Exception {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && out.matches("[0-9a-f]{40}") ? out : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
