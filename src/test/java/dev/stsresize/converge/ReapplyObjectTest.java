package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The object to re-apply and the backup to restore are raw trees: fields no client model knows are
 * carried, server fields are not, the recreate never scales, and owners' metadata is kept.
 */
class ReapplyObjectTest {
    static final ObjectNode LIVE = Harness.yaml("""
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: db
              namespace: prod
              uid: 1111
              resourceVersion: "42"
              generation: 3
              creationTimestamp: "2026-01-01T00:00:00Z"
              finalizers: [orphan]
              labels: {app: db, app.kubernetes.io/managed-by: Helm, kustomize.toolkit.fluxcd.io/name: apps, team: a}
              annotations: {meta.helm.sh/release-name: db, kubectl.kubernetes.io/last-applied-configuration: "{}", note: x}
              managedFields:
              - {manager: helm, operation: Update, fieldsV1: {"f:spec": {"f:template": {}}}}
            spec:
              replicas: 5
              futureField: {nested: [1, 2]}
              updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}
              template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: "pg:16", futureContainerField: true}]}}
              volumeClaimTemplates:
              - metadata: {name: data}
                spec: {resources: {requests: {storage: 1Gi}}}
            status: {replicas: 5}
            """);
    static final ObjectNode DECLARED = Harness.yaml("""
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db, namespace: prod, labels: {app: db}}
            spec:
              futureField: {nested: [1, 2]}
              template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: "pg:16", futureContainerField: true}]}}
              volumeClaimTemplates:
              - metadata: {name: data}
                spec: {resources: {requests: {storage: 2Gi}}}
            """);

    @Test
    void the_reapplied_object_keeps_unknown_fields_live_replicas_partition_and_owner_metadata() {
        ObjectNode r = ReapplyObject.of(DECLARED, LIVE);
        assertThat(r.at("/spec/futureField/nested/1").asInt()).isEqualTo(2);
        assertThat(r.at("/spec/template/spec/containers/0/futureContainerField").asBoolean()).isTrue();
        assertThat(r.at("/spec/replicas").asInt()).isEqualTo(5);
        assertThat(r.at("/spec/updateStrategy/rollingUpdate/partition").asInt()).isEqualTo(2);
        assertThat(r.at("/metadata/labels/app.kubernetes.io~1managed-by").asText()).isEqualTo("Helm");
        assertThat(r.at("/metadata/labels/kustomize.toolkit.fluxcd.io~1name").asText()).isEqualTo("apps");
        assertThat(r.at("/metadata/labels/team").isMissingNode()).as("not an owner's label: the manifest decides").isTrue();
        assertThat(r.at("/metadata/annotations/meta.helm.sh~1release-name").asText()).isEqualTo("db");
        // applied client-side: the annotation declares the new manifest, as kubectl apply -f of it would write it
        assertThat(r.at("/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration").asText()).isEqualTo(LastApplied.of(DECLARED))
                .contains("\"storage\":\"2Gi\"");
        assertThat(ReapplyObject.of(DECLARED, DECLARED).at("/metadata/annotations").has(LastApplied.ANNOTATION))
                .as("applied server-side or by a tool without it: none added").isFalse();
        assertThat(r.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
        assertThat(ReapplyObject.withLiveTemplates(r, LIVE).at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText())
                .isEqualTo("1Gi");
    }

    @Test
    void the_backup_to_restore_keeps_every_field_but_the_servers() {
        ObjectNode b = Objects.creatable(LIVE);
        assertThat(b.at("/spec/futureField/nested/0").asInt()).isEqualTo(1);
        assertThat(b.at("/spec/template/spec/containers/0/futureContainerField").asBoolean()).isTrue();
        assertThat(b.at("/metadata/labels/team").asText()).isEqualTo("a");
        assertThat(b.at("/metadata/annotations/note").asText()).isEqualTo("x");
        for (String f : new String[] {"uid", "resourceVersion", "generation", "creationTimestamp", "finalizers", "managedFields"}) {
            assertThat(b.path("metadata").has(f)).as(f).isFalse();
        }
        assertThat(b.has("status")).isFalse();
    }

    @Test
    void the_field_manager_is_the_one_that_owned_the_pod_template_unless_given() {
        assertThat(ReapplyObject.fieldManager(LIVE, Optional.empty())).isEqualTo("helm");
        assertThat(ReapplyObject.fieldManager(LIVE, Optional.of("argocd-controller"))).isEqualTo("argocd-controller");
        assertThat(ReapplyObject.fieldManager(DECLARED, Optional.empty())).isEqualTo("kubectl");
    }
}
