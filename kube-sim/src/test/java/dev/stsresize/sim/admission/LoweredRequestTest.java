package dev.stsresize.sim.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * A lowered claim request as v1.32's ValidatePersistentVolumeClaimUpdate answers it
 * (pkg/apis/core/validation/validation.go): with RecoverVolumeExpansionFailure, accepted strictly above
 * status.capacity only; without it, refused as "less than previous value".
 */
class LoweredRequestTest {
    private static ObjectNode claim(String request) throws Exception {
        return (ObjectNode) new ObjectMapper().readTree("{\"metadata\":{\"name\":\"data-db-0\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],"
                + "\"resources\":{\"requests\":{\"storage\":\"" + request + "\"}},\"volumeName\":\"pv-1\"},"
                + "\"status\":{\"phase\":\"Bound\",\"capacity\":{\"storage\":\"10Gi\"}}}");
    }

    @Test
    void with_the_gate_a_lower_request_must_stay_strictly_above_capacity() throws Exception {
        assertThatCode(() -> ClaimValidation.validateUpdate(claim("20Gi"), claim("10241Mi"), true)).doesNotThrowAnyException();
        assertThatThrownBy(() -> ClaimValidation.validateUpdate(claim("20Gi"), claim("10Gi"), true))
                .hasMessageContaining("spec.resources.requests.storage: Forbidden: field can not be less than status.capacity");
    }

    @Test
    void without_the_gate_any_lower_request_is_refused_as_an_older_server_does() throws Exception {
        assertThatThrownBy(() -> ClaimValidation.validateUpdate(claim("20Gi"), claim("15Gi"), false))
                .hasMessageContaining("spec.resources.requests.storage: Forbidden: field can not be less than previous value");
        assertThatCode(() -> ClaimValidation.validateUpdate(claim("20Gi"), claim("30Gi"), false)).doesNotThrowAnyException();
        assertThat(new FeatureGates().recoverVolumeExpansionFailure()).as("v1.32's default").isTrue();
    }
}
