package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.cli.PlanCommandTest.Run;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code plan} says of the copy scenario ({@link DemoScenario#copyCluster}: files/web, two replicas on rancher's
 * local-path class, which provisions but cannot expand), without and with {@code --copy}, on the simulated cluster.
 */
class PlanCopyTest {
    static SimCluster sim;
    static String kubeconfig;
    static String manifest;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        sim = SimCluster.start();
        sim.load(DemoScenario.copyCluster().toArray(ObjectNode[]::new));
        kubeconfig = dir.resolve("kubeconfig").toString();
        sim.writeKubeconfig(Path.of(kubeconfig));
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        StringBuilder b = new StringBuilder();
        for (ObjectNode o : DemoScenario.copyManifest()) {
            b.append(yaml.writeValueAsString(o));
        }
        manifest = dir.resolve("manifest.yaml").toString();
        Files.writeString(Path.of(manifest), b.toString(), StandardCharsets.UTF_8);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static Run plan(String... more) {
        String[] args = new String[6 + more.length];
        System.arraycopy(new String[] {"plan", "--kubeconfig", kubeconfig, "-f", manifest, "--color=never"}, 0, args, 0, 6);
        System.arraycopy(more, 0, args, 6, more.length);
        return PlanCommandTest.run(args);
    }

    @Test
    void withoutTheOptInTheRefusalSaysTheCopyIsPossibleAndNamesTheFlagOnce() {
        Run r = plan("--no-usage");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.out()).as(r.describe()).contains("files/web  REFUSED: not-expandable");
        String flat = r.out().replaceAll("\\s+", " ");
        assertThat(flat).as(r.describe()).contains("a copy to bigger volumes is possible: --copy (one pod at a time, each down while its"
                + " data is copied)");
        assertThat(flat.split("--copy", -1)).as(r.describe()).hasSize(2);
    }

    @Test
    void withTheOptInTheTableCopiesEachClaimAndSaysTheDowntime() {
        Run r = plan("--copy", "--no-usage");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).as(r.describe()).contains("files/web  COPY (copy each claim to a bigger volume, one pod at a time)");
        assertThat(r.out()).as(r.describe()).containsPattern("data-web-0 +1Gi +1Gi +→ +2Gi +local-path ✗ +Bound +copy to local-path")
                .containsPattern("data-web-1 .*copy to local-path");
        String flat = r.out().replaceAll("\\s+", " ");
        assertThat(flat).as(r.describe()).contains("downtime: one pod at a time, each down from its eviction until its copy, rebind and"
                + " restart end; how long each copy takes depends on the data (its usage is not known here, or is its node's shared disk)");
        assertThat(flat).as(r.describe()).doesNotContain("the application is down");
    }

    @Test
    void theJsonSaysTheVerdictCopyEachClaimsActionAndItsNewClass() throws Exception {
        Run r = plan("--copy", "--copy-class", "local-path", "--no-usage", "-o", "json");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.OK);
        JsonNode item = new ObjectMapper().readTree(r.out()).path("items").path(0);
        assertThat(item.path("verdict").asText()).as(r.describe()).isEqualTo("copy");
        assertThat(item.path("recreate").asBoolean()).as(r.describe()).isTrue();
        assertThat(item.path("claims")).as(r.describe()).hasSize(2).allSatisfy(c -> {
            assertThat(c.path("action").asText()).isEqualTo("copy");
            assertThat(c.path("copyStorageClass").asText()).isEqualTo("local-path");
        });
        assertThat(item.path("downtime").asText()).as(r.describe()).startsWith("downtime: one pod at a time");
    }

    @Test
    void aCopyClassThatDoesNotExistBlocks() {
        Run r = plan("--copy", "--copy-class", "bigger", "--no-usage");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.out()).as(r.describe()).contains("BLOCKED: copy-no-volume");
        assertThat(r.out().replaceAll("\\s+", " ")).as(r.describe()).contains("StorageClass \"bigger\", which does not exist");
    }
}
