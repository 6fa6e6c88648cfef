package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Refusal;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every refusal and block ends the run of that StatefulSet before any write: read from the request log. */
class RefusalsTest {
    @TempDir Path home;

    StatefulSetResult convergeOne(Harness h, ObjectNode declared) {
        Assessment a = new Assessor(h.cluster(), h.events::add).assess(List.of(declared), false, Assessor.Depth.APPLY, false,
                Optional.empty());
        return h.converger().converge(a.items().get(0), Harness.options(), true);
    }

    void assertRefusedWithoutWrites(List<ObjectNode> cluster, ObjectNode declared, String reason) {
        try (Harness h = Harness.start(home.resolve(reason + declared.hashCode()), cluster)) {
            StatefulSetResult r = convergeOne(h, declared);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.REFUSED);
            assertThat(r.reason()).as(r.detail()).isEqualTo(reason);
            assertThat(h.writes()).as("writes of a refused StatefulSet").isEmpty();
        }
    }

    @Test
    void shrink() {
        assertRefusedWithoutWrites(Demo.cluster(), Demo.declared("redis"), "shrink");
    }

    @Test
    void not_expandable() {
        assertRefusedWithoutWrites(Demo.cluster(), Demo.declared("mysql"), "not-expandable");
    }

    @Test
    void template_changed() {
        assertRefusedWithoutWrites(Demo.cluster(), Demo.declared("postgres",
                d -> ((ObjectNode) d.at("/spec/volumeClaimTemplates/0/spec")).putArray("accessModes").add("ReadWriteMany")),
                "template-changed");
    }

    @Test
    void other_immutable_seen_in_the_manifest() {
        assertRefusedWithoutWrites(Demo.cluster(), Demo.declared("postgres",
                d -> ((ObjectNode) d.path("spec")).put("serviceName", "other")), "other-immutable");
    }

    @Test
    void other_immutable_found_only_by_the_servers_dry_run() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            h.sim.faults().add(FaultRule.onNth("patch", "statefulsets", "postgres", 1, Fault.status(422, "Invalid",
                    "StatefulSet.apps \"postgres\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than"
                            + " 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and"
                            + " 'minReadySeconds' are forbidden")));
            StatefulSetResult r = convergeOne(h, Demo.declared("postgres"));
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.REFUSED);
            assertThat(r.reason()).isEqualTo("other-immutable");
            assertThat(r.detail()).contains("spec: Forbidden: updates to statefulset spec");
            assertThat(h.writes()).isEmpty();
        }
    }

    @Test
    void another_dry_run_error_fails_with_the_servers_message_and_no_write() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            h.sim.faults().add(FaultRule.onNth("patch", "statefulsets", "postgres", 1, Fault.status(422, "Invalid",
                    "StatefulSet.apps \"postgres\" is invalid: spec.template.spec.containers[0].image: Required value")));
            StatefulSetResult r = convergeOne(h, Demo.declared("postgres"));
            assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(r.detail()).contains("spec.template.spec.containers[0].image: Required value", "Nothing was written");
            assertThat(h.writes()).isEmpty();
        }
    }

    @Test
    void a_statefulset_controlled_by_an_operator_is_refused_owned() {
        ObjectNode owner = Harness.yaml("apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: pg-operator, namespace: shop, uid: 7a1e0000-0000-4000-8000-000000000001}\n");
        List<ObjectNode> cluster = new java.util.ArrayList<>(Demo.clusterWith("StatefulSet", "postgres", s -> ((ObjectNode) s.path("metadata"))
                .putArray("ownerReferences").addObject().put("apiVersion", "coordination.k8s.io/v1").put("kind", "Lease").put("name", "pg-operator")
                .put("uid", "7a1e0000-0000-4000-8000-000000000001").put("controller", true)));
        cluster.add(owner);
        assertRefusedWithoutWrites(cluster, Demo.declared("postgres"), "owned");
    }

    @Test
    void refusal_reasons_come_from_the_decider_and_name_the_object() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("redis")), false,
                    Assessor.Depth.PLAN, false, Optional.empty());
            assertThat(a.items().get(0).decision()).isInstanceOf(Refusal.class);
            assertThat(a.items().get(0).decision().detail()).contains("data", "8Gi", "4Gi");
        }
    }
}
