package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MergeKeysTest {
    static Stream<Arguments> lists() {
        return Stream.of(
                Arguments.of("StatefulSet", "spec.template.spec.containers", "MAP", List.of("name"), "name"),
                Arguments.of("StatefulSet", "spec.template.spec.containers.ports", "MAP", List.of("containerPort", "protocol"), "containerPort"),
                Arguments.of("StatefulSet", "spec.template.spec.initContainers.env", "MAP", List.of("name"), "name"),
                Arguments.of("StatefulSet", "spec.template.spec.volumes", "MAP", List.of("name"), "name"),
                Arguments.of("StatefulSet", "spec.template.spec.containers.volumeMounts", "MAP", List.of("mountPath"), "mountPath"),
                Arguments.of("StatefulSet", "spec.template.metadata.finalizers", "SET", List.of(), null),
                Arguments.of("StatefulSet", "spec.volumeClaimTemplates", "ATOMIC", List.of(), null),
                Arguments.of("StatefulSet", "status.conditions", "MAP", List.of("type"), "type"),
                Arguments.of("Pod", "spec.ephemeralContainers", "MAP", List.of("name"), "name"),
                Arguments.of("Pod", "spec.imagePullSecrets", "MAP", List.of("name"), "name"),
                Arguments.of("Pod", "spec.tolerations", "ATOMIC", List.of(), null),
                Arguments.of("Job", "status.conditions", "ATOMIC", List.of(), "type"),
                Arguments.of("PersistentVolumeClaim", "spec.accessModes", "ATOMIC", List.of(), null),
                Arguments.of("PersistentVolumeClaim", "metadata.ownerReferences", "MAP", List.of("uid"), "uid"),
                Arguments.of("Role", "rules", "ATOMIC", List.of(), null),
                Arguments.of("ServiceAccount", "secrets", "MAP", List.of("name"), "name"),
                Arguments.of(null, "metadata.finalizers", "SET", List.of(), null));
    }

    @ParameterizedTest(name = "{0} {1}: {2} {3}, smp key {4}")
    @MethodSource
    void lists(String kind, String path, String type, List<String> keys, String smpKey) {
        MergeKeys.ListSchema s = MergeKeys.list(kind, path);
        assertThat(s.ssaType().name()).isEqualTo(type);
        assertThat(s.ssaKeys()).isEqualTo(keys);
        assertThat(s.smpKey()).isEqualTo(smpKey);
        assertThat(s.smpMerge()).isEqualTo(smpKey != null || type.equals("SET"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource
    void atomicStructs(String kind, String path, boolean atomic) {
        assertThat(MergeKeys.atomicStruct(kind, path)).isEqualTo(atomic);
    }

    static Stream<Arguments> atomicStructs() {
        return Stream.of(Arguments.of("StatefulSet", "spec.selector", true), Arguments.of("NetworkPolicy", "spec.podSelector", true),
                Arguments.of("StatefulSet", "spec.template", false), Arguments.of(null, "spec.selector", false));
    }
}
