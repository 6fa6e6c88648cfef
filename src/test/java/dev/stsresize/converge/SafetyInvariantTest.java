package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.sim.http.RecordedRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The invariant every converge test's harness checks on close, over its whole request log; here over
 * every log gathered so far in this JVM, and its negative controls: broken logs it must reject.
 */
class SafetyInvariantTest {
    static final String UID = "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"preconditions\":{\"uid\":\"u-1\"}}";

    static RecordedRequest delete(String resource, String body) {
        return request("DELETE", "/x/" + resource + "/db", resource, body);
    }

    static RecordedRequest request(String method, String path, String resource, String body) {
        return new RecordedRequest(method, path, Map.of(), "application/json", body, 200, 1, "admin",
                method.equals("GET") ? "get" : method.toLowerCase(), resource, "shop", "db");
    }

    static final RecordedRequest READ_COPY_LOG = request("GET", "/api/v1/namespaces/shop/pods/stsresize-copy-data-db-1/log", "pods", "");
    static final RecordedRequest READ_PV = request("GET", "/api/v1/persistentvolumes/pv-1", "persistentvolumes", "");
    static final RecordedRequest DELETE_CLAIM = request("DELETE", "/api/v1/namespaces/shop/persistentvolumeclaims/data-db-1",
            "persistentvolumeclaims", UID);

    @Test
    void every_log_of_the_converge_tests_run_so_far_keeps_it() {
        assertThat(SafetyInvariant.violations(List.copyOf(Harness.ALL_REQUESTS))).isEmpty();
    }

    @Test
    void an_orphan_delete_with_a_uid_precondition_passes() {
        assertThat(SafetyInvariant.violations(List.of(delete("statefulsets",
                "{\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"u-1\"}}")))).isEmpty();
    }

    @Test
    void a_claim_delete_by_uid_after_its_copys_log_and_then_its_pv_were_read_passes() {
        assertThat(SafetyInvariant.violations(List.of(READ_COPY_LOG, READ_PV, DELETE_CLAIM))).isEmpty();
        assertThat(SafetyInvariant.violations(List.of(request("DELETE", "/api/v1/namespaces/shop/pods/stsresize-copy-data-db-1", "pods", UID))))
                .isEmpty();
    }

    @Test
    void negative_controls_a_background_delete_a_delete_without_uid_and_a_claim_delete_are_each_caught() {
        assertThat(SafetyInvariant.violations(List.of(delete("statefulsets", "{\"propagationPolicy\":\"Background\",\"preconditions\":{\"uid\":\"u\"}}"))))
                .singleElement().asString().contains("without propagationPolicy Orphan");
        assertThat(SafetyInvariant.violations(List.of(delete("statefulsets", "{\"propagationPolicy\":\"Orphan\"}"))))
                .singleElement().asString().contains("without a UID precondition");
        assertThat(SafetyInvariant.violations(List.of(delete("statefulsets", ""))))
                .singleElement().asString().contains("without propagationPolicy Orphan");
        assertThat(SafetyInvariant.violations(List.of(delete("persistentvolumeclaims", "{}"))))
                .singleElement().asString().contains("without a UID precondition");
        assertThat(SafetyInvariant.violations(List.of(delete("configmaps", UID))))
                .singleElement().asString().contains("DELETE of /x/configmaps/db");
    }

    @Test
    void negative_controls_a_pv_delete_a_claim_delete_without_uid_or_before_its_proof_and_a_claim_ref_removal() {
        assertThat(SafetyInvariant.violations(List.of(READ_COPY_LOG, READ_PV,
                request("DELETE", "/api/v1/persistentvolumes/pv-1", "persistentvolumes", UID))))
                .singleElement().asString().contains("DELETE of a PersistentVolume");
        assertThat(SafetyInvariant.violations(List.of(READ_COPY_LOG, READ_PV,
                request("DELETE", "/api/v1/namespaces/shop/persistentvolumeclaims/data-db-1", "persistentvolumeclaims", ""))))
                .singleElement().asString().contains("without a UID precondition");
        assertThat(SafetyInvariant.violations(List.of(DELETE_CLAIM))).singleElement().asString().contains("without first reading");
        assertThat(SafetyInvariant.violations(List.of(READ_COPY_LOG, DELETE_CLAIM))).as("no PV re-read").hasSize(1);
        assertThat(SafetyInvariant.violations(List.of(READ_PV, READ_COPY_LOG, DELETE_CLAIM))).as("the PV read before the copy's proof").hasSize(1);
        assertThat(SafetyInvariant.violations(List.of(request("GET", "/api/v1/namespaces/other/pods/stsresize-copy-data-db-1/log", "pods", ""),
                READ_PV, DELETE_CLAIM))).as("a copy of another namespace").hasSize(1);
        assertThat(SafetyInvariant.violations(List.of(request("DELETE", "/api/v1/namespaces/shop/pods/db-0", "pods", UID))))
                .singleElement().asString().contains("DELETE of");
        assertThat(SafetyInvariant.violations(List.of(request("PATCH", "/api/v1/persistentvolumes/pv-2", "persistentvolumes",
                "{\"spec\":{\"claimRef\":null}}")))).singleElement().asString().contains("removes the PV's claimRef");
    }

    static final RecordedRequest READ_TEMP_LOG = request("GET", "/api/v1/namespaces/shop/pods/stsresize-copy-data-db-1/log", "pods", "");
    static final RecordedRequest DELETE_COPY_POD = request("DELETE", "/api/v1/namespaces/shop/pods/stsresize-copy-data-db-1", "pods", UID);
    static final RecordedRequest DELETE_TEMP_CLAIM = request("DELETE", "/api/v1/namespaces/shop/persistentvolumeclaims/stsresize-copy-data-db-1",
            "persistentvolumeclaims", UID);

    @Test
    void a_temporary_claim_deleted_after_its_copy_pod_passes() {
        assertThat(SafetyInvariant.violations(List.of(READ_TEMP_LOG, READ_PV, DELETE_COPY_POD, DELETE_TEMP_CLAIM))).isEmpty();
    }

    @Test
    void a_temporary_claim_deleted_before_its_copy_pod_is_a_violation() {
        assertThat(SafetyInvariant.violations(List.of(READ_TEMP_LOG, READ_PV, DELETE_TEMP_CLAIM, DELETE_COPY_POD)))
                .singleElement().asString().contains("before its copy pod was deleted");
    }
}
