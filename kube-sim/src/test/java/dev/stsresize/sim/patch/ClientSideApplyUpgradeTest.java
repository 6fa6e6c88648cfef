package dev.stsresize.sim.patch;

import static dev.stsresize.sim.patch.FieldManagementTest.T1;
import static dev.stsresize.sim.patch.FieldManagementTest.T2;
import static dev.stsresize.sim.patch.FieldManagementTest.entry;
import static dev.stsresize.sim.patch.FieldManagementTest.sts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** A StatefulSet created by a plain "kubectl apply", then server-side applied. */
class ClientSideApplyUpgradeTest {
    private static final String ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";

    /** As the real server stores it: the annotation holds the manifest, the claim template comes back defaulted. */
    static ObjectNode createdByClientSideApply() {
        ObjectNode manifest = sts("1Gi");
        ObjectNode created = FieldManagementTest.stored(manifest);
        ((ObjectNode) created.get("metadata")).putObject("annotations").put(ANNOTATION, manifest + "\n");
        ObjectNode template = (ObjectNode) created.at("/spec/volumeClaimTemplates/0");
        template.put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
        ((ObjectNode) template.get("spec")).put("volumeMode", "Filesystem");
        template.putObject("status").put("phase", "Pending");
        return FieldManagement.recordUpdate(null, created, "kubectl-client-side-apply", "", T1);
    }

    /**
     * The manifest with replicas 3 and the claim template as the server returns it: an atomic list
     * compared with its defaulted live value would be a change (the server defaults only after the
     * ownership check), and this test is about replicas.
     */
    static ObjectNode scaledTo3(ObjectNode live) {
        ObjectNode config = sts("1Gi");
        ((ObjectNode) config.get("spec")).put("replicas", 3).set("volumeClaimTemplates", live.at("/spec/volumeClaimTemplates").deepCopy());
        return config;
    }

    @Test
    void reApplyingTheManifestConflictsOnTheTemplatesTheServerDefaulted() {
        assertThatThrownBy(() -> FieldManagement.apply(createdByClientSideApply(), sts("1Gi"), "kubectl", false, T2))
                .hasMessage("Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.volumeClaimTemplates");
    }

    @Test
    void kubectlStillConflictsOnTemplatesTheServerDefaulted() {
        assertThatThrownBy(() -> FieldManagement.apply(createdByClientSideApply(), sts("2Gi"), "kubectl", false, T2))
                .hasMessage("Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.volumeClaimTemplates");
    }

    @Test
    void kubectlTakesOverFieldsTheAnnotationDeclaredUnchanged() {
        ObjectNode live = createdByClientSideApply();
        ObjectNode config = scaledTo3(live);
        ObjectNode result = FieldManagement.apply(live, config, "kubectl", false, T2);

        assertThat(result.at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(entry(result, "kubectl").at("/fieldsV1/f:spec").has("f:replicas")).isTrue();
        assertThat(entry(result, "kubectl-client-side-apply").at("/fieldsV1/f:spec").has("f:replicas")).isFalse();
        assertThat(J.node(result.at("/metadata/annotations").get(ANNOTATION).asText()))
                .as("the annotation follows the applied config").isEqualTo(config);
        assertThat(result.at("/metadata/annotations").get(ANNOTATION).asText()).startsWith("{\"apiVersion\":\"apps/v1\",\"kind\":").endsWith("}\n");
    }

    @Test
    void anotherManagerGetsNoSuchAllowance() {
        ObjectNode live = createdByClientSideApply();
        assertThatThrownBy(() -> FieldManagement.apply(live, scaledTo3(live), "helm", false, T2))
                .hasMessage("Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.replicas");
    }

    @Test
    void aChangedLiveValueIsNotExplainedByTheAnnotation() {
        ObjectNode live = createdByClientSideApply();
        ObjectNode scaled = live.deepCopy();
        ((ObjectNode) scaled.get("spec")).put("replicas", 5);
        ObjectNode afterPut = FieldManagement.recordUpdate(live, scaled, "kubectl-client-side-apply", "", T1);
        assertThatThrownBy(() -> FieldManagement.apply(afterPut, scaledTo3(live), "kubectl", false, T2))
                .hasMessage("Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.replicas");
    }
}
