package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each answer of real-apiserver-v1.32.md, asked with client-java: same code, same text. Every test
 * works in a namespace of its own on one shared simulated cluster.
 */
class ConformanceClientJavaTest {
    static SimCluster sim;
    static SimClient client;
    static final AtomicInteger seq = new AtomicInteger();

    @BeforeAll
    static void start() {
        sim = SimCluster.start();
        client = SimClient.admin(sim);
        sim.load(Fixtures.storageClass("expandable", true), Fixtures.storageClass("fixed", false));
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    static String freshNamespace() {
        String ns = "t" + seq.incrementAndGet();
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n"));
        return ns;
    }

    static String stsPath(String ns) {
        return "/apis/apps/v1/namespaces/" + ns + "/statefulsets/db";
    }

    static ObjectNode in(String ns, ObjectNode o) {
        o.withObject("/metadata").put("namespace", ns);
        return o;
    }

    /** Creates db the way `kubectl apply --server-side` does; returns the answer. */
    static SimClient.Answer applyDb(String ns, ObjectNode db, String query) {
        return client.send("PATCH", stsPath(ns) + "?fieldManager=kubectl" + query, "application/apply-patch+yaml",
                in(ns, db).toString());
    }

    @Test
    void a_live_statefulset_comes_back_with_claim_template_defaults_and_client_java_reads_it() throws ApiException {
        String ns = freshNamespace();
        SimClient.Answer created = applyDb(ns, Fixtures.db(), "");
        assertThat(created.code()).as(created.body()).isEqualTo(201);
        JsonNode template = client.get(stsPath(ns)).json().path("spec").path("volumeClaimTemplates").get(0);
        assertThat(template).isEqualTo(Reference.json("""
                {"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"creationTimestamp":null,"name":"data"},
                 "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"storageClassName":"expandable","volumeMode":"Filesystem"},
                 "status":{"phase":"Pending"}}"""));
        JsonNode managed = client.get(stsPath(ns)).json().at("/metadata/managedFields/0");
        assertThat(managed.path("manager").asText()).isEqualTo("kubectl");
        assertThat(managed.path("operation").asText()).isEqualTo("Apply");
        V1StatefulSet typed = new AppsV1Api(client.api).readNamespacedStatefulSet("db", ns).execute();
        assertThat(typed.getSpec().getPodManagementPolicy()).isEqualTo("OrderedReady");
        assertThat(typed.getSpec().getRevisionHistoryLimit()).isEqualTo(10);
        assertThat(typed.getSpec().getUpdateStrategy().getRollingUpdate().getPartition()).isZero();
        assertThat(typed.getSpec().getPersistentVolumeClaimRetentionPolicy().getWhenDeleted()).isEqualTo("Retain");
        assertThat(typed.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Always");
        assertThat(typed.getSpec().getTemplate().getSpec().getContainers().get(0).getImagePullPolicy()).isEqualTo("IfNotPresent");
    }

    @Test
    void any_update_of_claim_templates_is_the_forbidden_422_by_put_merge_patch_and_forced_apply_with_or_without_dry_run() {
        String ns = freshNamespace();
        applyDb(ns, Fixtures.db(), "");
        ObjectNode live = (ObjectNode) client.get(stsPath(ns)).json();
        ((ObjectNode) live.at("/spec/volumeClaimTemplates/0/spec/resources/requests")).put("storage", "2Gi");
        String merge = "{\"spec\":{\"volumeClaimTemplates\":[{\"metadata\":{\"name\":\"data\"},\"spec\":{\"storageClassName\":\"expandable\","
                + "\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}]}}";
        for (String dry : new String[] {"", "?dryRun=All"}) {
            SimClient.Answer put = client.send("PUT", stsPath(ns) + dry, "application/json", live.toString());
            SimClient.Answer patch = client.send("PATCH", stsPath(ns) + dry, "application/merge-patch+json", merge);
            SimClient.Answer apply = applyDb(ns, Fixtures.dbWithTemplateSize("2Gi"), "&force=true" + dry.replace('?', '&'));
            for (SimClient.Answer a : new SimClient.Answer[] {put, patch, apply}) {
                assertThat(a.code()).as(a.body()).isEqualTo(422);
                assertThat(a.json()).isEqualTo(Reference.json(Reference.STS_FORBIDDEN));
            }
        }
        assertThat(client.get(stsPath(ns)).json().at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("1Gi");
    }

    @Test
    void service_name_selector_and_pod_management_policy_changes_are_the_same_422() {
        String ns = freshNamespace();
        applyDb(ns, Fixtures.db(), "");
        for (String change : new String[] {"{\"spec\":{\"serviceName\":\"other\"}}", "{\"spec\":{\"podManagementPolicy\":\"Parallel\"}}",
                "{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"db\",\"x\":\"y\"}}}}", "{\"spec\":{\"revisionHistoryLimit\":3}}"}) {
            SimClient.Answer a = client.send("PATCH", stsPath(ns), "application/merge-patch+json", change);
            assertThat(a.code()).as(change).isEqualTo(422);
            assertThat(a.message()).isEqualTo(Reference.STS_FORBIDDEN_MESSAGE);
        }
        SimClient.Answer allowed = client.send("PATCH", stsPath(ns), "application/merge-patch+json",
                "{\"spec\":{\"replicas\":3,\"minReadySeconds\":5,\"template\":{\"metadata\":{\"labels\":{\"app\":\"db\",\"v\":\"2\"}}}}}");
        assertThat(allowed.code()).as("negative control: mutable fields pass").isEqualTo(200);
        assertThat(allowed.json().at("/metadata/generation").asLong()).isEqualTo(2);
    }

    @Test
    void the_proof_dry_run_apply_is_200_when_only_the_pod_template_differs_and_422_when_service_name_does() {
        String ns = freshNamespace();
        applyDb(ns, Fixtures.db(), "");
        ObjectNode declared = Fixtures.db();
        ((ObjectNode) declared.at("/spec/template/spec/containers/0")).put("image", "postgres:17");
        SimClient.Answer ok = applyDb(ns, declared, "&force=true&dryRun=All");
        assertThat(ok.code()).as(ok.body()).isEqualTo(200);
        assertThat(client.get(stsPath(ns)).json().at("/spec/template/spec/containers/0/image").asText())
                .as("dry run stored nothing").isEqualTo("postgres:16");
        ((ObjectNode) declared.get("spec")).put("serviceName", "other");
        SimClient.Answer refused = applyDb(ns, declared, "&force=true&dryRun=All");
        assertThat(refused.code()).isEqualTo(422);
        assertThat(refused.message()).isEqualTo(Reference.STS_FORBIDDEN_MESSAGE);
    }

    @Test
    void apply_without_force_by_another_manager_is_the_409_conflict_on_the_whole_claim_template_list() {
        String ns = freshNamespace();
        applyDb(ns, Fixtures.db(), "");
        SimClient.Answer a = client.send("PATCH", stsPath(ns) + "?fieldManager=stsresize", "application/apply-patch+yaml",
                in(ns, Fixtures.dbWithTemplateSize("2Gi")).toString());
        assertThat(a.code()).isEqualTo(409);
        assertThat(a.json()).isEqualTo(Reference.json(Reference.APPLY_CONFLICT));
    }

    @Test
    void growing_a_bound_claim_of_an_expandable_class_is_200_and_leaves_capacity_alone_and_dry_run_changes_nothing() throws ApiException {
        String ns = freshNamespace();
        sim.load(in(ns, Fixtures.boundClaim("data-db-0", "expandable", "1Gi", "1Gi")));
        String path = "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/data-db-0";
        String grow = "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}";
        long rvBefore = sim.store().resourceVersion();
        SimClient.Answer dry = client.send("PATCH", path + "?dryRun=All", "application/merge-patch+json", grow);
        assertThat(dry.code()).isEqualTo(200);
        assertThat(dry.json().at("/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
        assertThat(sim.store().resourceVersion()).as("dry run consumed no resourceVersion").isEqualTo(rvBefore);
        SimClient.Answer real = client.send("PATCH", path, "application/merge-patch+json", grow);
        assertThat(real.code()).isEqualTo(200);
        V1PersistentVolumeClaim typed = new CoreV1Api(client.api).readNamespacedPersistentVolumeClaim("data-db-0", ns).execute();
        assertThat(typed.getSpec().getResources().getRequests().get("storage").toSuffixedString()).isEqualTo("2Gi");
        assertThat(typed.getStatus().getCapacity().get("storage").toSuffixedString()).isEqualTo("1Gi");
    }

    @Test
    void growing_a_claim_whose_class_lacks_expansion_is_the_403_of_the_resize_admission() {
        String ns = freshNamespace();
        sim.load(in(ns, Fixtures.boundClaim("fixed-a", "fixed", "1Gi", "1Gi")));
        SimClient.Answer a = client.send("PATCH", "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/fixed-a",
                "application/merge-patch+json", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
        assertThat(a.code()).isEqualTo(403);
        assertThat(a.json()).isEqualTo(Reference.json(Reference.NOT_EXPANDABLE));
    }

    @Test
    void growing_a_pending_claim_is_the_immutable_spec_422_with_a_diff() {
        String ns = freshNamespace();
        sim.load(in(ns, Fixtures.pendingClaim("pending-claim", "expandable", "1Gi")));
        SimClient.Answer a = client.send("PATCH", "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/pending-claim",
                "application/merge-patch+json", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
        assertThat(a.code()).isEqualTo(422);
        assertThat(a.message().lines().findFirst().orElseThrow()).isEqualTo(Reference.PENDING_FIRST_LINE);
        assertThat(a.message()).contains("- \tResources.Requests.Storage: \"1Gi\"", "+ \tResources.Requests.Storage: \"2Gi\"");
        JsonNode cause = a.json().at("/details/causes/0");
        assertThat(cause.path("field").asText()).isEqualTo("spec");
        assertThat(cause.path("reason").asText()).isEqualTo("FieldValueForbidden");
    }

    @Test
    void a_decrease_to_capacity_is_refused_and_a_decrease_that_stays_above_capacity_is_accepted() {
        String ns = freshNamespace();
        sim.load(in(ns, Fixtures.boundClaim("data-db-0", "expandable", "2Gi", "1Gi")));
        String path = "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/data-db-0";
        SimClient.Answer below = client.send("PATCH", path, "application/merge-patch+json", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}}");
        assertThat(below.code()).isEqualTo(422);
        assertThat(below.message()).isEqualTo(Reference.BELOW_CAPACITY);
        assertThat(below.json().at("/details/causes/0/field").asText()).isEqualTo("spec.resources.requests.storage");
        SimClient.Answer above = client.send("PATCH", path, "application/merge-patch+json", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1500Mi\"}}}}");
        assertThat(above.code()).as("RecoverVolumeExpansionFailure").isEqualTo(200);
    }

    @Test
    void quantities_come_back_canonical() {
        String ns = freshNamespace();
        String[][] cases = {{"1024Mi", "1Gi"}, {"1500M", "1500M"}, {"2048", "2048"}, {"1.5Gi", "1536Mi"}};
        for (String[] c : cases) {
            String name = "q" + c[0].replace('.', '-').toLowerCase(java.util.Locale.ROOT);
            ObjectNode pvc = in(ns, Fixtures.pendingClaim(name, "expandable", c[0]));
            SimClient.Answer a = client.send("POST", "/api/v1/namespaces/" + ns + "/persistentvolumeclaims", "application/json", pvc.toString());
            assertThat(a.code()).as(a.body()).isEqualTo(201);
            assertThat(client.get("/api/v1/namespaces/" + ns + "/persistentvolumeclaims/" + name).json()
                    .at("/spec/resources/requests/storage").asText()).as(c[0]).isEqualTo(c[1]);
        }
    }

    @Test
    void a_quota_on_requests_storage_refuses_a_growth_beyond_it_with_the_quota_admission_words() {
        String ns = freshNamespace();
        sim.load(in(ns, Fixtures.boundClaim("data-db-0", "expandable", "4Gi", "4Gi")),
                in(ns, Fixtures.yaml("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: storage}\nspec: {hard: {requests.storage: 5Gi}}\n")));
        String path = "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/data-db-0";
        SimClient.Answer a = client.send("PATCH", path, "application/merge-patch+json", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"6Gi\"}}}}");
        assertThat(a.code()).isEqualTo(403);
        assertThat(a.message()).isEqualTo("persistentvolumeclaims \"data-db-0\" is forbidden: exceeded quota: storage, "
                + "requested: requests.storage=2Gi, used: requests.storage=4Gi, limited: requests.storage=5Gi");
        assertThat(client.send("PATCH", path, "application/merge-patch+json", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"5Gi\"}}}}")
                .code()).as("negative control: within the quota").isEqualTo(200);
    }

    @Test
    void a_quota_per_storage_class_counts_only_claims_of_that_class() {
        String ns = freshNamespace();
        sim.load(in(ns, Fixtures.boundClaim("data-db-0", "expandable", "4Gi", "4Gi")),
                in(ns, Fixtures.boundClaim("other", "fixed", "10Gi", "10Gi")),
                in(ns, Fixtures.yaml("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: fast}\n"
                        + "spec: {hard: {expandable.storageclass.storage.k8s.io/requests.storage: 5Gi}}\n")));
        SimClient.Answer a = client.send("PATCH", "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/data-db-0",
                "application/merge-patch+json", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"8Gi\"}}}}");
        assertThat(a.code()).isEqualTo(403);
        assertThat(a.message()).isEqualTo("persistentvolumeclaims \"data-db-0\" is forbidden: exceeded quota: fast, "
                + "requested: expandable.storageclass.storage.k8s.io/requests.storage=4Gi, "
                + "used: expandable.storageclass.storage.k8s.io/requests.storage=4Gi, "
                + "limited: expandable.storageclass.storage.k8s.io/requests.storage=5Gi");
    }

    @Test
    void orphan_delete_with_a_wrong_uid_is_409_and_with_the_right_one_returns_the_object_being_deleted() {
        String ns = freshNamespace();
        JsonNode created = applyDb(ns, Fixtures.db(), "").json();
        String uid = created.at("/metadata/uid").asText();
        String wrong = "00000000-0000-0000-0000-000000000000";
        SimClient.Answer refused = client.send("DELETE", stsPath(ns), "application/json",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"" + wrong + "\"}}");
        assertThat(refused.code()).isEqualTo(409);
        assertThat(refused.message()).isEqualTo(Reference.uidMismatch(wrong, uid));
        assertThat(refused.json().path("reason").asText()).isEqualTo("Conflict");
        SimClient.Answer ok = client.send("DELETE", stsPath(ns), "application/json",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"" + uid + "\"}}");
        assertThat(ok.code()).isEqualTo(200);
        JsonNode m = ok.json().path("metadata");
        assertThat(ok.json().path("kind").asText()).isEqualTo("StatefulSet");
        assertThat(m.path("deletionTimestamp").isTextual()).isTrue();
        assertThat(m.path("deletionGracePeriodSeconds").asInt(-1)).isZero();
        assertThat(m.path("finalizers")).isEqualTo(Reference.json("[\"orphan\"]"));
        assertThat(m.path("generation").asLong()).isEqualTo(created.at("/metadata/generation").asLong() + 1);
    }

    @Test
    void server_side_apply_of_an_absent_object_is_201_with_a_new_uid() {
        String ns = freshNamespace();
        SimClient.Answer first = applyDb(ns, Fixtures.db(), "");
        client.send("DELETE", stsPath(ns), null, null);
        SimClient.Answer again = applyDb(ns, Fixtures.db(), "");
        assertThat(again.code()).isEqualTo(201);
        assertThat(again.json().at("/metadata/uid").asText()).isNotEqualTo(first.json().at("/metadata/uid").asText());
    }

    @Test
    void an_unknown_field_in_an_apply_is_the_500_typed_patch_error() {
        ObjectNode db = Fixtures.db();
        ((ObjectNode) db.get("spec")).put("foo", "bar");
        for (String validation : new String[] {"", "&fieldValidation=Strict"}) {
            SimClient.Answer a = applyDb("default", db.deepCopy(), validation);
            assertThat(a.code()).isEqualTo(500);
            assertThat(a.message()).isEqualTo(Reference.UNKNOWN_FIELD_MESSAGE);
        }
    }

    @Test
    void not_found_and_already_exists_have_the_real_status_bodies() {
        String ns = freshNamespace();
        SimClient.Answer missing = client.get(stsPath(ns));
        assertThat(missing.code()).isEqualTo(404);
        assertThat(missing.json()).isEqualTo(Reference.json("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"statefulsets.apps \\"db\\" not found",
                 "reason":"NotFound","details":{"name":"db","group":"apps","kind":"statefulsets"},"code":404}"""));
        applyDb(ns, Fixtures.db(), "");
        SimClient.Answer dup = client.send("POST", "/apis/apps/v1/namespaces/" + ns + "/statefulsets", "application/json", in(ns, Fixtures.db()).toString());
        assertThat(dup.code()).isEqualTo(409);
        assertThat(dup.json()).isEqualTo(Reference.json("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"statefulsets.apps \\"db\\" already exists",
                 "reason":"AlreadyExists","details":{"name":"db","group":"apps","kind":"statefulsets"},"code":409}"""));
    }

    @Test
    void a_stale_resource_version_is_the_409_conflict_of_optimistic_concurrency() {
        String ns = freshNamespace();
        ObjectNode live = (ObjectNode) applyDb(ns, Fixtures.db(), "").json();
        client.send("PATCH", stsPath(ns), "application/merge-patch+json", "{\"spec\":{\"replicas\":4}}");
        SimClient.Answer stale = client.send("PUT", stsPath(ns), "application/json", live.toString());
        assertThat(stale.code()).isEqualTo(409);
        assertThat(stale.message()).isEqualTo("Operation cannot be fulfilled on statefulsets.apps \"db\": the object has been modified; "
                + "please apply your changes to the latest version and try again");
    }

    @Test
    void discovery_lists_statefulsets_with_short_names_verbs_and_subresources_and_the_version_is_1_32() {
        JsonNode apps = client.get("/apis/apps/v1").json();
        JsonNode sts = find(apps, "statefulsets");
        assertThat(sts.path("shortNames")).isEqualTo(Reference.json("[\"sts\"]"));
        assertThat(sts.path("verbs")).isEqualTo(Reference.json(
                "[\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"]"));
        assertThat(find(apps, "statefulsets/status").isMissingNode()).isFalse();
        assertThat(find(apps, "statefulsets/scale").path("kind").asText()).isEqualTo("Scale");
        assertThat(find(apps, "controllerrevisions").isMissingNode()).isFalse();
        JsonNode core = client.get("/api/v1").json();
        assertThat(find(core, "persistentvolumeclaims").path("shortNames")).isEqualTo(Reference.json("[\"pvc\"]"));
        assertThat(find(core, "persistentvolumeclaims/status").isMissingNode()).isFalse();
        JsonNode version = client.get("/version").json();
        assertThat(version.path("major").asText()).isEqualTo("1");
        assertThat(version.path("minor").asText()).isEqualTo("32");
        assertThat(version.path("gitVersion").asText()).isEqualTo("v1.32.13");
    }

    @Test
    void openapi_v3_names_each_group_version_and_the_apply_parameters_kubectl_looks_for() {
        JsonNode root = client.get("/openapi/v3").json();
        String url = root.at("/paths/apis~1apps~1v1/serverRelativeURL").asText();
        assertThat(url).startsWith("/openapi/v3/apis/apps/v1?hash=");
        JsonNode doc = client.get(url).json();
        JsonNode patch = doc.path("paths").path("/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}").path("patch");
        assertThat(patch.path("x-kubernetes-group-version-kind")).isEqualTo(Reference.json(
                "{\"group\":\"apps\",\"version\":\"v1\",\"kind\":\"StatefulSet\"}"));
        assertThat(patch.path("parameters").findValuesAsText("name")).contains("dryRun", "fieldManager", "fieldValidation", "force");
    }

    private static JsonNode find(JsonNode list, String name) {
        for (JsonNode r : list.path("resources")) {
            if (r.path("name").asText().equals(name)) {
                return r;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
}
