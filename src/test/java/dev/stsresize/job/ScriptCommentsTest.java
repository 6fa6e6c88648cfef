package dev.stsresize.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The script's own comments are read by whoever audits the Job: they must be true for every Job render-job writes,
 * whatever the target version and whether the cluster-scoped reads are granted.
 */
class ScriptCommentsTest {
    private static final String HEADER = Script.text().substring(0, Script.text().indexOf("\nset "));

    private static List<ObjectNode> render(KubernetesVersion v, boolean storageRead) {
        return JobRenderer.render(JobSpec.of("shop", List.of(JobRendererTest.db()), v).withStorageRead(storageRead));
    }

    @Test
    void the_pod_failure_policy_is_said_only_for_the_versions_it_is_rendered_for() {
        KubernetesVersion before = new KubernetesVersion(1, 25);
        assertThat(JobEndToEndTest.jobOf(render(before, true)).path("spec").has("podFailurePolicy")).as("1.25: none rendered").isFalse();
        assertThat(JobEndToEndTest.jobOf(render(KubernetesVersion.POD_FAILURE_POLICY, true)).path("spec").has("podFailurePolicy")).isTrue();
        assertThat(HEADER).as("the script's header").doesNotContain("the Job's podFailurePolicy fails the Job")
                .contains("podFailurePolicy,\n#       for Kubernetes " + KubernetesVersion.POD_FAILURE_POLICY.major() + "."
                        + KubernetesVersion.POD_FAILURE_POLICY.minor() + " and later");
    }

    @Test
    void the_cluster_scoped_reads_are_said_as_rendered_granted_by_default_none_with_namespaced_only() {
        assertThat(render(JobRendererTest.V1_32, true)).as("by default a ClusterRole is rendered")
                .anyMatch(o -> o.path("kind").asText().equals("ClusterRole"));
        assertThat(render(JobRendererTest.V1_32, false)).as("--namespaced-only")
                .noneMatch(o -> o.path("kind").asText().equals("ClusterRole"));
        assertThat(HEADER).doesNotContain("no cluster-scoped permission")
                .contains("Its only cluster-scoped reads are `get` of a StorageClass and `list` of CSIDrivers, and only where")
                .contains("--namespaced-only");
    }
}
