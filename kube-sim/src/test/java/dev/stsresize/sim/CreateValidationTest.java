package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Objects that a real server would refuse at create time are refused with its field errors. */
class CreateValidationTest {
    static SimCluster sim;
    static SimClient client;

    @BeforeAll
    static void start() {
        sim = SimCluster.start();
        client = SimClient.admin(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void a_statefulset_whose_selector_misses_its_template_labels_is_422() {
        ObjectNode db = Fixtures.db();
        ((ObjectNode) db.at("/spec/template/metadata/labels")).put("app", "other");
        SimClient.Answer a = client.send("POST", "/apis/apps/v1/namespaces/default/statefulsets", "application/json", db.toString());
        assertThat(a.code()).isEqualTo(422);
        assertThat(a.message()).isEqualTo("StatefulSet.apps \"db\" is invalid: spec.template.metadata.labels: Invalid value: "
                + "map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`");
        assertThat(client.send("POST", "/apis/apps/v1/namespaces/default/statefulsets", "application/json", Fixtures.db().toString())
                .code()).as("negative control: the matching one is created").isEqualTo(201);
    }

    @Test
    void a_statefulset_without_selector_or_containers_lists_every_cause() {
        ObjectNode db = Fixtures.db();
        ((ObjectNode) db.get("spec")).remove("selector");
        ((ObjectNode) db.at("/spec/template/spec")).remove("containers");
        db.withObject("/metadata").put("name", "broken");
        SimClient.Answer a = client.send("POST", "/apis/apps/v1/namespaces/default/statefulsets", "application/json", db.toString());
        assertThat(a.code()).isEqualTo(422);
        // NewInvalid prints errs.ToAggregate(): more than one error is bracketed (apimachinery/pkg/util/errors)
        assertThat(a.message()).isEqualTo("StatefulSet.apps \"broken\" is invalid: [spec.selector: Required value, "
                + "spec.template.spec.containers: Required value]");
    }

    @Test
    void a_claim_without_access_modes_or_storage_request_is_422() {
        ObjectNode pvc = Fixtures.yaml("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: bare}\nspec: {storageClassName: x}\n");
        SimClient.Answer a = client.send("POST", "/api/v1/namespaces/default/persistentvolumeclaims", "application/json", pvc.toString());
        assertThat(a.code()).isEqualTo(422);
        assertThat(a.message()).isEqualTo("PersistentVolumeClaim \"bare\" is invalid: [spec.accessModes: Required value: at least 1 "
                + "access mode is required, spec.resources[storage]: Required value]");
    }
}
