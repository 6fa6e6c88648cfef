package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.ClaimGrower.State;
import dev.stsresize.plan.Quantity;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Where a claim as read stands toward its target, the one reading every view and the run's ending
 * use: from its capacity, the resizer's allocation status, its conditions and its request; and the
 * warning a run ends with for a claim that has not caught up.
 */
class ClaimStateTest {
    private static final Quantity TARGET = Quantity.parse("20Gi");

    private static ObjectNode claim(String request, String capacity, String allocation, String... trueConditions) {
        ObjectNode c = Objects.parse("{\"metadata\":{\"name\":\"data-db-1\"},\"spec\":{\"resources\":{\"requests\":{}}},\"status\":{}}");
        if (request != null) {
            ((ObjectNode) c.path("spec").path("resources").path("requests")).put("storage", request);
        }
        ObjectNode status = (ObjectNode) c.get("status");
        if (capacity != null) {
            status.putObject("capacity").put("storage", capacity);
        }
        if (allocation != null) {
            status.putObject("allocatedResourceStatuses").put("storage", allocation);
        }
        var conditions = status.putArray("conditions");
        conditions.addObject().put("type", "Ignored").put("status", "False");
        for (String t : trueConditions) {
            conditions.addObject().put("type", t).put("status", "True").put("message", t + " says why");
        }
        return c;
    }

    @Test
    void a_capacity_at_or_past_the_target_is_grown_whatever_else_it_says() {
        assertThat(ClaimGrower.stateOf(claim("20Gi", "20Gi", "ControllerResizeInfeasible", "FileSystemResizePending"), TARGET)).isEqualTo(State.GROWN);
        assertThat(ClaimGrower.stateOf(claim("10Gi", "21Gi", null), TARGET)).isEqualTo(State.GROWN);
        assertThat(ClaimGrower.stateOf(claim("20Gi", "21474836480", null), TARGET)).as("same value, other notation").isEqualTo(State.GROWN);
    }

    @Test
    void below_the_target_the_resizers_verdict_comes_before_the_file_system_and_the_request() {
        assertThat(ClaimGrower.stateOf(claim("20Gi", "10Gi", "NodeResizeInfeasible", "FileSystemResizePending"), TARGET)).isEqualTo(State.INFEASIBLE);
        assertThat(ClaimGrower.stateOf(claim("20Gi", "10Gi", "ControllerResizeInProgress", "FileSystemResizePending"), TARGET))
                .isEqualTo(State.FILE_SYSTEM_PENDING);
        assertThat(ClaimGrower.stateOf(claim("20Gi", "10Gi", "ControllerResizeInProgress"), TARGET)).isEqualTo(State.WAITING);
        assertThat(ClaimGrower.stateOf(claim("25Gi", null, null), TARGET)).as("no capacity yet").isEqualTo(State.WAITING);
        assertThat(ClaimGrower.stateOf(claim("19Gi", "10Gi", null), TARGET)).isEqualTo(State.REQUESTED_LESS);
        assertThat(ClaimGrower.stateOf(claim(null, "10Gi", null), TARGET)).isEqualTo(State.REQUESTED_LESS);
        assertThat(ClaimGrower.stateOf(claim("garbage", "garbage", null), TARGET)).isEqualTo(State.REQUESTED_LESS);
    }

    @Test
    void only_a_request_or_a_capacity_still_short_of_the_target_is_unsettled() {
        assertThat(State.REQUESTED_LESS.settled()).isFalse();
        assertThat(State.WAITING.settled()).isFalse();
        for (State s : new State[] {State.FILE_SYSTEM_PENDING, State.GROWN, State.INFEASIBLE, State.GONE}) {
            assertThat(s.settled()).as(s.name()).isTrue();
        }
    }

