package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.LiveState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the assessment tells an operator as it decides (each verdict and each warning, per
 * StatefulSet), that its list comes back in name order however it was handed in, and that every
 * claim a StatefulSet owns by name is found, whatever its ordinal's last digit.
 */
class AssessorOutcomesInMemoryTest extends OnMemoryWorld {

    @Test
    void each_decision_and_each_of_its_warnings_is_said_as_it_is_made() {
        w.cluster.csiDriversForbidden = true;
        Assessment decided = new Assessor(w.cluster, w.heard).readAndDecide(List.of(MemoryWorld.declared("postgres")), false,
                Optional.empty());
        Decision d = decided.items().get(0).decision();
        assertThat(w.heard.events).anySatisfy(p -> {
            assertThat(p.step()).isEqualTo(Phase.DECIDE);
            assertThat(p.namespace()).isEqualTo("shop");
            assertThat(p.name()).isEqualTo("postgres");
            assertThat(p.message()).isEqualTo("grow: " + d.detail());
            assertThat(p.warning()).isFalse();
        });
        assertThat(d.warnings()).as("a CSI class whose resizer is unchecked is warned of").isNotEmpty();
        for (String warning : d.warnings()) {
            assertThat(w.heard.events).anySatisfy(p -> {
                assertThat(p.step()).isEqualTo(Phase.DECIDE);
                assertThat(p.message()).isEqualTo(warning);
                assertThat(p.warning()).isTrue();
            });
        }
    }

    @Test
    void the_proved_list_is_in_namespace_and_name_order_however_it_was_handed_in() {
        Assessor assessor = new Assessor(w.cluster, w.heard);
        Assessment decided = assessor.readAndDecide(List.of(MemoryWorld.declared("redis"), MemoryWorld.declared("postgres"),
                MemoryWorld.declared("clickhouse")), false, Optional.empty());
        List<Assessed> reversed = new ArrayList<>(decided.items());
        java.util.Collections.reverse(reversed);
        Assessment proved = assessor.prove(new Assessment(reversed, decided.notes(), Set.of(), decided.claims()), Assessor.Depth.PLAN,
                false);
        assertThat(proved.items()).extracting(a -> a.namespace() + "/" + a.name()).containsExactly("analytics/clickhouse", "shop/postgres",
                "shop/redis");
    }

    @Test
    void one_statefulset_alone_is_proved_and_told_as_many_are() {
        Assessment one = new Assessor(w.cluster, w.heard).assess(List.of(MemoryWorld.declared("postgres")), false, Assessor.Depth.APPLY,
                false, Optional.empty());
        assertThat(one.items()).hasSize(1);
        assertThat(w.heard.events).filteredOn(p -> p.step() == Phase.CHECK).extracting(ProgressEvent::message).containsExactly(
                "server dry run: the claim templates are the only immutable difference",
                "server dry run: 3 claim patch(es) accepted",
                "server dry run: the orphan delete (UID " + w.uid("StatefulSet", "shop", "postgres") + ") is accepted");
        List<String> told = new ArrayList<>();
        assertThat(Together.all(List.<java.util.concurrent.Callable<String>>of(() -> "alone"), told::add)).containsExactly("alone");
        assertThat(told).containsExactly("alone");
    }

    @Test
    void every_ordinal_is_found_whatever_its_last_digit() {
        List<ObjectNode> claims = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            claims.add(Harness.yaml("{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data-db-" + i + ", namespace: ns},"
                    + " spec: {storageClassName: gp3, resources: {requests: {storage: 10Gi}}}, status: {phase: Bound, capacity: {storage: 10Gi}}}"));
        }
        LiveState state = new LiveState(List.of(AssessorDecideTest.sts("db", "10Gi", 12)), claims, List.of(Harness.yaml(
                "{apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: gp3}, allowVolumeExpansion: true}")));
        Decision d = Assessor.decide(List.of(AssessorDecideTest.sts("db", "20Gi", 12)), state).get(0);
        assertThat(d.claims()).extracting(c -> c.name()).contains("data-db-0", "data-db-9", "data-db-10", "data-db-11").hasSize(12);
        assertThat(d.claimsToGrow()).hasSize(12);
    }
}
