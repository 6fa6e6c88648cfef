package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import org.junit.jupiter.api.Test;

class FieldManagementTest {
    static final String T1 = "2026-12-03T08:00:00Z";
    static final String T2 = "2026-12-03T09:00:00Z";

    /** A StatefulSet as a manifest declares it, with a claim template of {@code size}. */
    static ObjectNode sts(String size) {
        return J.obj("{apiVersion:'apps/v1',kind:'StatefulSet',metadata:{name:'db',namespace:'default',labels:{app:'db'}},"
                + "spec:{replicas:2,serviceName:'db',selector:{matchLabels:{app:'db'}},"
                + "template:{metadata:{labels:{app:'db'}},spec:{containers:[{name:'web',image:'nginx:1',ports:[{containerPort:80}]}]}},"
                + "volumeClaimTemplates:[{metadata:{name:'data'},spec:{accessModes:['ReadWriteOnce'],resources:{requests:{storage:'" + size + "'}}}}]}}");
    }

    /** What the server stores after a create: identity and status the manager does not own. */
    /** The StatefulSet of 1Gi as kubectl applied it at T1, as stored. */
    static ObjectNode appliedByKubectl() {
        return stored(FieldManagement.apply(null, sts("1Gi"), "kubectl", false, T1));
    }

    /** A copy of the object with spec.replicas set. */
    static ObjectNode withReplicas(ObjectNode object, int replicas) {
        ObjectNode copy = object.deepCopy();
        ((ObjectNode) copy.get("spec")).put("replicas", replicas);
        return copy;
    }

    static ObjectNode stored(ObjectNode object) {
        ObjectNode o = object.deepCopy();
        ((ObjectNode) o.get("metadata")).put("uid", "1a04").put("resourceVersion", "5").put("generation", 1).put("creationTimestamp", T1);
        o.putObject("status").put("replicas", 2);
        return o;
    }

    static JsonNode entry(ObjectNode object, String manager) {
        for (JsonNode e : object.at("/metadata/managedFields")) {
            if (e.get("manager").asText().equals(manager)) {
                return e;
            }
        }
        return null;
    }

