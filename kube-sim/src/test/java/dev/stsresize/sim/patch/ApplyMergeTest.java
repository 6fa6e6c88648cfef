package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ApplyMergeTest {
    private final ApplyMerge merge = new ApplyMerge("StatefulSet");

    static String containers(String names) {
        StringBuilder b = new StringBuilder("{spec:{template:{spec:{containers:[");
        for (int i = 0; i < names.length(); i++) {
            b.append(i == 0 ? "" : ",").append("{name:'").append(names.charAt(i)).append("'}");
        }
        return b.append("]}}}}").toString();
    }

    static String names(JsonNode merged) {
        StringBuilder b = new StringBuilder();
        merged.at("/spec/template/spec/containers").forEach(c -> b.append(c.get("name").asText()));
        return b.toString();
    }

    static Stream<Arguments> itemOrder() {
        return Stream.of(
                Arguments.of("abc", "ca", "bca"),
                Arguments.of("ab", "axb", "axb"),
                Arguments.of("ab", "b", "ab"),
                Arguments.of("a", "z", "az"),
                Arguments.of("", "ba", "ba"),
                Arguments.of("ba", "", "ba"),
                Arguments.of("abcd", "db", "acdb"));
    }

    @ParameterizedTest(name = "live {0} + config {1} = {2}")
    @MethodSource
    void itemOrder(String live, String config, String expected) {
        assertThat(names(merge.merge(J.obj(containers(live)), J.obj(containers(config))))).isEqualTo(expected);
    }

    static Stream<Arguments> merges() {
        String live = "{metadata:{finalizers:['a','b'],labels:{x:'1',y:'2'}},spec:{replicas:1,selector:{matchLabels:{a:'1',b:'2'}},"
                + "volumeClaimTemplates:[{metadata:{name:'data'}},{metadata:{name:'logs'}}],"
                + "template:{spec:{containers:[{name:'web',image:'1',env:[{name:'A',value:'1'}]}]}}}}";
        return Stream.of(
                JsonPatchTest.row("maps merge", "{metadata:{labels:{y:'9',z:'3'}}}", "/metadata/labels={x:'1',y:'9',z:'3'}|" + live),
                JsonPatchTest.row("a null removes", "{spec:{replicas:null}}", "/spec/replicas=null|" + live),
                JsonPatchTest.row("atomic lists are replaced", "{spec:{volumeClaimTemplates:[{metadata:{name:'new'}}]}}",
                        "/spec/volumeClaimTemplates=[{metadata:{name:'new'}}]|" + live),
                JsonPatchTest.row("atomic structs are replaced", "{spec:{selector:{matchLabels:{c:'3'}}}}", "/spec/selector={matchLabels:{c:'3'}}|" + live),
                JsonPatchTest.row("sets are merged", "{metadata:{finalizers:['c','a']}}", "/metadata/finalizers=['c','a','b']|" + live),
                JsonPatchTest.row("items merge field by field", "{spec:{template:{spec:{containers:[{name:'web',env:[{name:'B',value:'2'}]}]}}}}",
                        "/spec/template/spec/containers=[{name:'web',image:'1',env:[{name:'A',value:'1'},{name:'B',value:'2'}]}]|" + live),
                JsonPatchTest.row("a scalar replaces a map", "{spec:{template:'x'}}", "/spec/template='x'|" + live),
                JsonPatchTest.row("new values lose their nulls", "{spec:{extra:{a:null,b:1}}}", "/spec/extra={b:1}|" + live));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void merges(String config, String expectation) {
        String[] parts = expectation.split("\\|", 2);
        ObjectNode live = J.obj(parts[1]);
        ObjectNode result = merge.merge(live, J.obj(config));
        String pointer = parts[0].substring(0, parts[0].indexOf('='));
        String value = parts[0].substring(parts[0].indexOf('=') + 1);
        if (value.equals("null")) {
            assertThat(result.at(pointer).isMissingNode()).isTrue();
        } else {
            assertThat(result.at(pointer)).isEqualTo(J.node(value));
        }
        assertThat(live).as("input untouched").isEqualTo(J.obj(parts[1]));
    }

    /** Any two orders of distinct items: the walk ends, keeps every item once, and keeps the config's order. */
    @Test
    void mergingAnyTwoOrdersEndsWithEveryItemOnceInConfigOrder() {
        Random random = new Random(42);
        for (int round = 0; round < 2000; round++) {
            String live = sample(random);
            String config = sample(random);
            String merged = assertTimeoutPreemptively(Duration.ofSeconds(2),
                    () -> names(merge.merge(J.obj(containers(live)), J.obj(containers(config)))));
            Set<Character> union = new LinkedHashSet<>();
            (live + config).chars().forEach(c -> union.add((char) c));
            assertThat(merged).as(live + " + " + config).hasSize(union.size());
            assertThat(merged.chars().mapToObj(c -> (char) c).toList()).containsExactlyInAnyOrderElementsOf(union);
            assertThat(merged.replaceAll("[^" + (config.isEmpty() ? "-" : config) + "]", "")).as(live + " + " + config).isEqualTo(config);
        }
    }

    private static String sample(Random random) {
        List<Character> letters = new ArrayList<>(List.of('a', 'b', 'c', 'd', 'e'));
        Collections.shuffle(letters, random);
        StringBuilder b = new StringBuilder();
        letters.subList(0, random.nextInt(6)).forEach(b::append);
        return b.toString();
    }

    @Test
    void removingAListItemOrAFieldInsideOneDropsWhatIsLeftEmpty() {
        ObjectNode object = J.obj("{metadata:{labels:{only:'x'}},spec:{template:{spec:{containers:[{name:'web',image:'1'},{name:'side',image:'2'}]}}}}");
        FieldSet gone = FieldsV1.decode(J.node("{'f:metadata':{'f:labels':{'f:only':{}}},"
                + "'f:spec':{'f:template':{'f:spec':{'f:containers':{'k:{\"name\":\"side\"}':{},'k:{\"name\":\"web\"}':{'f:image':{}},"
                + "'k:{\"name\":\"absent\"}':{}}}}},'f:nothing':{'f:here':{}}}"));
        merge.remove(object, gone);
        assertThat(object).isEqualTo(J.obj("{spec:{template:{spec:{containers:[{name:'web'}]}}}}"));
    }

    @Test
    void itemsOfASetAreRemovedByValue() {
        ObjectNode object = J.obj("{metadata:{finalizers:['a','b']}}");
        merge.remove(object, FieldsV1.decode(J.node("{'f:metadata':{'f:finalizers':{'v:\"a\"':{}}}}")));
        assertThat(object).isEqualTo(J.obj("{metadata:{finalizers:['b']}}"));
        ArrayNode unchanged = (ArrayNode) object.at("/metadata/finalizers");
        assertThat(unchanged).hasSize(1);
    }
}
