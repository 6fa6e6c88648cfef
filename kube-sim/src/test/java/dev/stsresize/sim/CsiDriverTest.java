package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * storage.k8s.io/v1 CSIDrivers as kube-apiserver serves them: SetDefaults_CSIDriver's defaults on create,
 * ValidateCSIDriver's supported values and ValidateCSIDriverUpdate's immutable fields
 * (pkg/apis/storage/v1/defaults.go, pkg/apis/storage/validation/validation.go).
 */
class CsiDriverTest extends FreshSim {
    static final String DRIVERS = "/apis/storage.k8s.io/v1/csidrivers";
    static final String JSON = "application/json";

    @Test
    void a_created_driver_gets_the_v1_defaults_and_is_listed() throws Exception {
        SimClient.Answer created = admin.send("POST", DRIVERS, JSON,
                "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"CSIDriver\",\"metadata\":{\"name\":\"ebs.csi.aws.com\"},\"spec\":{}}");
        assertThat(created.code()).as(created.body()).isEqualTo(201);
        JsonNode spec = new ObjectMapper().readTree(created.body()).path("spec");
        assertThat(spec.path("attachRequired").asBoolean()).isTrue();
        assertThat(spec.path("podInfoOnMount").asBoolean(true)).isFalse();
        assertThat(spec.path("fsGroupPolicy").asText()).isEqualTo("ReadWriteOnceWithFSType");
        assertThat(spec.path("volumeLifecycleModes").toString()).isEqualTo("[\"Persistent\"]");
        SimClient.Answer list = admin.get(DRIVERS);
        assertThat(new ObjectMapper().readTree(list.body()).at("/items/0/metadata/name").asText()).isEqualTo("ebs.csi.aws.com");
    }

    @Test
    void an_unsupported_fs_group_policy_is_refused_and_attach_required_is_immutable() {
        SimClient.Answer bad = admin.send("POST", DRIVERS, JSON, "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"CSIDriver\","
                + "\"metadata\":{\"name\":\"bad.csi.example\"},\"spec\":{\"fsGroupPolicy\":\"Sometimes\"}}");
        assertThat(bad.code()).as(bad.body()).isEqualTo(422);
        assertThat(bad.message()).contains("spec.fsGroupPolicy: Unsupported value: \"Sometimes\"");
        SimClient.Answer created = admin.send("POST", DRIVERS, JSON, "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"CSIDriver\","
                + "\"metadata\":{\"name\":\"ok.csi.example\"},\"spec\":{}}");
        assertThat(created.code()).as(created.body()).isEqualTo(201);
        SimClient.Answer changed = admin.send("PATCH", DRIVERS + "/ok.csi.example", "application/merge-patch+json",
                "{\"spec\":{\"attachRequired\":false}}");
        assertThat(changed.code()).as(changed.body()).isEqualTo(422);
        assertThat(changed.message()).contains("spec.attachedRequired: Invalid value: false: field is immutable");
        SimClient.Answer podInfo = admin.send("PATCH", DRIVERS + "/ok.csi.example", "application/merge-patch+json",
                "{\"spec\":{\"podInfoOnMount\":true}}");
        assertThat(podInfo.code()).as("negative control: podInfoOnMount may change\n" + podInfo.body()).isEqualTo(200);
    }
}
