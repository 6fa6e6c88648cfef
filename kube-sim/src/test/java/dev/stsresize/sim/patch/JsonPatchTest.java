package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonPatchTest {
    private static final String DOC = "{a:{b:1,'x/y':2,'m~n':3},list:[1,2,3]}";

    static Stream<Arguments> applies() {
        return Stream.of(
                row("add sets a new member", "[{op:'add',path:'/a/c',value:9}]", "{a:{b:1,'x/y':2,'m~n':3,c:9},list:[1,2,3]}"),
                row("add replaces an existing member", "[{op:'add',path:'/a/b',value:9}]", "{a:{b:9,'x/y':2,'m~n':3},list:[1,2,3]}"),
                row("add inserts into an array at its index", "[{op:'add',path:'/list/1',value:9}]", "{a:{b:1,'x/y':2,'m~n':3},list:[1,9,2,3]}"),
                row("add with - appends", "[{op:'add',path:'/list/-',value:9}]", "{a:{b:1,'x/y':2,'m~n':3},list:[1,2,3,9]}"),
                row("add at the array's length appends", "[{op:'add',path:'/list/3',value:9}]", "{a:{b:1,'x/y':2,'m~n':3},list:[1,2,3,9]}"),
                row("a negative index counts from the end", "[{op:'remove',path:'/list/-1'}]", "{a:{b:1,'x/y':2,'m~n':3},list:[1,2]}"),
                row("~1 unescapes to a slash", "[{op:'replace',path:'/a/x~1y',value:7}]", "{a:{b:1,'x/y':7,'m~n':3},list:[1,2,3]}"),
                row("~0 unescapes to a tilde", "[{op:'remove',path:'/a/m~0n'}]", "{a:{b:1,'x/y':2},list:[1,2,3]}"),
                row("remove drops an array item", "[{op:'remove',path:'/list/0'}]", "{a:{b:1,'x/y':2,'m~n':3},list:[2,3]}"),
                row("replace changes an array item", "[{op:'replace',path:'/list/2',value:'z'}]", "{a:{b:1,'x/y':2,'m~n':3},list:[1,2,'z']}"),
                row("move takes the value away from its source", "[{op:'move',from:'/a/b',path:'/moved'}]", "{a:{'x/y':2,'m~n':3},list:[1,2,3],moved:1}"),
                row("copy leaves the source in place", "[{op:'copy',from:'/a',path:'/list/0'}]", "{a:{b:1,'x/y':2,'m~n':3},list:[{b:1,'x/y':2,'m~n':3},1,2,3]}"),
                row("a passing test changes nothing", "[{op:'test',path:'/a/b',value:1}]", DOC),
                row("test compares numbers by value", "[{op:'test',path:'/a/b',value:1.0}]", DOC),
                row("operations apply in order", "[{op:'add',path:'/n',value:{}},{op:'add',path:'/n/k',value:true}]", "{a:{b:1,'x/y':2,'m~n':3},list:[1,2,3],n:{k:true}}"),
                row("a null patch changes nothing", "null", DOC),
                row("a pointer walks through array items", "[{op:'add',path:'/list/0',value:{k:[]}},{op:'add',path:'/list/0/k/-',value:1}]",
                        "{a:{b:1,'x/y':2,'m~n':3},list:[{k:[1]},1,2,3]}"),
                row("move takes an item out of an array", "[{op:'move',from:'/list/0',path:'/first'}]", "{a:{b:1,'x/y':2,'m~n':3},list:[2,3],first:1}"),
                row("a negative index inserts before the last", "[{op:'add',path:'/list/-1',value:9}]", "{a:{b:1,'x/y':2,'m~n':3},list:[1,2,9,3]}"),
                row("a test of a missing path against null passes", "[{op:'test',path:'/nope',value:null}]", DOC),
                row("add without a value adds null", "[{op:'add',path:'/n'}]", "{a:{b:1,'x/y':2,'m~n':3},list:[1,2,3],n:null}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void applies(String patch, String expected) {
        ObjectNode target = J.obj(DOC);
        ObjectNode result = Patches.jsonPatch(target, J.node(patch));
        assertThat(result).isEqualTo(J.obj(expected));
        assertThat(target).as("input untouched").isEqualTo(J.obj(DOC));
    }

    static Stream<Arguments> failsAsTheServerAnswers() {
        return Stream.of(
                row("a failing test", "[{op:'test',path:'/a/b',value:2}]", "testing value a/b failed: test failed"),
                row("a test of a missing path against a value", "[{op:'test',path:'/nope',value:1}]", "testing value nope failed: test failed"),
                row("remove of a missing member", "[{op:'remove',path:'/a/zz'}]", "remove operation does not apply: doc is missing key: zz"),
                row("replace of a missing member", "[{op:'replace',path:'/a/zz',value:1}]", "replace operation does not apply: doc is missing key: zz"),
                row("add under a missing parent", "[{op:'add',path:'/no/such',value:1}]", "add operation does not apply: doc is missing path: no/such"),
                row("an index past the end", "[{op:'add',path:'/list/5',value:1}]", "Unable to access invalid index: 5"),
                row("an index that is not a number", "[{op:'replace',path:'/list/x',value:1}]", "Unable to access invalid index: x"),
                row("an unknown operation", "[{op:'frobnicate',path:'/a'}]", "Unexpected kind: frobnicate"),
                row("a path that is not a pointer", "[{op:'add',path:'a',value:1}]", "path is missing or not a JSON pointer: \"a\""),
                row("move into its own child", "[{op:'move',from:'/a',path:'/a/b/c'}]", "move operation cannot move a value into one of its children"),
                row("copy from a missing path", "[{op:'copy',from:'/zz',path:'/y'}]", "copy operation does not apply: doc is missing path: zz"),
                row("a path through a scalar", "[{op:'add',path:'/a/b/c',value:1}]", "add operation does not apply: parent is not a container"),
                row("a path through a missing array item", "[{op:'add',path:'/list/7/c',value:1}]", "add operation does not apply: doc is missing path: list/7/c"),
                row("a negative index before the start", "[{op:'remove',path:'/list/-4'}]", "Unable to access invalid index: -4"),
                row("remove past the end", "[{op:'remove',path:'/list/3'}]", "Unable to access invalid index: 3"),
                row("replacing the whole document", "[{op:'replace',path:'',value:{}}]", "replace operation does not apply to the whole document"),
                row("a later failing operation undoes the earlier ones", "[{op:'add',path:'/n',value:1},{op:'remove',path:'/zz'}]",
                        "remove operation does not apply: doc is missing key: zz"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void failsAsTheServerAnswers(String patch, String why) {
        ObjectNode target = J.obj(DOC);
        assertThat(JsonPatch.whyItFails(target, J.node(patch))).isEqualTo(why);
        assertThatThrownBy(() -> Patches.jsonPatch(target, J.node(patch)))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.code()).isEqualTo(422);
                    assertThat(e.status()).isEqualTo(J.obj("{kind:'Status',apiVersion:'v1',metadata:{},status:'Failure',"
                            + "message:'the server rejected our request due to an error in our request',reason:'Invalid',details:{},code:422}"));
                });
        assertThat(target).isEqualTo(J.obj(DOC));
    }

    @Test
    void aPatchThatIsNotAnArrayIsABadRequest() {
        assertThatThrownBy(() -> Patches.jsonPatch(J.obj(DOC), J.node("{op:'add'}")))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.code()).isEqualTo(400);
                    assertThat(e.status().get("reason").asText()).isEqualTo("BadRequest");
                    assertThat(e.getMessage()).isEqualTo("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
                });
        assertThatThrownBy(() -> Patches.jsonPatch(J.obj(DOC), J.node("[1]")))
                .hasMessage("json: cannot unmarshal number into Go value of type jsonpatch.Operation");
        assertThatThrownBy(() -> Patches.jsonPatch(J.obj(DOC), J.node("'s'")))
                .hasMessage("json: cannot unmarshal string into Go value of type jsonpatch.Patch");
    }

    @Test
    void moreThanTenThousandOperationsAreRefusedAsTooLarge() {
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i <= JsonPatch.MAX_OPERATIONS; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/a/b\",\"value\":1}");
        }
        assertThatThrownBy(() -> Patches.jsonPatch(J.obj(DOC), J.node(ops + "]")))
                .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(413))
                .hasMessage("Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001");
    }

    @org.junit.jupiter.api.Test
    void tenThousandOperationsAreStillAccepted() {
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i < JsonPatch.MAX_OPERATIONS; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/a/b\",\"value\":1}");
        }
        assertThat(Patches.jsonPatch(J.obj(DOC), J.node(ops + "]"))).isEqualTo(J.obj(DOC));
    }

    @org.junit.jupiter.api.Test
    void otherJsonTypesAreNamedAsGoNamesThem() {
        assertThatThrownBy(() -> Patches.jsonPatch(J.obj(DOC), J.node("true"))).hasMessage("json: cannot unmarshal bool into Go value of type jsonpatch.Patch");
        assertThatThrownBy(() -> Patches.jsonPatch(J.obj(DOC), J.node("[null]"))).hasMessage("json: cannot unmarshal null into Go value of type jsonpatch.Operation");
        assertThatThrownBy(() -> Patches.jsonPatch(J.obj(DOC), J.node("[[1]]"))).hasMessage("json: cannot unmarshal array into Go value of type jsonpatch.Operation");
    }

    static Arguments row(String name, String patch, String expected) {
        return Arguments.of(Named.of(name, patch), expected);
    }
}
