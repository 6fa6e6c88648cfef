package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ObjectFieldsTest {
    private final ObjectFields fields = new ObjectFields("StatefulSet");

    static Stream<Arguments> compare() {
        return Stream.of(
                Arguments.of("a changed scalar is modified", "{spec:{replicas:1}}", "{spec:{replicas:2}}", "", ".spec.replicas", ""),
                Arguments.of("numbers compare by value", "{spec:{replicas:1}}", "{spec:{replicas:1.0}}", "", "", ""),
                Arguments.of("a new map is added with its leaves", "{metadata:{}}", "{metadata:{labels:{a:'1'}}}",
                        ".metadata.labels\n.metadata.labels.a", "", ""),
                Arguments.of("a removed map is removed with its leaves", "{metadata:{labels:{a:'1'}}}", "{metadata:{}}", "",
                        "", ".metadata.labels\n.metadata.labels.a"),
                Arguments.of("spec never gets a path of its own", "{}", "{spec:{replicas:1}}", ".spec.replicas", "", ""),
                Arguments.of("an empty map set where none was is added", "{spec:{}}", "{spec:{x:{}}}", ".spec.x", "", ""),
                Arguments.of("two empty maps are no change", "{spec:{x:{}}}", "{spec:{x:{}}}", "", "", ""),
                Arguments.of("an atomic list changes as one field", "{spec:{volumeClaimTemplates:[{a:1}]}}", "{spec:{volumeClaimTemplates:[{a:2}]}}",
                        "", ".spec.volumeClaimTemplates", ""),
                Arguments.of("an atomic struct changes as one field", "{spec:{selector:{matchLabels:{a:'1'}}}}", "{spec:{selector:{matchLabels:{a:'2'}}}}",
                        "", ".spec.selector", ""),
                Arguments.of("a keyed item changes field by field", "{spec:{template:{spec:{containers:[{name:'w',image:'1'}]}}}}",
                        "{spec:{template:{spec:{containers:[{name:'w',image:'2'}]}}}}", "", ".spec.template.spec.containers[name=\"w\"].image", ""),
                Arguments.of("a new keyed item is added whole", "{spec:{template:{spec:{containers:[]}}}}",
                        "{spec:{template:{spec:{containers:[{name:'w'}]}}}}",
                        ".spec.template.spec.containers[name=\"w\"]\n.spec.template.spec.containers[name=\"w\"].name", "", ""),
                Arguments.of("set items come and go by value", "{metadata:{finalizers:['a']}}", "{metadata:{finalizers:['b']}}",
                        ".metadata.finalizers[=\"b\"]", "", ".metadata.finalizers[=\"a\"]"),
                Arguments.of("a map turned scalar is modified", "{spec:{x:{a:1}}}", "{spec:{x:5}}", "", ".spec.x", ""),
                Arguments.of("a list turned map is modified", "{spec:{x:[1]}}", "{spec:{x:{a:1}}}", "", ".spec.x", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void compare(String name, String before, String after, String added, String modified, String removed) {
        ObjectFields.Comparison c = fields.compare(J.node(before), J.node(after));
        assertThat(c.added().toString()).isEqualTo(added);
        assertThat(c.modified().toString()).isEqualTo(modified);
        assertThat(c.removed().toString()).isEqualTo(removed);
    }

    static Stream<Arguments> toFieldSet() {
        return Stream.of(
                Arguments.of("scalars and nulls and empty maps are owned", "{spec:{a:1,b:null,c:{}}}", ".spec.a\n.spec.b\n.spec.c"),
                Arguments.of("an empty non-atomic list names nothing", "{spec:{template:{spec:{containers:[]}}}}", ""),
                Arguments.of("an atomic list is one field", "{spec:{volumeClaimTemplates:[{a:1}]}}", ".spec.volumeClaimTemplates"),
                Arguments.of("an atomic struct is one field", "{spec:{selector:{matchLabels:{a:'1'}}}}", ".spec.selector"),
                Arguments.of("a container port is keyed with its default protocol",
                        "{spec:{template:{spec:{containers:[{name:'w',ports:[{containerPort:80}]}]}}}}",
                        ".spec.template.spec.containers[name=\"w\"]\n.spec.template.spec.containers[name=\"w\"].name\n"
                                + ".spec.template.spec.containers[name=\"w\"].ports[containerPort=80,protocol=\"TCP\"]\n"
                                + ".spec.template.spec.containers[name=\"w\"].ports[containerPort=80,protocol=\"TCP\"].containerPort"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void toFieldSet(String name, String object, String paths) {
        assertThat(fields.toFieldSet(J.node(object)).toString()).isEqualTo(paths);
    }
}
