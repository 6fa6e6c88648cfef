package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A field newer than client-java 27 (made up: {@code spec.someFutureField} on the StatefulSet and on
 * its container), on a server that knows it: carried byte for byte through the re-apply, and through
 * the restore of the backup when the re-apply fails. Read back from the simulated server.
 */
class FutureFieldsTest {
    static final String STS_FIELD = ".spec.someFutureField";
    static final String CONTAINER_FIELD = ".spec.template.spec.containers.someFutureField";
    /** Nesting, a list in its own order, keys not sorted, a decimal, unicode. */
    static final String STS_VALUE = "{\"mode\":\"gentle\",\"weights\":[3,1,2],\"note\":\"é ✓\",\"nested\":{\"z\":1.5,\"a\":true}}";
    static final String CONTAINER_VALUE = "{\"sidecarOrder\":[\"b\",\"a\"],\"limit\":2}";

    @TempDir Path home;

    static final Consumer<ObjectNode> WITH_FUTURE_FIELDS = s -> {
        ((ObjectNode) s.path("spec")).set("someFutureField", Harness.yaml(STS_VALUE));
        ((ObjectNode) s.at("/spec/template/spec/containers/0")).set("someFutureField", Harness.yaml(CONTAINER_VALUE));
    };

    static Harness start(Path home) {
        Harness h = Harness.start(home, Demo.clusterWith("StatefulSet", "postgres", WITH_FUTURE_FIELDS));
        // without it, the simulated server refuses the field as the real one refuses a field it does not know
        ObjectNode declared = Demo.declared("postgres", WITH_FUTURE_FIELDS);
        assertThatThrownBy(() -> h.cluster().applyStatefulSet(declared, "kubectl", true, true))
                .isInstanceOf(ClusterException.class).hasMessageContaining("someFutureField: field not declared in schema");
        h.sim.declareField("apps/v1", "StatefulSet", STS_FIELD).declareField("apps/v1", "StatefulSet", CONTAINER_FIELD);
        return h;
    }

    static void assertCarried(ObjectNode sts, ObjectNode live) {
        String json = Objects.json(sts.at("/spec/someFutureField"));
        assertThat(json).as("spec.someFutureField read back").isEqualTo(Objects.json(live.at("/spec/someFutureField")))
                .isEqualTo(Objects.json(Harness.yaml(STS_VALUE)));
        assertThat(Objects.json(sts.at("/spec/template/spec/containers/0/someFutureField"))).as("the container's, read back")
                .isEqualTo(Objects.json(live.at("/spec/template/spec/containers/0/someFutureField")))
                .isEqualTo(Objects.json(Harness.yaml(CONTAINER_VALUE)));
    }

    @Test
    void the_re_applied_statefulset_carries_them_and_its_pods_are_not_restarted() {
        try (Harness h = start(home)) {
            ObjectNode live = h.sts("shop", "postgres");
            Map<String, String> pods = ResizeModesTest.podUids(h, "shop", "postgres", 3);
            StatefulSetResult r = ResizeModesTest.converge(h, Demo.declared("postgres", WITH_FUTURE_FIELDS), Harness.options());
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            ObjectNode sts = h.sts("shop", "postgres");
            assertThat(Harness.uid(sts)).as("re-created").isNotEqualTo(Harness.uid(live));
            assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            assertCarried(sts, live);
            assertThat(ResizeModesTest.podUids(h, "shop", "postgres", 3)).isEqualTo(pods);
        }
    }

    @Test
    void the_restored_backup_carries_them_when_the_re_apply_fails() {
        try (Harness h = start(home)) {
            // 1: the proof's dry run, 2: the re-apply's dry run, 3: the re-apply itself
            h.sim.faults().add(FaultRule.onNth("patch", "statefulsets", "postgres", 3, Fault.status(422, "Invalid",
                    "StatefulSet.apps \"postgres\" is invalid: metadata.annotations: Too long: must have at most 262144 bytes")));
            ObjectNode live = h.sts("shop", "postgres");
            StatefulSetResult r = ResizeModesTest.converge(h, Demo.declared("postgres", WITH_FUTURE_FIELDS), Harness.options());
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.FAILED);
            assertThat(r.detail()).contains("backup was restored");
            ObjectNode restored = h.sts("shop", "postgres");
            assertThat(Harness.uid(restored)).isNotEqualTo(Harness.uid(live));
            assertThat(restored.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("10Gi");
            assertCarried(restored, live);
            JsonNode template = restored.at("/spec/template");
            assertThat(Objects.json(template)).isEqualTo(Objects.json(live.at("/spec/template")));
        }
    }
}
