package dev.stsresize.sim.patch;

import static dev.stsresize.sim.patch.FieldManagementTest.T1;
import static dev.stsresize.sim.patch.FieldManagementTest.T2;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** What an apply removes when its manager stops naming fields it applied before. */
class PruningTest {
    static ObjectNode withContainers(String... names) {
        StringBuilder b = new StringBuilder("{apiVersion:'apps/v1',kind:'StatefulSet',metadata:{name:'db'},spec:{template:{spec:{containers:[");
        for (int i = 0; i < names.length; i++) {
            b.append(i == 0 ? "" : ",").append("{name:'").append(names[i]).append("',image:'").append(names[i]).append(":1'}");
        }
        return J.obj(b.append("]}}}}").toString());
    }

    @Test
    void aContainerNoLongerAppliedAndOwnedByNobodyElseIsRemoved() {
        ObjectNode live = FieldManagement.apply(null, withContainers("web", "side"), "kubectl", false, T1);
        ObjectNode result = FieldManagement.apply(live, withContainers("web"), "kubectl", false, T2);
        assertThat(result.at("/spec/template/spec/containers")).isEqualTo(J.node("[{name:'web',image:'web:1'}]"));
    }

    @Test
    void aContainerAnotherManagerChangedStaysWithItsKeyAndWhatTheOtherOwns() {
        ObjectNode live = FieldManagement.apply(null, withContainers("web", "side"), "kubectl", false, T1);
        ObjectNode edited = live.deepCopy();
        ((ObjectNode) edited.at("/spec/template/spec/containers/1")).put("image", "side:2");
        ObjectNode afterEdit = FieldManagement.recordUpdate(live, edited, "kubectl-edit", "", T1);

        ObjectNode result = FieldManagement.apply(afterEdit, withContainers("web"), "kubectl", false, T2);
        assertThat(result.at("/spec/template/spec/containers")).isEqualTo(J.node("[{name:'web',image:'web:1'},{name:'side',image:'side:2'}]"));
    }

    @Test
    void aFieldAnotherApplierSharesIsKept() {
        ObjectNode first = withContainers("web");
        ((ObjectNode) first.get("spec")).put("replicas", 3);
        ObjectNode live = FieldManagement.apply(null, first, "kubectl", false, T1);
        ObjectNode shared = J.obj("{apiVersion:'apps/v1',kind:'StatefulSet',metadata:{name:'db'},spec:{replicas:3}}");
        ObjectNode both = FieldManagement.apply(live, shared, "hpa", false, T1);

        ObjectNode result = FieldManagement.apply(both, withContainers("web"), "kubectl", false, T2);
        assertThat(result.at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(FieldManagementTest.entry(result, "kubectl").at("/fieldsV1/f:spec").has("f:replicas")).isFalse();
    }

    @Test
    void aFirstApplyPrunesNothing() {
        ObjectNode live = FieldManagement.recordUpdate(null, withContainers("web", "side"), "kubectl-create", "", T1);
        ObjectNode result = FieldManagement.apply(live, withContainers("web"), "kubectl", false, T2);
        assertThat(result.at("/spec/template/spec/containers")).hasSize(2);
    }
}
