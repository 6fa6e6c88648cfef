package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * What bounds a run's record on a real server, answered as kube-apiserver does (texts captured from a
 * real v1.24 server, code unchanged in v1.32): apimachinery pkg/api/validation/objectmeta.go
 * ValidateAnnotations (TotalAnnotationSizeLimitB, every kind) and pkg/apis/core/validation/validation.go
 * ValidateSecret / ValidateSecretUpdate (MaxSecretSize, IsConfigMapKey, immutable type), plus the
 * decoding of a Secret's base64 data (400).
 */
class ObjectSizeValidationTest extends FreshSim {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
    static final String SECRETS = "/api/v1/namespaces/default/secrets";

    static ObjectNode lease(String name, int annotationBytes) {
        ObjectNode l = JSON.createObjectNode().put("apiVersion", "coordination.k8s.io/v1").put("kind", "Lease");
        l.putObject("metadata").put("name", name).putObject("annotations").put("a", "x".repeat(annotationBytes));
        return l;
    }

    static ObjectNode secret(String name, String type, String key, byte[] value) {
        ObjectNode s = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Secret");
        s.putObject("metadata").put("name", name);
        if (type != null) {
            s.put("type", type);
        }
        s.putObject("data").put(key, Base64.getEncoder().encodeToString(value));
        return s;
    }

    @Test
    void annotations_over_256_kib_in_all_are_refused_on_create_and_update() {
        // key "a" (1 byte) + value: the limit is on the sum, 262144 bytes
        assertThat(admin.send("POST", LEASES, "application/json", lease("fits", 262143).toString()).code()).isEqualTo(201);
        SimClient.Answer big = admin.send("POST", LEASES, "application/json", lease("big", 262144).toString());
        assertThat(big.code()).isEqualTo(422);
        assertThat(big.json().path("message").asText())
                .isEqualTo("Lease.coordination.k8s.io \"big\" is invalid: metadata.annotations: Too long: must have at most 262144 bytes");
        assertThat(big.json().at("/details/causes/0/reason").asText()).isEqualTo("FieldValueTooLong");
        SimClient.Answer grown = admin.send("PATCH", LEASES + "/fits", "application/merge-patch+json",
                "{\"metadata\":{\"annotations\":{\"b\":\"y\"}}}");
        assertThat(grown.code()).isEqualTo(422);
    }

    @Test
    void a_secret_holds_at_most_1_mib_of_decoded_data() {
        assertThat(admin.send("POST", SECRETS, "application/json", secret("fits", null, "k", new byte[1024 * 1024]).toString()).code())
                .isEqualTo(201);
        SimClient.Answer big = admin.send("POST", SECRETS, "application/json", secret("big", null, "k", new byte[1024 * 1024 + 1]).toString());
        assertThat(big.code()).isEqualTo(422);
        assertThat(big.json().path("message").asText()).isEqualTo("Secret \"big\" is invalid: data: Too long: must have at most 1048576 bytes");
    }

    @Test
    void a_secrets_type_defaults_to_opaque_and_is_immutable() {
        assertThat(admin.send("POST", SECRETS, "application/json", secret("plain", null, "k", new byte[] {1}).toString())
                .json().path("type").asText()).isEqualTo("Opaque");
        admin.send("POST", SECRETS, "application/json", secret("rec", "stsresize.dev/record", "record.json.gz", new byte[] {1}).toString());
        SimClient.Answer changed = admin.send("PATCH", SECRETS + "/rec", "application/merge-patch+json", "{\"type\":\"Opaque\"}");
        assertThat(changed.code()).isEqualTo(422);
        assertThat(changed.json().path("message").asText()).isEqualTo("Secret \"rec\" is invalid: type: Invalid value: \"Opaque\": field is immutable");
    }

    @Test
    void a_data_key_must_be_a_config_map_key_and_its_value_base64() {
        SimClient.Answer key = admin.send("POST", SECRETS, "application/json", secret("badkey", null, "bad key", new byte[] {1}).toString());
        assertThat(key.code()).isEqualTo(422);
        assertThat(key.json().path("message").asText()).isEqualTo("Secret \"badkey\" is invalid: data[bad key]: Invalid value: \"bad key\":"
                + " a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or"
                + " 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
        SimClient.Answer b64 = admin.send("POST", SECRETS, "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"b64\"},\"data\":{\"k\":\"!!!\"}}");
        assertThat(b64.code()).isEqualTo(400);
        assertThat(b64.json().path("message").asText()).isEqualTo("Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 0");
    }
}
