package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.Optional;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Verdict;
import org.junit.jupiter.api.Test;

/**
 * The converge's small values, read without a cluster: each write's kubectl command, the gates
 * {@code --yes} and resume answer with, how a result reads, and which claims a resumed run may grow
 * from the operator's manifest.
 */
class ConvergeValuesTest {
    /** The JSON of a {@code -p '…'} or {@code echo '…'} in a command, as a tree. */
    static com.fasterxml.jackson.databind.JsonNode quoted(String command) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(command.substring(command.indexOf('\'') + 1, command.lastIndexOf('\'')));
    }

    @Test
    void each_write_of_a_copy_renders_the_kubectl_command_that_sends_the_same_body_as_the_port() throws Exception {
        // the bodies KubeCluster sends (CopyRequestsTest pins them)
        Write policy = new Write.VolumeReclaimPolicy("shop", "pv-1", "Retain", "7");
        assertThat(policy.kubectl()).startsWith("kubectl patch pv pv-1 --type merge --field-manager=kubectl-stsresize -p '");
        assertThat(quoted(policy.kubectl())).isEqualTo(quoted(
                "'{\"metadata\":{\"resourceVersion\":\"7\"},\"spec\":{\"persistentVolumeReclaimPolicy\":\"Retain\"}}'"));
        Write repoint = new Write.ClaimRefRepoint("shop", "pv-2", "data-db-1", "9");
        assertThat(repoint.kubectl()).startsWith("kubectl patch pv pv-2 --type merge --field-manager=kubectl-stsresize -p '");
        assertThat(quoted(repoint.kubectl())).isEqualTo(quoted("'{\"metadata\":{\"resourceVersion\":\"9\"},\"spec\":{\"claimRef\":{"
                + "\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"namespace\":\"shop\",\"name\":\"data-db-1\",\"uid\":null,"
                + "\"resourceVersion\":null,\"fieldPath\":null}}}'"));
        Write.ClaimDelete claim = new Write.ClaimDelete("shop", "data-db-1", "c-uid");
        assertThat(claim.kubectl()).endsWith(" | kubectl delete --raw /api/v1/namespaces/shop/persistentvolumeclaims/data-db-1 -f -");
        assertThat(quoted(claim.kubectl()).at("/preconditions/uid").asText()).isEqualTo("c-uid");
        Write.CopyPodDelete pod = new Write.CopyPodDelete("shop", "stsresize-copy-data-db-1", "p-uid");
        assertThat(pod.kubectl()).endsWith(" | kubectl delete --raw /api/v1/namespaces/shop/pods/stsresize-copy-data-db-1 -f -");
        assertThat(quoted(pod.kubectl()).at("/preconditions/uid").asText()).isEqualTo("p-uid");
        assertThat(new Write.ClaimDelete("shop", "data-db-1", "").options()).contains("<uid of the claim>");
        assertThat(new Write.ClaimCreate("shop", "data-db-1").kubectl()).isEqualTo("kubectl create -f <claim data-db-1>");
        assertThat(new Write.CopyPodCreate("shop", "stsresize-copy-data-db-1").kubectl()).isEqualTo("kubectl create -f <copy pod stsresize-copy-data-db-1>");
    }

    @Test
    void each_write_renders_the_kubectl_command_that_sends_the_same_request() {
        assertThat(new Write.ClaimPatch("shop", "data-db-0", "20Gi").kubectl()).isEqualTo("kubectl patch pvc data-db-0 -n shop --type merge"
                + " --field-manager=kubectl-stsresize -p '{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"20Gi\"}}}}'");
        Write.OrphanDelete delete = new Write.OrphanDelete("shop", "db", "u1");
        assertThat(delete.command()).isEqualTo("kubectl delete --raw /apis/apps/v1/namespaces/shop/statefulsets/db -f options.json");
        assertThat(delete.kubectl()).isEqualTo("echo '{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Orphan\","
                + "\"preconditions\":{\"uid\":\"u1\"}}' | kubectl delete --raw /apis/apps/v1/namespaces/shop/statefulsets/db -f -");
        assertThat(new Write.OrphanDelete("shop", "db", "").options()).contains("\"uid\":\"<uid of the live StatefulSet>\"");
        assertThat(new Write.Apply("shop", "db", "helm").kubectl())
                .isEqualTo("kubectl apply --server-side --force-conflicts --field-manager=helm -f statefulset.json");
        assertThat(new Write.Apply("shop", "db", "").kubectl()).contains("--field-manager=<manager of spec.template> ");
        assertThat(new Write.Apply("shop", "db", "").file()).startsWith("StatefulSet shop/db as declared");
        assertThat(new Write.Lock("shop", "db").kubectl()).as("no one command makes a Lease and a Secret").isEmpty();
        assertThat(new Write.Create("shop", "db").kubectl()).isEqualTo("kubectl create -f <backup>");
        assertThat(new Write.Eviction("shop", "db-1").kubectl()).isEqualTo("kubectl evict (POST pods/db-1/eviction)");
    }

    @Test
    void a_plan_with_work_writes_one_patch_per_claim_to_grow_then_for_a_recreate_the_delete_and_the_reapply() {
        Quantity ten = Quantity.parse("10Gi");
        Quantity twenty = Quantity.parse("20Gi");
        List<ClaimState> claims = List.of(
                new ClaimState("data-db-0", "data", 0, ten, ten, "Bound", "fast", true, twenty, false, true),
                new ClaimState("data-db-1", "data", 1, twenty, twenty, "Bound", "fast", true, twenty, false, false),
                new ClaimState("data-db-2", "data", 2, ten, ten, "Bound", "fast", true, twenty, false, true));
        Plan grow = new Plan("shop", "db", Verdict.GROW, List.of(), claims, List.of(), "");
        assertThat(Write.planned(grow, "u1", "helm")).containsExactly(new Write.ClaimPatch("shop", "data-db-0", "20Gi"),
                new Write.ClaimPatch("shop", "data-db-2", "20Gi"), new Write.OrphanDelete("shop", "db", "u1"), new Write.Apply("shop", "db", "helm"));
        Plan claimsOnly = new Plan("shop", "db", Verdict.GROW_CLAIMS, List.of(), claims, List.of(), "");
        assertThat(Write.planned(claimsOnly, "u1", "helm")).containsExactly(new Write.ClaimPatch("shop", "data-db-0", "20Gi"),
                new Write.ClaimPatch("shop", "data-db-2", "20Gi"));
        assertThat(Write.planned(new Plan("shop", "db", Verdict.UP_TO_DATE, List.of(), claims, List.of(), ""), "u1", "helm")).isEmpty();
    }

    @Test
    void the_defaults_wait_ten_minutes_for_resizes_under_a_sixty_second_lease_and_each_with_changes_its_option_alone() {
        ConvergeOptions d = ConvergeOptions.defaults();
        assertThat(d).isEqualTo(new ConvergeOptions(false, true, Duration.ofMinutes(10), false, Optional.empty(), false, Duration.ofSeconds(60)));
        assertThat(d.withDryRun(true)).isEqualTo(new ConvergeOptions(true, true, Duration.ofMinutes(10), false, Optional.empty(), false,
                Duration.ofSeconds(60)));
        assertThat(d.withWaitForResize(false).waitForResize()).isFalse();
        assertThat(d.withWaitForResize(false).withDryRun(false)).isEqualTo(d.withWaitForResize(false));
        assertThat(d.withTimeout(Duration.ofSeconds(5)).timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(d.withRestartPodsForResize(true).restartPodsForResize()).isTrue();
        assertThat(d.withFieldManager("helm").fieldManager()).contains("helm");
        assertThat(d.withFieldManager(null).fieldManager()).isEmpty();
        assertThat(d.withTakeOver(true).takeOver()).isTrue();
        assertThat(d.withLeaseDuration(Duration.ofSeconds(15)).leaseDuration()).isEqualTo(Duration.ofSeconds(15));
        ConvergeOptions all = d.withDryRun(true).withWaitForResize(false).withTimeout(Duration.ofSeconds(5)).withRestartPodsForResize(true)
                .withFieldManager("helm").withTakeOver(true).withLeaseDuration(Duration.ofSeconds(15));
        assertThat(all).isEqualTo(new ConvergeOptions(true, false, Duration.ofSeconds(5), true, Optional.of("helm"), true, Duration.ofSeconds(15)));
    }

    @Test
    void each_outcome_has_the_result_documents_word() {
        assertThat(java.util.Arrays.stream(Outcome.values()).map(Outcome::label)).containsExactly("converged", "claims-grown",
                "nothing-to-do", "absent", "refused", "blocked", "failed", "stopped", "dry-run-ok");
    }

    @Test
    void yes_allows_every_write_and_a_resume_past_its_gate_the_delete_only_when_told() {
        assertThat(GateAnswers.YES.allowGrow(null)).isTrue();
        assertThat(GateAnswers.YES.allowOrphanDelete("shop", "db")).isTrue();
        assertThat(GateAnswers.growing(false).allowGrow(null)).isTrue();
        assertThat(GateAnswers.growing(false).allowOrphanDelete("shop", "db")).isFalse();
        assertThat(GateAnswers.growing(true).allowOrphanDelete("shop", "db")).isTrue();
    }

    @Test
    void a_result_succeeds_only_converged_or_with_its_claims_grown_and_reads_as_one_sentence() {
        for (Outcome o : Outcome.values()) {
            StatefulSetResult r = new StatefulSetResult("shop", "db", o, null, "d", List.of(), List.of(), List.of());
            assertThat(r.succeeded()).as(o.name()).isEqualTo(o == Outcome.CONVERGED || o == Outcome.CLAIMS_GROWN);
            assertThat(r.claimsOnly()).as(o.name()).isEqualTo(o == Outcome.CLAIMS_GROWN);
            assertThat(r.reason()).isEmpty();
        }
        assertThat(new StatefulSetResult("shop", "db", Outcome.BLOCKED, "locked", "held by bob", List.of(), List.of(), List.of()).sentence())
                .isEqualTo("blocked (locked): held by bob");
        assertThat(new StatefulSetResult("shop", "db", Outcome.CONVERGED, "", "adopted", List.of(), List.of(), List.of()).sentence())
                .isEqualTo("converged: adopted");
    }

    @Test
    void a_resumed_run_grows_only_recorded_claims_a_template_of_the_manifest_names_to_its_size() {
        ObjectNode declared = Objects.parse("{\"metadata\":{\"name\":\"db\"},\"spec\":{\"volumeClaimTemplates\":["
                + "{\"metadata\":{\"name\":\"data\"},\"spec\":{\"resources\":{\"requests\":{\"storage\":\"20480Mi\"}}}},"
                + "{\"metadata\":{\"name\":\"logs\"},\"spec\":{\"resources\":{\"requests\":{\"storage\":\"not a size\"}}}}]}}");
        Map<String, String> recorded = new LinkedHashMap<>();
        recorded.put("data-db-1", "99Gi");
        recorded.put("data-db-0", "99Gi");
        recorded.put("logs-db-0", "5Gi");
        recorded.put("data-other-0", "5Gi");
        recorded.put("data-db-x", "5Gi");
        Map<String, String> targets = ManifestClaims.targets(declared, recorded);
        assertThat(targets).containsExactly(Map.entry("data-db-1", "20Gi"), Map.entry("data-db-0", "20Gi"));
    }
}
