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
    static RecordedRequest delete(String resource, String body) {
        return new RecordedRequest("DELETE", "/x/" + resource + "/db", Map.of(), "application/json", body, 200, 1, "admin",
                "delete", resource, "default", "db");
    }

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
    void negative_controls_a_background_delete_a_delete_without_uid_and_a_claim_delete_are_each_caught() {
        assertThat(SafetyInvariant.violations(List.of(delete("statefulsets", "{\"propagationPolicy\":\"Background\",\"preconditions\":{\"uid\":\"u\"}}"))))
                .singleElement().asString().contains("without propagationPolicy Orphan");
        assertThat(SafetyInvariant.violations(List.of(delete("statefulsets", "{\"propagationPolicy\":\"Orphan\"}"))))
                .singleElement().asString().contains("without a UID precondition");
        assertThat(SafetyInvariant.violations(List.of(delete("statefulsets", ""))))
                .hasSize(2);
        assertThat(SafetyInvariant.violations(List.of(delete("persistentvolumeclaims", "{}"))))
                .singleElement().asString().contains("DELETE of persistentvolumeclaims");
    }
}
