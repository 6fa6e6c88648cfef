package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.testkit.Processes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A StatefulSet applied client-side ({@code kubectl apply -f}, which keeps {@code last-applied-configuration}) is
 * still in step with kubectl after the converge: {@code kubectl diff} of the new manifest finds nothing and
 * {@code kubectl apply -f} of it changes nothing. Run with the real kubectl against the simulated cluster.
 */
@Tag("slow")
class KubectlStaysTrueTest {
    @TempDir Path home;

    private static Processes.Result kubectl(Harness h, Path dir, String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "kubectl";
        System.arraycopy(args, 0, cmd, 1, args.length);
        return Processes.run(Map.of("KUBECONFIG", h.kubeconfig().toString(), "KUBECTL_EXTERNAL_DIFF", ""), dir, Duration.ofSeconds(60), cmd);
    }

    @Test
    void after_the_converge_kubectl_diff_and_apply_of_the_new_manifest_agree_with_the_cluster() throws Exception {
        Assumptions.assumeTrue(Processes.onPath("kubectl"), "kubectl is not on PATH: the parity with kubectl diff and apply is not checked");
        Assumptions.assumeTrue(Processes.onPath("diff"), "diff is not on PATH: kubectl diff needs it");
        try (Harness h = Harness.start(home.resolve("sim"), DemoScenario.cluster())) {
            ObjectNode declared = ApplyCommandTest.only(DemoScenario.manifest(), "postgres").get(0);
            String live = h.get("apps/v1", "StatefulSet", "shop", "postgres").at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage")
                    .asText();
            String target = declared.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText();
            assertThat(live).as("the demo's postgres grows").isNotEqualTo(target);
            ObjectNode old = declared.deepCopy();
            ((ObjectNode) old.at("/spec/volumeClaimTemplates/0/spec/resources/requests")).put("storage", live);
            Path before = Commands.manifest(home, List.of(old));
            Path after = Commands.manifest(home, List.of(declared));

            // the operator's way so far: the StatefulSet created by client-side apply (manager kubectl-client-side-apply,
            // the annotation written); the pods and claims stay and are adopted
            // (an orphan delete with the UID, as every delete of these tests must be)
            Path options = Files.writeString(home.resolve("delete.json"), "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
                    + "\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"" + Harness.uid(h.get("apps/v1", "StatefulSet", "shop",
                    "postgres")) + "\"}}");
            Processes.Result orphaned = kubectl(h, home, "delete", "--raw", "/apis/apps/v1/namespaces/shop/statefulsets/postgres", "-f",
                    options.toString());
            assertThat(orphaned.code()).as(orphaned.err()).isZero();
            Harness.await("the orphan delete", () -> h.get("apps/v1", "StatefulSet", "shop", "postgres") == null);
            Processes.Result created = kubectl(h, home, "apply", "-f", before.toString());
            assertThat(created.code()).as(created.err()).isZero();
            assertThat(h.get("apps/v1", "StatefulSet", "shop", "postgres").at("/metadata/annotations")
                    .has(LastApplied.ANNOTATION)).as("applied client-side").isTrue();

            Commands.Run converged = Commands.run(h, "apply", "--yes", "-f", after.toString());
            assertThat(converged.code()).as(converged.describe()).isZero();
            assertThat(converged.out()).as(converged.describe()).contains("shop/postgres: converged");

            Processes.Result lastApplied = kubectl(h, home, "apply", "view-last-applied", "statefulset/postgres", "-n", "shop", "-o", "json");
            assertThat(lastApplied.code()).as(lastApplied.err()).isZero();
            assertThat(Harness.YAML.readTree(lastApplied.out()).at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText())
                    .as("what kubectl says was last applied: " + lastApplied.out()).isEqualTo(target);
            Processes.Result diff = kubectl(h, home, "diff", "-f", after.toString());
            assertThat(diff.code()).as("kubectl diff of the new manifest after the converge:\n" + diff.out() + diff.err()).isZero();
            assertThat(diff.out()).isEmpty();
            // the old manifest applied again is a change kubectl sees (and the server refuses), not "unchanged"
            Processes.Result back = kubectl(h, home, "apply", "-f", before.toString());
            assertThat(back.out() + back.err()).as("kubectl apply -f of the old manifest").doesNotContain("unchanged");
            assertThat(back.code()).as(back.out() + back.err()).isNotZero();
            assertThat(h.get("apps/v1", "StatefulSet", "shop", "postgres").at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage")
                    .asText()).isEqualTo(target);
        }
    }

    @Test
    void the_annotation_is_what_kubectl_writes_keys_in_order_html_escaped_with_a_newline() {
        ObjectNode o = MemoryCluster.json("{'kind':'StatefulSet','apiVersion':'apps/v1','metadata':{'name':'a&b','namespace':'shop',"
                + "'annotations':{'kubectl.kubernetes.io/last-applied-configuration':'old','z':'<x>'}},'spec':{'replicas':3}}");
        assertThat(LastApplied.of(o)).isEqualTo("{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"metadata\":{\"annotations\":"
                + "{\"z\":\"\\u003cx\\u003e\"},\"name\":\"a\\u0026b\",\"namespace\":\"shop\"},\"spec\":{\"replicas\":3}}\n");
        ObjectNode bare = MemoryCluster.json("{'kind':'StatefulSet','metadata':{'name':'db'}}");
        assertThat(LastApplied.of(bare)).as("an empty annotations map, as kubectl keeps it")
                .isEqualTo("{\"kind\":\"StatefulSet\",\"metadata\":{\"annotations\":{},\"name\":\"db\"}}\n");
        assertThat(bare.path("metadata").has("annotations")).as("the manifest's object itself is left as read").isFalse();
    }
}