    @Test
    void the_status_shows_the_state_its_sentence_and_the_true_conditions() {
        var gone = ClaimGrower.status("data-db-1", "10Gi", TARGET, Optional.empty());
        assertThat(gone.state()).isEqualTo(State.GONE);
        assertThat(gone.message()).isEqualTo("the claim no longer exists");
        assertThat(gone.to()).isEqualTo("20Gi");

        var infeasible = ClaimGrower.status("data-db-1", "10Gi", TARGET,
                Optional.of(claim("20Gi", "10Gi", "ControllerResizeInfeasible", "ControllerResizeError")));
        assertThat(infeasible.state()).isEqualTo(State.INFEASIBLE);
        assertThat(infeasible.message()).isEqualTo("ControllerResizeError says why");
        assertThat(infeasible.conditions()).containsExactly("ControllerResizeError");
        assertThat(ClaimGrower.status("c", "10Gi", TARGET, Optional.of(claim("20Gi", "10Gi", "NodeResizeInfeasible"))).message())
                .isEqualTo("the resizer reports NodeResizeInfeasible");

        var waiting = ClaimGrower.status("data-db-1", "10Gi", TARGET, Optional.of(claim("20Gi", "10Gi", null, "Resizing")));
        assertThat(waiting.message()).isEqualTo("capacity 10Gi has not reached 20Gi (Resizing)");
        assertThat(waiting.request()).isEqualTo("20Gi");
        assertThat(waiting.capacity()).isEqualTo("10Gi");
        assertThat(ClaimGrower.status("c", "10Gi", TARGET, Optional.of(claim("10Gi", "10Gi", null))).message())
                .isEqualTo("capacity 10Gi has not reached 20Gi");
        assertThat(ClaimGrower.status("c", "10Gi", TARGET, Optional.of(claim("20Gi", "10Gi", null, "FileSystemResizePending"))).message())
                .startsWith("the volume grew; the kubelet grows its file system");
        assertThat(ClaimGrower.status("c", "10Gi", TARGET, Optional.of(claim("20Gi", "20Gi", null))).message()).isEmpty();
    }

    /** A cluster that only answers which pods exist. */
    private static Cluster pods(Map<String, ObjectNode> pods) {
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class}, (p, m, args) -> {
            if (m.getName().equals("getPod")) {
                assertThat(args[0]).isEqualTo("shop");
                return Optional.ofNullable(pods.get((String) args[1]));
            }
            throw new AssertionError("not expected: " + m.getName());
        });
    }

    private static ObjectNode podMounting(String claim) {
        ObjectNode pod = Objects.parse("{\"spec\":{\"volumes\":[{\"name\":\"v\",\"persistentVolumeClaim\":{}}]}}");
        ((ObjectNode) pod.path("spec").path("volumes").get(0).get("persistentVolumeClaim")).put("claimName", claim);
        return pod;
    }

    @Test
    void a_grown_claim_has_no_warning_and_one_short_of_its_target_says_what_it_shows() {
        Cluster none = pods(Map.of());
        assertThat(ClaimWarnings.of(none, "shop", "db", claim("20Gi", "20Gi", null), TARGET)).isEmpty();
        assertThat(ClaimWarnings.of(none, "shop", "db", claim("10Gi", "10Gi", null), TARGET)).as("not asked to grow: no warning").isEmpty();
        assertThat(ClaimWarnings.of(none, "shop", "db", claim("20Gi", "10Gi", "ControllerResizeInProgress"), TARGET)).contains(
                "claim data-db-1 has not grown yet: capacity 10Gi, request 20Gi (ControllerResizeInProgress); the volume's resizer has not"
                        + " finished: follow it with `kubectl get pvc data-db-1 -n shop -w` and `kubectl describe pvc data-db-1 -n shop` (no"
                        + " resizer in the cluster: its events say so, and the volume never grows)");
        assertThat(ClaimWarnings.of(none, "shop", "db", claim("20Gi", null, "ControllerResizeInfeasible"), TARGET).orElseThrow())
                .startsWith("claim data-db-1 has not grown yet: capacity unknown, request 20Gi (ControllerResizeInfeasible);");
        assertThat(ClaimWarnings.of(none, "shop", "db", claim("20Gi", "10Gi", null), TARGET).orElseThrow())
                .startsWith("claim data-db-1 has not grown yet: capacity 10Gi, request 20Gi; the volume's");
    }

    @Test
    void a_file_system_pending_warning_names_the_pod_only_when_that_pod_mounts_the_claim() {
        ObjectNode pending = claim("20Gi", "10Gi", null, "FileSystemResizePending");
        assertThat(ClaimWarnings.of(pods(Map.of("db-1", podMounting("data-db-1"))), "shop", "db", pending, TARGET)).contains(
                "claim data-db-1 waits for a file system resize on pod db-1: the kubelet had not grown it when the run stopped following"
                        + " it; it grows it while the pod runs (online expansion). If `kubectl get pvc data-db-1 -n shop -w` still shows"
                        + " FileSystemResizePending minutes later, restart the pod (apply --restart-pods-for-resize evicts it, respecting"
                        + " PodDisruptionBudgets)");
        String unmounted = "claim data-db-1 waits for a file system resize: no pod mounts it now; its file system grows when a pod next mounts it";
        assertThat(ClaimWarnings.of(pods(Map.of()), "shop", "db", pending, TARGET)).contains(unmounted);
        assertThat(ClaimWarnings.of(pods(Map.of("db-1", podMounting("other"))), "shop", "db", pending, TARGET)).contains(unmounted);
    }
}
