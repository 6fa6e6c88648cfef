package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 14's request rules, asked through client-java's HTTP stack (the plugin's own client) with exact
 * texts: the query options per verb (handlers/create.go, update.go, patch.go with
 * apimachinery/pkg/apis/meta/v1/validation), fieldValidation Strict/Warn/Ignore, authorization before
 * existence (endpoints/filters/authorization.go), the access review's reason (rbac.go), and the
 * validation of labels, replicas and storage requests (pkg/apis/apps/validation, pkg/apis/core/validation).
 */
class RequestRulesTest {
    static final String STS = "/apis/apps/v1/namespaces/default/statefulsets";
    SimCluster sim;
    SimClient admin;

    @BeforeEach
    void start() {
        sim = SimCluster.start();
        sim.load(Fixtures.storageClass("expandable", true));
        admin = SimClient.admin(sim);
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    static String db(String extraSpec) {
        ObjectNode db = Fixtures.db();
        if (extraSpec != null) {
            db.withObject("/spec").setAll((ObjectNode) Reference.json(extraSpec));
        }
        return db.toString();
    }

    // --- 1. options per verb ---

    @Test
    void an_unknown_dry_run_value_is_a_422_on_create_options_and_nothing_is_stored() {
        SimClient.Answer a = admin.send("POST", STS + "?dryRun=foo", "application/json", db(null));
        assertThat(a.code()).as(a.body()).isEqualTo(422);
        assertThat(a.message()).isEqualTo("CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"foo\"}: "
                + "supported values: \"All\"");
        assertThat(a.json().at("/details/causes/0/field").asText()).isEqualTo("dryRun");
        assertThat(admin.get(STS + "/db").code()).isEqualTo(404);
    }

    @Test
    void force_on_a_merge_patch_is_forbidden_and_an_unknown_field_validation_is_unsupported() {
        assertThat(admin.send("POST", STS, "application/json", db(null)).code()).isEqualTo(201);
        SimClient.Answer forced = admin.send("PATCH", STS + "/db?force=false", "application/merge-patch+json", "{\"spec\":{\"replicas\":3}}");
        assertThat(forced.code()).as(forced.body()).isEqualTo(422);
        assertThat(forced.message()).isEqualTo("PatchOptions.meta.k8s.io \"db\" is invalid: force: Forbidden: may not be specified for non-apply patch");
        SimClient.Answer bogus = admin.send("PUT", STS + "/db?fieldValidation=Loose", "application/json", db(null));
        assertThat(bogus.code()).isEqualTo(422);
        assertThat(bogus.message()).isEqualTo("UpdateOptions.meta.k8s.io \"db\" is invalid: fieldValidation: Unsupported value: \"Loose\": "
                + "supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"");
        SimClient.Answer longManager = admin.send("PATCH", STS + "/db?fieldManager=" + "m".repeat(129), "application/merge-patch+json", "{}");
        assertThat(longManager.message()).isEqualTo("PatchOptions.meta.k8s.io \"db\" is invalid: fieldManager: Too long: must have at most 128 bytes");
        assertThat(admin.get(STS + "/db").json().at("/spec/replicas").asInt()).isEqualTo(2);
    }

    @Test
    void an_unknown_field_is_refused_under_strict_warned_and_dropped_by_default_and_dropped_silently_under_ignore() {
        String withFoo = db("{\"foo\":\"bar\",\"template\":" + Fixtures.db().at("/spec/template").toString().replace("\"image\"", "\"bogus\":1,\"image\"") + "}");
        SimClient.Answer strict = admin.send("POST", STS + "?fieldValidation=Strict", "application/json", withFoo);
        assertThat(strict.code()).isEqualTo(400);
        assertThat(strict.message()).isEqualTo("StatefulSet in version \"v1\" cannot be handled as a StatefulSet: strict decoding error: "
                + "unknown field \"spec.template.spec.containers[0].bogus\", unknown field \"spec.foo\"");

        SimClient.Answer warned = admin.send("POST", STS, "application/json", withFoo);
        assertThat(warned.code()).isEqualTo(201);
        assertThat(warned.headers().values("Warning")).containsExactly(
                "299 - \"unknown field \\\"spec.template.spec.containers[0].bogus\\\"\"", "299 - \"unknown field \\\"spec.foo\\\"\"");
        JsonNode stored = admin.get(STS + "/db").json();
        assertThat(stored.at("/spec/foo").isMissingNode()).as("the decoder drops what the schema does not declare").isTrue();
        assertThat(stored.at("/spec/template/spec/containers/0/bogus").isMissingNode()).isTrue();

        SimClient.Answer ignored = admin.send("PATCH", STS + "/db?fieldValidation=Ignore", "application/merge-patch+json", "{\"spec\":{\"foo\":1}}");
        assertThat(ignored.code()).isEqualTo(200);
        assertThat(ignored.headers().values("Warning")).isEmpty();
        SimClient.Answer strictPatch = admin.send("PATCH", STS + "/db?fieldValidation=Strict", "application/strategic-merge-patch+json",
                "{\"spec\":{\"foo\":1}}");
        assertThat(strictPatch.code()).isEqualTo(422);
        assertThat(strictPatch.message()).isEqualTo(" \"\" is invalid: patch: Invalid value: \"map[spec:map[foo:1]]\": strict decoding error: "
                + "unknown field \"spec.foo\"");
    }

    // --- 2. authorization before existence ---

    @Test
    void a_forbidden_request_for_a_missing_object_is_403_not_404() {
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: nobody, namespace: default}\n"));
        SimClient nobody = new SimClient(sim, sim.tokenFor("default", "nobody"));
        SimClient.Answer a = nobody.get(STS + "/missing");
        assertThat(a.code()).isEqualTo(403);
        assertThat(a.message()).isEqualTo("statefulsets.apps \"missing\" is forbidden: User \"system:serviceaccount:default:nobody\" "
                + "cannot get resource \"statefulsets\" in API group \"apps\" in the namespace \"default\"");
        assertThat(admin.get(STS + "/missing").code()).as("the admin, allowed, learns it is missing").isEqualTo(404);
    }

    // --- 3. SelfSubjectAccessReview reasons ---

    JsonNode review(SimClient c, String verb, String resource) {
        String body = "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\",\"spec\":{\"resourceAttributes\":"
                + "{\"namespace\":\"default\",\"verb\":\"" + verb + "\",\"group\":\"apps\",\"resource\":\"" + resource + "\"}}}";
        SimClient.Answer a = c.send("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "application/json", body);
        assertThat(a.code()).isEqualTo(201);
        return a.json().path("status");
    }

    @Test
    void access_review_reasons_are_the_rbac_authorizers() {
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: ops, namespace: default}\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: sts-reader}\n"
                        + "rules: [{apiGroups: [apps], resources: [statefulsets], verbs: [get, list]}]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: all-sa-read}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: sts-reader}\n"
                        + "subjects: [{kind: Group, name: 'system:serviceaccounts', apiGroup: rbac.authorization.k8s.io}]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: gone-a, namespace: default}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: missing}\n"
                        + "subjects: [{kind: ServiceAccount, name: ops}]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: gone-b, namespace: default}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: missing-too}\n"
                        + "subjects: [{kind: ServiceAccount, name: ops}]\n"));
        SimClient ops = new SimClient(sim, sim.tokenFor("default", "ops"));
        assertThat(review(ops, "get", "statefulsets").path("reason").asText())
                .isEqualTo("RBAC: allowed by ClusterRoleBinding \"all-sa-read\" of ClusterRole \"sts-reader\" to Group \"system:serviceaccounts\"");
        JsonNode denied = review(ops, "delete", "statefulsets");
        assertThat(denied.path("allowed").asBoolean()).isFalse();
        assertThat(denied.path("reason").asText()).isEqualTo("RBAC: [role.rbac.authorization.k8s.io \"missing\" not found, "
                + "clusterrole.rbac.authorization.k8s.io \"missing-too\" not found]");
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: plain, namespace: default}\n"));
        JsonNode plain = review(new SimClient(sim, sim.tokenFor("default", "plain")), "delete", "statefulsets");
        assertThat(plain.has("reason")).as("denied without errors: no reason").isFalse();
        assertThat(plain.has("denied")).as("RBAC has no opinion; it never denies").isFalse();
    }

    // --- 4. validation ---

    @Test
    void labels_keys_and_values_are_checked_as_apimachinery_does() {
        ObjectNode bad = Fixtures.db();
        bad.withObject("/metadata").putObject("labels").put("Bad Key", "ok");
        SimClient.Answer a = admin.send("POST", STS, "application/json", bad.toString());
        assertThat(a.code()).isEqualTo(422);
        assertThat(a.message()).isEqualTo("StatefulSet.apps \"db\" is invalid: metadata.labels: Invalid value: \"Bad Key\": name part must "
                + "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
                + "'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
        ObjectNode badValue = Fixtures.db();
        badValue.withObject("/metadata").putObject("labels").put("example.com/tier", "-db");
        SimClient.Answer v = admin.send("POST", STS, "application/json", badValue.toString());
        assertThat(v.message()).isEqualTo("StatefulSet.apps \"db\" is invalid: metadata.labels: Invalid value: \"-db\": a valid label must be "
                + "an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                + "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
        assertThat(admin.send("POST", STS, "application/json", db(null)).code()).isEqualTo(201);
        SimClient.Answer relabel = admin.send("PATCH", STS + "/db", "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"a/b/c\":\"x\"}}}");
        assertThat(relabel.code()).as("an update is checked too").isEqualTo(422);
    }

    @Test
    void replicas_are_an_int32_and_not_negative() {
        SimClient.Answer huge = admin.send("POST", STS, "application/json", db("{\"replicas\":99999999999999999999}"));
        assertThat(huge.code()).isEqualTo(400);
        assertThat(huge.message()).isEqualTo("StatefulSet in version \"v1\" cannot be handled as a StatefulSet: json: cannot unmarshal number "
                + "99999999999999999999 into Go struct field StatefulSetSpec.spec.replicas of type int32");
        SimClient.Answer negative = admin.send("POST", STS, "application/json", db("{\"replicas\":-1}"));
        assertThat(negative.code()).isEqualTo(422);
        assertThat(negative.message()).isEqualTo("StatefulSet.apps \"db\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0");
        assertThat(admin.send("POST", STS, "application/json", db(null)).code()).isEqualTo(201);
        SimClient.Answer scaledBelowZero = admin.send("PATCH", STS + "/db", "application/merge-patch+json", "{\"spec\":{\"replicas\":-2}}");
        assertThat(scaledBelowZero.code()).isEqualTo(422);
        assertThat(scaledBelowZero.message()).isEqualTo("StatefulSet.apps \"db\" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0");
    }

    @Test
    void a_claim_needs_a_positive_storage_request_but_a_claim_template_is_not_validated() {
        ObjectNode zero = Fixtures.pendingClaim("zero", "expandable", "0");
        SimClient.Answer a = admin.send("POST", "/api/v1/namespaces/default/persistentvolumeclaims", "application/json", zero.toString());
        assertThat(a.code()).isEqualTo(422);
        assertThat(a.message()).isEqualTo("PersistentVolumeClaim \"zero\" is invalid: spec.resources[storage]: Invalid value: \"0\": must be greater than zero");
        // ValidateStatefulSetSpec does not look into volumeClaimTemplates: the real server stores this one
        assertThat(admin.send("POST", STS, "application/json", Fixtures.dbWithTemplateSize("0").toString()).code()).isEqualTo(201);
    }
}
