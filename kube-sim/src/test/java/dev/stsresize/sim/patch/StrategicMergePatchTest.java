package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StrategicMergePatchTest {
    static final String STS = "{apiVersion:'apps/v1',kind:'StatefulSet',"
            + "metadata:{name:'db',finalizers:['a','b'],labels:{app:'db',tier:'x'},"
            + "ownerReferences:[{uid:'u1',name:'one'},{uid:'u2',name:'two'}]},"
            + "spec:{replicas:2,template:{spec:{"
            + "containers:[{name:'web',image:'web:1',env:[{name:'A',value:'1'},{name:'B',value:'2'}],"
            + "ports:[{containerPort:80,name:'http'}],volumeMounts:[{mountPath:'/data',name:'data'}]},"
            + "{name:'side',image:'side:1'}],"
            + "volumes:[{name:'v1',emptyDir:{}},{name:'v2',emptyDir:{}}],tolerations:[{key:'t1'}]}},"
            + "volumeClaimTemplates:[{metadata:{name:'data'},spec:{resources:{requests:{storage:'1Gi'}}}},{metadata:{name:'logs'}}]},"
            + "status:{conditions:[{type:'A',status:'True'},{type:'B',status:'False'}]}}";

    static Stream<Arguments> patches() {
        return Stream.of(
                JsonPatchTest.row("containers merge by name, keeping the others",
                        "{spec:{template:{spec:{containers:[{name:'web',image:'web:2'}]}}}}",
                        "/spec/template/spec/containers=[{name:'web',image:'web:2',env:[{name:'A',value:'1'},{name:'B',value:'2'}],"
                                + "ports:[{containerPort:80,name:'http'}],volumeMounts:[{mountPath:'/data',name:'data'}]},{name:'side',image:'side:1'}]"),
                JsonPatchTest.row("a container new by name is appended",
                        "{spec:{template:{spec:{containers:[{name:'new',image:'n'}]}}}}",
                        "/spec/template/spec/containers/2={name:'new',image:'n'}"),
                JsonPatchTest.row("$patch: delete removes the item with that key",
                        "{spec:{template:{spec:{containers:[{name:'side','$patch':'delete'}]}}}}",
                        "/spec/template/spec/containers/1=null"),
                JsonPatchTest.row("$patch: replace in a list replaces it with the other items",
                        "{spec:{template:{spec:{volumes:[{name:'v9'},{'$patch':'replace'}]}}}}",
                        "/spec/template/spec/volumes=[{name:'v9'}]"),
                JsonPatchTest.row("$patch: replace on a map replaces the map",
                        "{metadata:{labels:{'$patch':'replace',only:'one'}}}", "/metadata/labels={only:'one'}"),
                JsonPatchTest.row("$patch: delete on a map empties it", "{metadata:{labels:{'$patch':'delete'}}}", "/metadata/labels={}"),
                JsonPatchTest.row("env merges by name", "{spec:{template:{spec:{containers:[{name:'web',env:[{name:'B',value:'9'},{name:'C',value:'3'}]}]}}}}",
                        "/spec/template/spec/containers/0/env=[{name:'A',value:'1'},{name:'B',value:'9'},{name:'C',value:'3'}]"),
                JsonPatchTest.row("ports merge by containerPort", "{spec:{template:{spec:{containers:[{name:'web',ports:[{containerPort:80,protocol:'TCP'}]}]}}}}",
                        "/spec/template/spec/containers/0/ports=[{containerPort:80,name:'http',protocol:'TCP'}]"),
                JsonPatchTest.row("volumeMounts merge by mountPath", "{spec:{template:{spec:{containers:[{name:'web',volumeMounts:[{mountPath:'/data',readOnly:true}]}]}}}}",
                        "/spec/template/spec/containers/0/volumeMounts=[{mountPath:'/data',name:'data',readOnly:true}]"),
                JsonPatchTest.row("volumes merge by name", "{spec:{template:{spec:{volumes:[{name:'v2',emptyDir:{medium:'Memory'}}]}}}}",
                        "/spec/template/spec/volumes/1={name:'v2',emptyDir:{medium:'Memory'}}"),
                JsonPatchTest.row("volumeClaimTemplates have no merge key: replaced whole",
                        "{spec:{volumeClaimTemplates:[{metadata:{name:'data'},spec:{resources:{requests:{storage:'2Gi'}}}}]}}",
                        "/spec/volumeClaimTemplates=[{metadata:{name:'data'},spec:{resources:{requests:{storage:'2Gi'}}}}]"),
                JsonPatchTest.row("tolerations have no merge key: replaced whole", "{spec:{template:{spec:{tolerations:[{key:'t2'}]}}}}",
                        "/spec/template/spec/tolerations=[{key:'t2'}]"),
                JsonPatchTest.row("finalizers merge as a set", "{metadata:{finalizers:['b','c']}}", "/metadata/finalizers=['a','b','c']"),
                JsonPatchTest.row("$deleteFromPrimitiveList removes and sorts what remains",
                        "{metadata:{'$deleteFromPrimitiveList/finalizers':['a']},spec:{}}", "/metadata/finalizers=['b']"),
                JsonPatchTest.row("ownerReferences merge by uid", "{metadata:{ownerReferences:[{uid:'u2',name:'renamed'}]}}",
                        "/metadata/ownerReferences=[{uid:'u1',name:'one'},{uid:'u2',name:'renamed'}]"),
                JsonPatchTest.row("status conditions merge by type", "{status:{conditions:[{type:'B',status:'True'}]}}",
                        "/status/conditions=[{type:'A',status:'True'},{type:'B',status:'True'}]"),
                JsonPatchTest.row("a null deletes a field", "{spec:{replicas:null}}", "/spec/replicas=null"),
                JsonPatchTest.row("$retainKeys drops the keys it does not list", "{metadata:{labels:{'$retainKeys':['app'],app:'db2'}}}",
                        "/metadata/labels={app:'db2'}"),
                JsonPatchTest.row("$setElementOrder orders the merged list",
                        "{spec:{template:{spec:{containers:[{name:'web',image:'web:3'}],'$setElementOrder/containers':[{name:'side'},{name:'web'}]}}}}",
                        "/spec/template/spec/containers/0/name='side'"),
                JsonPatchTest.row("$setElementOrder orders a merged list of scalars",
                        "{metadata:{finalizers:['c'],'$setElementOrder/finalizers':['c','b','a']}}", "/metadata/finalizers=['c','b','a']"),
                JsonPatchTest.row("$setElementOrder ignores items the list does not have",
                        "{spec:{template:{spec:{'$setElementOrder/volumes':[{name:'gone'},{name:'v2'}]}}}}",
                        "/spec/template/spec/volumes=[{name:'v1',emptyDir:{}},{name:'v2',emptyDir:{}}]"),
                JsonPatchTest.row("$setElementOrder does not list the items a patch deletes",
                        "{spec:{template:{spec:{containers:[{name:'side','$patch':'delete'}],'$setElementOrder/containers':[{name:'web'}]}}}}",
                        "/spec/template/spec/containers/1=null"),
                JsonPatchTest.row("$setElementOrder alone reorders the live list",
                        "{spec:{template:{spec:{'$setElementOrder/volumes':[{name:'v2'},{name:'v1'}]}}}}",
                        "/spec/template/spec/volumes=[{name:'v2',emptyDir:{}},{name:'v1',emptyDir:{}}]"),
                JsonPatchTest.row("$setElementOrder interleaves live-only items where the live list had them",
                        "{metadata:{finalizers:['c'],'$setElementOrder/finalizers':['c','a']}}", "/metadata/finalizers=['c','a','b']"),
                JsonPatchTest.row("$setElementOrder puts a new item, which has no live position, before live-only items",
                        "{spec:{template:{spec:{volumes:[{name:'v3'}],'$setElementOrder/volumes':[{name:'v3'},{name:'v2'}]}}}}",
                        "/spec/template/spec/volumes=[{name:'v3'},{name:'v1',emptyDir:{}},{name:'v2',emptyDir:{}}]"),
                JsonPatchTest.row("$setElementOrder for a field not there does nothing", "{spec:{'$setElementOrder/nothing':[]}}", "/spec/nothing=null"),
                JsonPatchTest.row("$deleteFromPrimitiveList of a field not there does nothing",
                        "{spec:{'$deleteFromPrimitiveList/nothing':['a']}}", "/spec/nothing=null"),
                JsonPatchTest.row("a map replaces a list and a list a map", "{spec:{replicas:[1],template:[2]}}", "/spec/template=[2]"),
                JsonPatchTest.row("an empty patch list on an empty list stays empty", "{spec:{template:{spec:{initContainers:[]}}}}",
                        "/spec/template/spec/initContainers=[]"),
                JsonPatchTest.row("directives inside a new value do not reach the object",
                        "{spec:{template:{spec:{newList:[{a:1,b:null}]}}},extra:{'$patch':'replace',x:1}}",
                        "/spec/template/spec/newList=[{a:1}]"));
    }

    /** Expected is "pointer=value": the part of the result the row is about; value null means absent. */
    @ParameterizedTest(name = "{0}")
    @MethodSource
    void patches(String patch, String expectation) {
        ObjectNode target = J.obj(STS);
        ObjectNode result = Patches.strategicMergePatch(target, J.node(patch), "apps/v1", "StatefulSet");
        String pointer = expectation.substring(0, expectation.indexOf('='));
        String value = expectation.substring(expectation.indexOf('=') + 1);
        if (value.equals("null")) {
            assertThat(result.at(pointer).isMissingNode()).as(result.toString()).isTrue();
        } else {
            assertThat(result.at(pointer)).as(result.toString()).isEqualTo(J.node(value));
        }
        assertThat(target).as("input untouched").isEqualTo(J.obj(STS));
    }

    @Test
    void aNullPatchChangesNothing() {
        ObjectNode target = J.obj(STS);
        ObjectNode result = Patches.strategicMergePatch(target, null, "apps/v1", "StatefulSet");
        assertThat(result).isEqualTo(target).isNotSameAs(target);
        assertThat(Patches.strategicMergePatch(target, J.node("null"), "apps/v1", "StatefulSet")).isEqualTo(target);
    }

    @Test
    void integerAndFloatItemsCannotMergeAndBooleansMergeAsScalars() {
        ObjectNode target = J.obj("{kind:'X',metadata:{finalizers:[1]}}");
        assertThatThrownBy(() -> Patches.strategicMergePatch(target, J.node("{metadata:{finalizers:[1.5]}}"), "v1", "X"))
                .hasMessage("Internal error occurred: list element types are not identical: [[1] [1.5]]");
        ObjectNode flags = J.obj("{kind:'X',metadata:{finalizers:[true]}}");
        assertThat(Patches.strategicMergePatch(flags, J.node("{metadata:{finalizers:[false,true]}}"), "v1", "X").at("/metadata/finalizers"))
                .isEqualTo(J.node("[true,false]"));
    }

    @Test
    void deletingAContainerKeepsEverythingElse() {
        ObjectNode result = Patches.strategicMergePatch(J.obj(STS),
                J.node("{spec:{template:{spec:{containers:[{name:'side','$patch':'delete'}]}}}}"), "apps/v1", "StatefulSet");
        ObjectNode expected = J.obj(STS);
        ((com.fasterxml.jackson.databind.node.ArrayNode) expected.at("/spec/template/spec/containers")).remove(1);
        assertThat(result).isEqualTo(expected);
    }

    @Test
    void podSpecListsMergeInAPodToo() {
        ObjectNode pod = J.obj("{kind:'Pod',spec:{containers:[{name:'a',image:'1'},{name:'b',image:'1'}]}}");
        ObjectNode result = Patches.strategicMergePatch(pod, J.node("{spec:{containers:[{name:'b',image:'2'}]}}"), "v1", "Pod");
        assertThat(result.at("/spec/containers")).isEqualTo(J.node("[{name:'a',image:'1'},{name:'b',image:'2'}]"));
    }

    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("{spec:{template:{spec:{containers:[{image:'x'}]}}}}", 500,
                        "Internal error occurred: map: map[image:x] does not contain declared merge key: name"),
                Arguments.of("{spec:{template:{spec:{containers:[{name:'web','$patch':'explode'}]}}}}", 500,
                        "Internal error occurred: unknown patch type: explode in map: map[$patch:explode name:web]"),
                Arguments.of("{metadata:{labels:{'$patch':'explode'}}}", 500,
                        "Internal error occurred: unknown patch type: explode in map: map[$patch:explode]"),
                Arguments.of("{spec:{template:{spec:{containers:[{'$patch':'delete'}]}}}}", 500,
                        "Internal error occurred: delete patch type with no merge key defined"),
                Arguments.of("{spec:{template:{spec:{containers:[{'$patch':'merge'}]}}}}", 500,
                        "Internal error occurred: merging lists cannot yet be specified in the patch"),
                Arguments.of("{metadata:{finalizers:[{a:1}]}}", 500,
                        "Internal error occurred: list element types are not identical: [[a b] [map[a:1]]]"),
                Arguments.of("{metadata:{finalizers:[['x']]}}", 422, "the server rejected our request due to an error in our request"),
                Arguments.of("{metadata:{labels:{'$retainKeys':'app'}}}", 400, "invalid patch format of retainKeys"),
                Arguments.of("{metadata:{labels:{'$retainKeys':['app'],tier:'y'}}}", 400, "invalid patch format of retainKeys"),
                Arguments.of("{metadata:{'$deleteFromPrimitiveList/finalizers':'a'}}", 400, "invalid patch format of primitive list"),
                Arguments.of("{spec:{'$setElementOrder/x':'a'}}", 500, "Internal error occurred: expected a []interface {}, but received a string"),
                Arguments.of("{spec:{template:{spec:{containers:[{name:'web'},{name:'side'}],'$setElementOrder/containers':[{name:'side'},{name:'web'}]}}}}", 500,
                        "Internal error occurred: The order in patch list:\n[map[name:web] map[name:side]]\n doesn't match $setElementOrder list:\n"
                                + "[map[name:side] map[name:web]]\n"),
                Arguments.of("[1]", 400, "json: cannot unmarshal array into Go value of type map[string]interface {}"),
                Arguments.of("'s'", 400, "json: cannot unmarshal string into Go value of type map[string]interface {}"),
                Arguments.of("{metadata:{finalizers:[1.5]}}", 500, "Internal error occurred: list element types are not identical: [[a b] [1.5]]"),
                Arguments.of("{metadata:{finalizers:[true]}}", 500, "Internal error occurred: list element types are not identical: [[a b] [true]]"));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource
    void errors(String patch, int code, String message) {
        assertThatThrownBy(() -> Patches.strategicMergePatch(J.obj(STS), J.node(patch), "apps/v1", "StatefulSet"))
                .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(code))
                .hasMessage(message);
    }

    @Test
    void aMergedListOfMapsWithoutAMergeKeyCannotMerge() {
        ObjectNode noFinalizers = J.obj("{kind:'StatefulSet',metadata:{name:'db'}}");
        assertThatThrownBy(() -> Patches.strategicMergePatch(noFinalizers, J.node("{metadata:{finalizers:[{a:1}]}}"), "apps/v1", "StatefulSet"))
                .hasMessage("Internal error occurred: cannot merge lists without merge key for type map");
    }

    @Test
    void anInternalErrorCarriesItsCauseAsTheServerDoes() {
        assertThatThrownBy(() -> Patches.strategicMergePatch(J.obj(STS), J.node("{spec:{template:{spec:{containers:[{'$patch':'merge'}]}}}}"), "apps/v1", "StatefulSet"))
                .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.status()).isEqualTo(J.obj(
                        "{kind:'Status',apiVersion:'v1',metadata:{},status:'Failure',message:'Internal error occurred: merging lists cannot yet be specified in the patch',"
                                + "reason:'InternalError',details:{causes:[{message:'merging lists cannot yet be specified in the patch'}]},code:500}")));
    }
}
