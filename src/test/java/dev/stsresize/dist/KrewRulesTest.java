package dev.stsresize.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** plugin.yaml passes krew's rules, and each rule proves it catches what it is for. */
class KrewRulesTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    static JsonNode pluginYaml() throws IOException {
        return YAML.readTree(Files.readString(Path.of("plugin.yaml")));
    }

    @Test
    void pluginYamlPassesKrewsRules() throws IOException {
        JsonNode p = pluginYaml();
        assertThat(KrewRules.check("stsresize", p)).isEmpty();
        assertThat(p.path("spec").path("platforms")).hasSize(4);
        assertThat(p.path("spec").path("caveats").asText()).contains("Java 17").contains("apt-get install")
                .contains("brew install").contains("kubectl_complete-stsresize");
    }

    @Test
    void everyRuleFails() throws IOException {
        expect(p -> p.put("apiVersion", "krew.googlecontainertools.github.com/v1alpha1"), "apiVersion");
        expect(p -> p.put("kind", "Plug"), "kind must be Plugin");
        expect(p -> ((ObjectNode) p.get("metadata")).put("name", "sts resize"), "must match");
        expect(p -> ((ObjectNode) p.get("metadata")).put("name", "other"), "should be named");
        expect(p -> spec(p).put("shortDescription", ""), "short description");
        expect(p -> spec(p).put("shortDescription", "two\nlines"), "line breaks");
        expect(p -> spec(p).put("shortDescription", "x".repeat(71)), "more than 70");
        expect(p -> spec(p).put("description", "y".repeat(81)), "longer than 80");
        expect(p -> spec(p).put("description", "Use it with --dry-run."), "lists flags");
        expect(p -> spec(p).put("version", "0.1.0"), "semver");
        expect(p -> spec(p).putArray("platforms"), "should have a platform");
        expect(p -> platform(p).put("sha256", "ABC"), "is not valid");
        expect(p -> platform(p).put("sha256", "A".repeat(64)), "is not valid");
        expect(p -> platform(p).remove("uri"), "`uri` has to be set");
        expect(p -> platform(p).remove("bin"), "`bin` has to be set");
        expect(p -> platform(p).remove("selector"), "nil selector");
        expect(p -> ((ObjectNode) platform(p).get("selector")).putObject("matchLabels"), "specified but empty");
        expect(p -> ((ObjectNode) platform(p).get("selector").get("matchLabels")).put("distro", "debian"), "not supported");
        expect(p -> ((ObjectNode) platform(p).get("selector").get("matchLabels")).remove("arch"), "selectors overlap");
    }

    private static ObjectNode spec(ObjectNode p) {
        return (ObjectNode) p.get("spec");
    }

    private static ObjectNode platform(ObjectNode p) {
        return (ObjectNode) ((ArrayNode) spec(p).get("platforms")).get(0);
    }

    private static void expect(Consumer<ObjectNode> breakIt, String problem) throws IOException {
        ObjectNode p = (ObjectNode) pluginYaml();
        breakIt.accept(p);
        assertThat(KrewRules.check("stsresize", p)).as(problem).anyMatch(s -> s.contains(problem));
    }
}
