package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The re-applied object never scales nor moves a rollout: each rule of {@link ReapplyObject} where the
 * manifest and the live object agree, disagree or say nothing (no server: trees in, trees out).
 */
class ReapplyObjectRulesTest {
    private static ObjectNode live(String spec) {
        return Harness.yaml("{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db, namespace: prod, uid: u1}, spec: " + spec + "}");
    }

    private static ObjectNode declared(String spec) {
        return Harness.yaml("{metadata: {name: db, namespace: prod}, spec: " + spec + "}");
    }

    @Test
    void the_kind_and_namespace_are_always_said_and_no_owner_reference_is_carried() {
        ObjectNode d = Harness.yaml("{metadata: {name: db, namespace: prod, ownerReferences: [{kind: X, name: y, uid: z}]},"
                + " spec: {replicas: 1}}");
        ObjectNode r = ReapplyObject.of(d, live("{replicas: 1}"));
        assertThat(r.path("apiVersion").asText()).isEqualTo("apps/v1");
        assertThat(r.path("kind").asText()).isEqualTo("StatefulSet");
        assertThat(r.at("/metadata/namespace").asText()).isEqualTo("prod");
        assertThat(r.at("/metadata").has("ownerReferences")).as("the new object is adopted by nobody").isFalse();
    }

    @Test
    void replicas_are_the_live_ones_or_one_when_the_live_object_says_none() {
        assertThat(ReapplyObject.of(declared("{replicas: 3}"), live("{replicas: 5}")).at("/spec/replicas").asInt()).isEqualTo(5);
        assertThat(ReapplyObject.of(declared("{}"), live("{replicas: 5}")).at("/spec/replicas").asInt()).isEqualTo(5);
        assertThat(ReapplyObject.of(declared("{replicas: 5}"), live("{replicas: 5}")).at("/spec/replicas").asInt()).isEqualTo(5);
        assertThat(ReapplyObject.of(declared("{replicas: 4}"), live("{}")).at("/spec/replicas").asInt())
                .as("the API server's default").isEqualTo(1);
        assertThat(ReapplyObject.of(declared("{replicas: '5'}"), live("{replicas: 5}")).at("/spec/replicas").isInt())
                .as("a number, not the manifest's text").isTrue();
    }

    @Test
    void the_live_partition_is_carried_under_a_rolling_update_only() {
        ObjectNode partitioned = live("{replicas: 5, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}}");
        assertThat(ReapplyObject.of(declared("{}"), partitioned).at("/spec/updateStrategy").toString())
                .isEqualTo("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"partition\":2}}");
        assertThat(ReapplyObject.of(declared("{updateStrategy: {rollingUpdate: {partition: 4}}}"), partitioned)
                .at("/spec/updateStrategy/rollingUpdate/partition").asInt()).isEqualTo(2);
        assertThat(ReapplyObject.of(declared("{updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2, maxUnavailable: 1}}}"),
                partitioned).at("/spec/updateStrategy/rollingUpdate").toString()).isEqualTo("{\"partition\":2,\"maxUnavailable\":1}");
        assertThat(ReapplyObject.of(declared("{updateStrategy: {type: OnDelete}}"), partitioned).at("/spec/updateStrategy").toString())
                .as("the manifest moves to OnDelete: no partition is invented").isEqualTo("{\"type\":\"OnDelete\"}");

        ObjectNode untyped = live("{replicas: 5, updateStrategy: {rollingUpdate: {partition: 3}}}");
        assertThat(ReapplyObject.of(declared("{}"), untyped).at("/spec/updateStrategy/rollingUpdate/partition").asInt())
                .as("RollingUpdate is the default type").isEqualTo(3);
        ObjectNode onDelete = live("{replicas: 5, updateStrategy: {type: OnDelete, rollingUpdate: {partition: 3}}}");
        assertThat(ReapplyObject.of(declared("{}"), onDelete).at("/spec").has("updateStrategy")).isFalse();
        assertThat(ReapplyObject.of(declared("{}"), live("{replicas: 5, updateStrategy: {type: RollingUpdate}}")).at("/spec")
                .has("updateStrategy")).as("no live partition").isFalse();
    }

    @Test
    void owner_metadata_the_manifest_sets_itself_is_the_manifests() {
        ObjectNode l = Harness.yaml("{metadata: {name: db, namespace: prod, labels: {app.kubernetes.io/instance: live,"
                + " argocd.argoproj.io/instance: a}, annotations: {helm.toolkit.fluxcd.io/name: h}}, spec: {replicas: 1}}");
        ObjectNode d = Harness.yaml("{metadata: {name: db, namespace: prod, labels: {app.kubernetes.io/instance: mine}}, spec: {}}");
        ObjectNode r = ReapplyObject.of(d, l);
        assertThat(r.at("/metadata/labels/app.kubernetes.io~1instance").asText()).isEqualTo("mine");
        assertThat(r.at("/metadata/labels/argocd.argoproj.io~1instance").asText()).isEqualTo("a");
        assertThat(r.at("/metadata/annotations/helm.toolkit.fluxcd.io~1name").asText()).isEqualTo("h");
        assertThat(ReapplyObject.of(declared("{}"), live("{replicas: 1}")).at("/metadata").has("labels"))
                .as("nothing to carry: no empty section").isFalse();
    }

    @Test
    void the_dry_run_object_takes_the_live_templates_or_none() {
        ObjectNode r = ReapplyObject.of(declared("{volumeClaimTemplates: [{metadata: {name: data}}]}"), live("{replicas: 1}"));
        ObjectNode probe = ReapplyObject.withLiveTemplates(r, live("{replicas: 1}"));
        assertThat(probe.at("/spec").has("volumeClaimTemplates")).isFalse();
        assertThat(r.at("/spec/volumeClaimTemplates/0/metadata/name").asText()).as("the object itself is untouched").isEqualTo("data");
    }

    @Test
    void the_field_manager_skips_entries_without_the_template_or_a_name() {
        ObjectNode l = Harness.yaml("{metadata: {managedFields: ["
                + "{manager: scaler, fieldsV1: {'f:spec': {'f:replicas': {}}}},"
                + "{manager: '', fieldsV1: {'f:spec': {'f:template': {}}}},"
                + "{fieldsV1: {'f:spec': {'f:template': {}}}},"
                + "{manager: flux, fieldsV1: {'f:spec': {'f:template': {}}}}]}}");
        assertThat(ReapplyObject.fieldManager(l, Optional.empty())).isEqualTo("flux");
    }
}
