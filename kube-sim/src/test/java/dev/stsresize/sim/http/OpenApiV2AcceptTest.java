package dev.stsresize.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.sim.http.OpenApiV2Accept.Form;
import org.junit.jupiter.api.Test;

/** /openapi/v2's forms by Accept header, as kube-openapi's handler negotiates them (goautoneg's order). */
class OpenApiV2AcceptTest {
    @Test
    void client_go_s_protobuf_type_and_the_current_one_get_protobuf() {
        assertThat(OpenApiV2Accept.negotiate("application/com.github.proto-openapi.spec.v2@v1.0+protobuf")).isEqualTo(Form.PROTOBUF);
        assertThat(OpenApiV2Accept.negotiate("application/com.github.proto-openapi.spec.v2.v1.0+protobuf")).isEqualTo(Form.PROTOBUF);
    }

    @Test
    void json_no_header_and_wildcards_get_json() {
        assertThat(OpenApiV2Accept.negotiate("application/json")).isEqualTo(Form.JSON);
        assertThat(OpenApiV2Accept.negotiate(null)).isEqualTo(Form.JSON);
        assertThat(OpenApiV2Accept.negotiate("*/*")).isEqualTo(Form.JSON);
        assertThat(OpenApiV2Accept.negotiate("application/*")).isEqualTo(Form.JSON);
    }

    @Test
    void quality_then_specificity_decide() {
        assertThat(OpenApiV2Accept.negotiate("application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf"))
                .isEqualTo(Form.PROTOBUF);
        assertThat(OpenApiV2Accept.negotiate("*/*, application/com.github.proto-openapi.spec.v2.v1.0+protobuf")).isEqualTo(Form.PROTOBUF);
        assertThat(OpenApiV2Accept.negotiate("application/com.github.proto-openapi.spec.v2.v1.0+protobuf;q=0.9, application/json"))
                .isEqualTo(Form.JSON);
    }

    @Test
    void anything_else_is_406() {
        assertThat(OpenApiV2Accept.negotiate("text/html")).isEqualTo(Form.NONE);
        assertThat(OpenApiV2Accept.negotiate("application/yaml, application/vnd.kubernetes.protobuf")).isEqualTo(Form.NONE);
    }
}
