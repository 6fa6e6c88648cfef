package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class MergePatchTest {
    private static final String DOC = "{spec:{replicas:1,resources:{requests:{storage:'1Gi'}},list:[1,2]},keep:'k'}";

    static Stream<Arguments> merges() {
        return Stream.of(
                JsonPatchTest.row("a null deletes the member", "{spec:{replicas:null}}", "{spec:{resources:{requests:{storage:'1Gi'}},list:[1,2]},keep:'k'}"),
                JsonPatchTest.row("a null for a missing member is a no-op", "{nope:null}", DOC),
                JsonPatchTest.row("objects merge recursively", "{spec:{resources:{requests:{storage:'2Gi'}}}}",
                        "{spec:{replicas:1,resources:{requests:{storage:'2Gi'}},list:[1,2]},keep:'k'}"),
                JsonPatchTest.row("arrays are replaced whole", "{spec:{list:[3]}}", "{spec:{replicas:1,resources:{requests:{storage:'1Gi'}},list:[3]},keep:'k'}"),
                JsonPatchTest.row("an object replacing a scalar keeps no nulls", "{keep:{a:1,b:null,c:{d:null}}}",
                        "{spec:{replicas:1,resources:{requests:{storage:'1Gi'}},list:[1,2]},keep:{a:1,c:{}}}"),
                JsonPatchTest.row("a scalar replaces an object", "{spec:5}", "{spec:5,keep:'k'}"),
                JsonPatchTest.row("nulls inside objects inside a new array are pruned", "{arr:[{a:null,b:1},null]}",
                        "{spec:{replicas:1,resources:{requests:{storage:'1Gi'}},list:[1,2]},keep:'k',arr:[{b:1},null]}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void merges(String patch, String expected) {
        ObjectNode target = J.obj(DOC);
        assertThat(Patches.mergePatch(target, J.node(patch))).isEqualTo(J.obj(expected));
        assertThat(target).as("input untouched").isEqualTo(J.obj(DOC));
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "[1]", "'text'", "3"})
    void aPatchThatIsNotAnObjectIsABadRequest(String patch) {
        assertThatThrownBy(() -> Patches.mergePatch(J.obj(DOC), J.node(patch)))
                .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.status())
                        .isEqualTo(J.obj("{kind:'Status',apiVersion:'v1',metadata:{},status:'Failure',message:'Invalid JSON Patch',reason:'BadRequest',code:400}")));
    }
}
