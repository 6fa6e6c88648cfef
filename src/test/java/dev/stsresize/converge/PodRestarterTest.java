package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.plan.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod restarted for its claim's file system: through the Eviction API (its budget holds), then
 * followed until a NEW pod of that name is Ready and the claim has reached its target.
 */
class PodRestarterTest {
    private static final Quantity TARGET = Quantity.parse("20Gi");
    private final MemoryCluster cluster = new MemoryCluster();
    private final List<ProgressEvent> said = new ArrayList<>();
    private final List<String> checkpoints = new ArrayList<>();
    private final List<String> evicted = new ArrayList<>();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, said::add, new StopRequest());
    private final Events events = new Events(cluster, cluster.time, "alice", e -> { });
    private final PodRestarter restarter = new PodRestarter(cluster, waiter, events, said::add, checkpoints::add);
    private final ObjectNode sts = MemoryCluster.json("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'db',"
            + "'namespace':'shop','uid':'s1'}}");

    private void pod(String name, String uid, boolean ready, boolean terminating) {
        cluster.put("{'kind':'Pod','metadata':{'name':'" + name + "','namespace':'shop','uid':'" + uid + "'"
                + (terminating ? ",'deletionTimestamp':'t'" : "") + "},'status':{'conditions':[{'type':'Ready','status':'"
                + (ready ? "True" : "False") + "'}]}}");
    }

    private Instant soon() {
        return cluster.time.instant().plus(Duration.ofSeconds(30));
    }

    private String restart(String claim) {
        return restarter.restartFor(sts, claim, TARGET, soon(), evicted::add);
    }

    /** After the eviction, the StatefulSet controller re-creates the pod and the kubelet grows the file system. */
    private void recreatedAndGrown(String pod, boolean ready, String capacity) {
        cluster.afterWrite = c -> {
            if (c.method().equals("evictPod")) {
                pod(pod, "new-" + pod, ready, false);
                cluster.edit("PersistentVolumeClaim", "shop", "data-" + pod, x -> ((ObjectNode) x.at("/status/capacity")).put("storage",
                        capacity));
            }
        };
    }

    @Test
    void the_pod_is_evicted_and_its_replacement_and_the_claim_followed_to_the_end() {
        pod("db-12", "old", true, false);
        cluster.put(ClaimGrowerTest.claim("data-db-12", "20Gi", "10Gi"));
        recreatedAndGrown("db-12", true, "20Gi");

        assertThat(restart("data-db-12")).isEmpty();
        assertThat(evicted).containsExactly("db-12");
        assertThat(cluster.writes("evictPod")).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("db-12");
            assertThat(c.dryRun()).isFalse();
        });
        assertThat(checkpoints).containsExactly("evict pod db-12");
        assertThat(said).filteredOn(p -> p.write() != null).singleElement().satisfies(p -> {
            assertThat(p.write()).isEqualTo(new Write.Eviction("shop", "db-12"));
            assertThat(p.step()).isEqualTo(Phase.RESTART);
            assertThat(p.message()).isEqualTo("pod db-12 evicted to finish the file system resize of data-db-12");
        });
        events.flush(); // as a run does at its end: the Events go off the critical path
        assertThat(cluster.eventsCreated).singleElement().satisfies(e -> {
            assertThat(e.path("reason").asText()).isEqualTo("PodEvicted");
            assertThat(e.at("/regarding/name").asText()).isEqualTo("db");
        });
        assertThat(cluster.deletes()).isEmpty();
    }

    @Test
    void a_pod_that_does_not_exist_is_not_evicted() {
        assertThat(restart("data-db-0")).isEqualTo("pod db-0 does not exist (scaled away?): the file system of data-db-0 grows when a pod"
                + " mounts it");
        assertThat(cluster.writes()).isEmpty();
    }

    @Test
    void a_budget_that_refuses_is_said_with_the_command_to_restart_later() {
        pod("db-0", "old", true, false);
        cluster.failNext("evictPod", MemoryCluster.error(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption"
                + " budget."));
        assertThat(restart("data-db-0")).isEqualTo("evicting pod db-0 is refused by its PodDisruptionBudget (Cannot evict pod as it would"
                + " violate the pod's disruption budget.); restart it when the budget allows: kubectl delete pod db-0 -n shop");
        assertThat(evicted).isEmpty();
        assertThat(checkpoints).isEmpty();
        assertThat(cluster.get("Pod", "shop", "db-0")).isPresent();
    }

    @Test
    void any_other_refusal_is_the_callers_but_a_pod_gone_meanwhile_is_followed_as_evicted() {
        pod("db-0", "old", true, false);
        cluster.failNext("evictPod", MemoryCluster.error(403, "Forbidden", "pods/eviction is forbidden"));
        assertThatThrownBy(() -> restart("data-db-0")).isInstanceOf(ClusterException.class).hasMessage("pods/eviction is forbidden");
        assertThat(evicted).isEmpty();

        cluster.failNext("evictPod", MemoryCluster.error(404, "NotFound", "pods \"db-0\" not found"));
        cluster.put(ClaimGrowerTest.claim("data-db-0", "20Gi", "20Gi"));
        cluster.onWatch("Pod", "shop", "db-0", () -> pod("db-0", "new", true, false));
        assertThat(restart("data-db-0")).isEmpty();
        assertThat(evicted).containsExactly("db-0");
    }

    @Test
    void the_old_pod_a_terminating_one_or_one_not_ready_is_no_restart() {
        pod("db-0", "old", true, false);
        cluster.put(ClaimGrowerTest.claim("data-db-0", "20Gi", "20Gi"));
        cluster.afterWrite = c -> pod("db-0", "old", true, false);
        assertThat(restart("data-db-0")).isEqualTo("pod db-0 was evicted but is not Running and Ready again yet");

        cluster.afterWrite = c -> pod("db-0", "new", true, true);
        assertThat(restart("data-db-0")).isEqualTo("pod db-0 was evicted but is not Running and Ready again yet");

        cluster.afterWrite = c -> pod("db-0", "new2", false, false);
        assertThat(restart("data-db-0")).isEqualTo("pod db-0 was evicted but is not Running and Ready again yet");
    }

    @Test
    void a_claim_that_has_not_reached_its_target_or_is_gone_is_said() {
        pod("db-0", "old", true, false);
        cluster.put(ClaimGrowerTest.claim("data-db-0", "20Gi", "10Gi"));
        recreatedAndGrown("db-0", true, "15Gi");
        assertThat(restart("data-db-0")).isEqualTo("pod db-0 restarted but claim data-db-0 has not reached 20Gi");

        cluster.afterWrite = c -> {
            pod("db-0", "newer", true, false);
            cluster.remove("PersistentVolumeClaim", "shop", "data-db-0");
        };
        assertThat(restarter.restartFor(sts, "data-db-0", TARGET, soon())).isEqualTo("pod db-0 restarted but claim data-db-0 has not"
                + " reached 20Gi");
    }
}