    @Test
    void anApplyWithoutForceThatChangesTemplatesKubectlOwnsGetsTheReference409() {
        ObjectNode live = appliedByKubectl();
        assertThatThrownBy(() -> FieldManagement.apply(live, sts("2Gi"), "kubectl-stsresize", false, T2))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.code()).isEqualTo(409);
                    assertThat(e.status()).isEqualTo(J.obj("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                            + "\"message\":\"Apply failed with 1 conflict: conflict with \\\"kubectl\\\": .spec.volumeClaimTemplates\",\"reason\":\"Conflict\","
                            + "\"details\":{\"causes\":[{\"reason\":\"FieldManagerConflict\",\"message\":\"conflict with \\\"kubectl\\\"\",\"field\":\".spec.volumeClaimTemplates\"}]},\"code\":409}"));
                });
    }

    @Test
    void aForcedApplyTakesTheTemplatesOverAndLeavesSharedFieldsShared() {
        ObjectNode live = appliedByKubectl();
        ObjectNode result = FieldManagement.apply(live, sts("2Gi"), "kubectl-stsresize", true, T2);

        assertThat(result.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
        JsonNode kubectl = entry(result, "kubectl");
        JsonNode resizer = entry(result, "kubectl-stsresize");
        assertThat(kubectl.at("/fieldsV1/f:spec").has("f:volumeClaimTemplates")).isFalse();
        assertThat(kubectl.at("/fieldsV1/f:spec").has("f:replicas")).as("an unchanged value stays shared").isTrue();
        assertThat(kubectl.get("time").asText()).isEqualTo(T1);
        assertThat(resizer.at("/fieldsV1/f:spec/f:volumeClaimTemplates")).isEqualTo(J.node("{}"));
        assertThat(resizer.at("/fieldsV1/f:spec/f:replicas")).isEqualTo(J.node("{}"));
        assertThat(resizer.get("operation").asText()).isEqualTo("Apply");
        assertThat(resizer.get("time").asText()).isEqualTo(T2);
    }

    @Test
    void applyingEqualValuesIsNoConflictAndSharesOwnership() {
        ObjectNode live = appliedByKubectl();
        ObjectNode result = FieldManagement.apply(live, sts("1Gi"), "helm", false, T2);
        assertThat(entry(result, "kubectl").at("/fieldsV1/f:spec/f:volumeClaimTemplates")).isEqualTo(J.node("{}"));
        assertThat(entry(result, "helm").at("/fieldsV1/f:spec/f:volumeClaimTemplates")).isEqualTo(J.node("{}"));
    }

    @Test
    void aClientSideApplyCreatorIsNamedWithItsApiVersionInTheConflict() {
        ObjectNode created = stored(sts("1Gi"));
        ObjectNode live = FieldManagement.recordUpdate(null, created, "kubectl-client-side-apply", "", T1);
        assertThat(entry(live, "kubectl-client-side-apply").get("operation").asText()).isEqualTo("Update");

        assertThatThrownBy(() -> FieldManagement.apply(live, sts("2Gi"), "kubectl", false, T2))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.getMessage()).isEqualTo(
                            "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.volumeClaimTemplates");
                    assertThat(e.status().at("/details/causes/0/message").asText())
                            .isEqualTo("conflict with \"kubectl-client-side-apply\" using apps/v1");
                });
    }

    @Test
    void severalConflictsAreListedPerManagerSortedByManager() {
        ObjectNode live = appliedByKubectl();
        ObjectNode scaled = withReplicas(live, 5);
        ObjectNode afterScale = FieldManagement.recordUpdate(live, scaled, "autoscaler", "", T1);
        ObjectNode config = sts("2Gi");
        ((ObjectNode) config.get("spec")).put("replicas", 7).put("serviceName", "other");

        assertThatThrownBy(() -> FieldManagement.apply(afterScale, config, "zz-new", false, T2))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("Apply failed with 3 conflicts: conflicts with \"autoscaler\" using apps/v1:\n"
                            + "- .spec.replicas\n"
                            + "conflicts with \"kubectl\":\n- .spec.serviceName\n- .spec.volumeClaimTemplates");
                    assertThat(e.status().at("/details/causes")).hasSize(3);
                    assertThat(e.status().at("/details/causes/0")).isEqualTo(J.obj(
                            "{reason:'FieldManagerConflict',message:'conflict with \"autoscaler\" using apps/v1',field:'.spec.replicas'}"));
                });
    }

    @Test
    void theApplyEntryEncodesItsFieldsAsTheRealServerDoes() {
        ObjectNode result = FieldManagement.apply(null, sts("1Gi"), "kubectl", false, T1);
        JsonNode e = result.at("/metadata/managedFields/0");
        assertThat(e).isEqualTo(J.obj("{manager:'kubectl',operation:'Apply',apiVersion:'apps/v1',time:'" + T1 + "',fieldsType:'FieldsV1',fieldsV1:{"
                + "'f:metadata':{'f:labels':{'f:app':{}}},"
                + "'f:spec':{'f:replicas':{},'f:selector':{},'f:serviceName':{},"
                + "'f:template':{'f:metadata':{'f:labels':{'f:app':{}}},'f:spec':{'f:containers':{'k:{\"name\":\"web\"}':{'.':{},'f:image':{},'f:name':{},"
                + "'f:ports':{'k:{\"containerPort\":80,\"protocol\":\"TCP\"}':{'.':{},'f:containerPort':{}}}}}}},"
                + "'f:volumeClaimTemplates':{}}}}"));
        assertThat(e.fieldNames()).toIterable().containsExactly("manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1");
    }

    @Test
    void associativeListsMergeByKeyAndAtomicListsAreReplaced() {
        ObjectNode live = appliedByKubectl();
        ObjectNode sidecar = J.obj("{apiVersion:'apps/v1',kind:'StatefulSet',metadata:{name:'db'},spec:{template:{spec:{containers:[{name:'side',image:'s:1'}]}},"
                + "volumeClaimTemplates:[{metadata:{name:'data'},spec:{accessModes:['ReadWriteOnce'],resources:{requests:{storage:'1Gi'}}}}]}}");
        ObjectNode result = FieldManagement.apply(live, sidecar, "injector", false, T2);
        assertThat(result.at("/spec/template/spec/containers")).hasSize(2);
        assertThat(result.at("/spec/template/spec/containers/0/name").asText()).isEqualTo("web");
        assertThat(result.at("/spec/template/spec/containers/1/name").asText()).isEqualTo("side");
        assertThat(result.at("/spec/replicas").asInt()).isEqualTo(2);
        assertThat(result.at("/status/replicas").asInt()).as("status untouched").isEqualTo(2);
    }

    @Test
    void fieldsAManagerStopsApplyingAreRemovedUnlessAnotherOwnsThem() {
        ObjectNode first = sts("1Gi");
        ((ObjectNode) first.at("/metadata/labels")).put("old", "x").put("shared", "y");
        ObjectNode live = stored(FieldManagement.apply(null, first, "kubectl", false, T1));
        ObjectNode other = J.obj("{apiVersion:'apps/v1',kind:'StatefulSet',metadata:{name:'db',labels:{shared:'y'}}}");
        ObjectNode withOther = FieldManagement.apply(live, other, "other", false, T1);

        ObjectNode result = FieldManagement.apply(withOther, sts("1Gi"), "kubectl", false, T2);
        assertThat(result.at("/metadata/labels")).isEqualTo(J.node("{app:'db',shared:'y'}"));
        assertThat(entry(result, "kubectl").at("/fieldsV1/f:metadata/f:labels")).isEqualTo(J.node("{'f:app':{}}"));
    }

    @Test
    void aManagerThatAppliesNothingLosesItsEntry() {
        ObjectNode live = appliedByKubectl();
        ObjectNode withOther = FieldManagement.apply(live, J.obj("{apiVersion:'apps/v1',kind:'StatefulSet',metadata:{name:'db',labels:{app:'db'}}}"), "other", false, T1);
        ObjectNode result = FieldManagement.apply(withOther, J.obj("{apiVersion:'apps/v1',kind:'StatefulSet',metadata:{name:'db'}}"), "other", false, T2);
        assertThat(entry(result, "other")).isNull();
        assertThat(result.at("/metadata/labels/app").asText()).as("kubectl still owns it").isEqualTo("db");
    }

    @Test
    void anUntrackedObjectIsOwnedByBeforeFirstApplyOnItsFirstApply() {
        ObjectNode live = stored(sts("1Gi"));
        assertThatThrownBy(() -> FieldManagement.apply(live, sts("2Gi"), "kubectl", false, T2))
                .hasMessage("Apply failed with 1 conflict: conflict with \"before-first-apply\" using apps/v1: .spec.volumeClaimTemplates");
        ObjectNode result = FieldManagement.apply(live, sts("1Gi"), "kubectl", false, T2);
        assertThat(entry(result, "before-first-apply").get("operation").asText()).isEqualTo("Update");
    }

    @Test
    void applyRefusesManagedFieldsAndAnotherTypeAsTheServerDoes() {
        ObjectNode live = appliedByKubectl();
        ObjectNode withFields = sts("1Gi");
        ((ObjectNode) withFields.get("metadata")).putArray("managedFields");
        assertThatThrownBy(() -> FieldManagement.apply(live, withFields, "kubectl", false, T2))
                .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(400))
                .hasMessage("metadata.managedFields must be nil");
        ObjectNode pod = J.obj("{apiVersion:'v1',kind:'Pod',metadata:{name:'db'}}");
        assertThatThrownBy(() -> FieldManagement.apply(live, pod, "kubectl", false, T2)).hasMessage("invalid object type: /v1, Kind=Pod");
    }

    @Test
    void applyLeavesItsInputsAlone() {
        ObjectNode live = appliedByKubectl();
        ObjectNode liveCopy = live.deepCopy();
        ObjectNode config = sts("2Gi");
        FieldManagement.apply(live, config, "x", true, T2);
        assertThat(live).isEqualTo(liveCopy);
        assertThat(config).isEqualTo(sts("2Gi"));
    }

    @Test
    void aScaleSubresourceOwnerIsNamedWithItsSubresource() {
        ObjectNode live = appliedByKubectl();
        ObjectNode scaled = withReplicas(live, 5);
        ObjectNode afterScale = FieldManagement.recordUpdate(live, scaled, "kubectl-scale", "scale", T1);
        assertThat(entry(afterScale, "kubectl-scale").get("fieldsV1")).isEqualTo(J.node("{'f:spec':{'f:replicas':{}}}"));
        assertThatThrownBy(() -> FieldManagement.apply(afterScale, sts("1Gi"), "kubectl", false, T2))
                .hasMessage("Apply failed with 1 conflict: conflict with \"kubectl-scale\" with subresource \"scale\" using apps/v1: .spec.replicas");
    }

    @Test
    void anApplyThatChangesNothingKeepsItsTime() {
        ObjectNode live = appliedByKubectl();
        ObjectNode again = FieldManagement.apply(live, sts("1Gi"), "kubectl", false, T2);
        assertThat(entry(again, "kubectl").get("time").asText()).isEqualTo(T1);
        ObjectNode fewer = sts("1Gi");
        ((ObjectNode) fewer.get("spec")).remove("serviceName");
        ObjectNode changed = FieldManagement.apply(live, fewer, "kubectl", false, T2);
        assertThat(entry(changed, "kubectl").get("time").asText()).as("its fields changed").isEqualTo(T2);
        ObjectNode scaled = sts("1Gi");
        ((ObjectNode) scaled.get("spec")).put("replicas", 4);
        assertThat(entry(FieldManagement.apply(live, scaled, "kubectl", false, T2), "kubectl").get("time").asText())
                .as("the object changed").isEqualTo(T2);
    }

    @Test
    void anApplyThatOnlyGivesUpSharedFieldsMovesItsTime() {
        ObjectNode live = appliedByKubectl();
        ObjectNode both = FieldManagement.apply(live, J.obj("{apiVersion:'apps/v1',kind:'StatefulSet',metadata:{name:'db'},spec:{serviceName:'db'}}"),
                "helm", false, T1);
        ObjectNode fewer = sts("1Gi");
        ((ObjectNode) fewer.get("spec")).remove("serviceName");
        ObjectNode result = FieldManagement.apply(both, fewer, "kubectl", false, T2);
        assertThat(result.at("/spec/serviceName").asText()).as("helm still owns it").isEqualTo("db");
        assertThat(entry(result, "kubectl").get("time").asText()).isEqualTo(T2);
    }

    @Test
    void anItemWithoutItsKeyCannotBeApplied() {
        ObjectNode config = sts("1Gi");
        ((ObjectNode) config.at("/spec/template/spec/containers/0")).remove("name");
        assertThatThrownBy(() -> FieldManagement.apply(null, config, "kubectl", false, T1))
                .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(500))
                .hasMessage("element 0: associative list with keys has an element that omits key field \"name\" (and doesn't have default value)");
    }

    @Test
    void anUpdateWithoutAKindTakesTheLiveKindsListSemantics() {
        ObjectNode live = appliedByKubectl();
        ObjectNode patched = live.deepCopy();
        patched.remove("kind");
        ((ObjectNode) patched.at("/spec/template/spec/containers/0")).put("image", "nginx:2");
        ObjectNode result = FieldManagement.recordUpdate(live, patched, "kubectl-patch", "", T2);
        assertThat(entry(result, "kubectl-patch").at("/fieldsV1/f:spec/f:template/f:spec/f:containers").fieldNames().next())
                .isEqualTo("k:{\"name\":\"web\"}");
    }

    @Test
    void anUpdateOwnsWhatItChangedAndTakesItFromOthers() {
        ObjectNode live = appliedByKubectl();
        ObjectNode patched = withReplicas(live, 3);
        ((ObjectNode) patched.at("/metadata/labels")).put("new", "n");
        ObjectNode result = FieldManagement.recordUpdate(live, patched, "kubectl-patch", "", T2);

        assertThat(result).isSameAs(patched);
        JsonNode e = entry(result, "kubectl-patch");
        assertThat(e.get("operation").asText()).isEqualTo("Update");
        assertThat(e.get("fieldsV1")).isEqualTo(J.node("{'f:metadata':{'f:labels':{'f:new':{}}},'f:spec':{'f:replicas':{}}}"));
        assertThat(entry(result, "kubectl").at("/fieldsV1/f:spec").has("f:replicas")).isFalse();
        assertThat(result.at("/metadata/managedFields/0/manager").asText()).as("Apply entries sort first").isEqualTo("kubectl");
    }

    @Test
    void anUpdateThatChangesNothingKeepsItsEntryAndTime() {
        ObjectNode live = appliedByKubectl();
        ObjectNode patched = withReplicas(live, 3);
        ObjectNode once = FieldManagement.recordUpdate(live, patched, "kubectl-patch", "", T1);
        ObjectNode again = FieldManagement.recordUpdate(once, once.deepCopy(), "kubectl-patch", "", T2);
        assertThat(entry(again, "kubectl-patch").get("time").asText()).isEqualTo(T1);
    }

    @Test
    void aStatusWriteIsRecordedForTheStatusSubresourceAndOwnsOnlyStatus() {
        ObjectNode live = appliedByKubectl();
        ObjectNode updated = live.deepCopy();
        ((ObjectNode) updated.get("status")).put("readyReplicas", 2).put("replicas", 2);
        ((ObjectNode) updated.get("metadata")).put("resourceVersion", "6");
        ObjectNode result = FieldManagement.recordUpdate(live, updated, "kube-controller-manager", "status", T2);
        JsonNode e = entry(result, "kube-controller-manager");
        assertThat(e.get("subresource").asText()).isEqualTo("status");
        assertThat(e.get("fieldsV1")).isEqualTo(J.node("{'f:status':{'f:readyReplicas':{}}}"));
    }

    @Test
    void aMainResourceWriteNeverOwnsStatusNorServerMetadata() {
        ObjectNode created = stored(sts("1Gi"));
        ObjectNode result = FieldManagement.recordUpdate(null, created, "kubectl-create", "", T1);
        JsonNode fields = entry(result, "kubectl-create").get("fieldsV1");
        assertThat(fields.has("f:status")).isFalse();
        assertThat(fields.has("f:apiVersion")).isFalse();
        assertThat(fields.get("f:metadata").has("f:uid")).isFalse();
        assertThat(fields.get("f:metadata").has("f:name")).isFalse();
        assertThat(fields.get("f:metadata").get("f:labels")).as("a new map owns its '.'").isEqualTo(J.node("{'.':{},'f:app':{}}"));
        assertThat(fields.get("f:spec").has(".")).as("spec is always there in Go").isFalse();
    }

    @Test
    void anExistingObjectNobodyTracksStaysUntrackedOnUpdate() {
        ObjectNode live = stored(sts("1Gi"));
        ObjectNode patched = withReplicas(live, 4);
        ((ObjectNode) patched.get("metadata")).putArray("managedFields");
        ObjectNode result = FieldManagement.recordUpdate(live, patched, "kubectl-patch", "", T2);
        assertThat(result.at("/metadata/managedFields").isMissingNode()).isTrue();
    }

    @Test
    void managedFieldsSentWithAnUpdateReplaceTheLiveOnes() {
        ObjectNode live = appliedByKubectl();
        ObjectNode reset = live.deepCopy();
        ((ObjectNode) reset.get("metadata")).putArray("managedFields").addObject().put("manager", "").put("operation", "Update");
        ObjectNode result = FieldManagement.recordUpdate(live, reset, "kubectl-edit", "", T2);
        assertThat(result.at("/metadata/managedFields").isMissingNode()).as("nothing changed, so nobody owns anything").isTrue();
    }
}
