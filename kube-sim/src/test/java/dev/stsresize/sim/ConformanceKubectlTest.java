package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.http.RecordedRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Each answer of real-apiserver-v1.32.md, asked with the real kubectl: same exit, same words. */
@Tag("slow")
class ConformanceKubectlTest extends KubectlOnSim {
    @BeforeAll
    static void loadStorageClasses() {
        sim.load(Fixtures.storageClass("expandable", true), Fixtures.storageClass("fixed", false));
    }

    static String yamlIn(String ns, ObjectNode o) {
        o.withObject("/metadata").put("namespace", ns);
        return o.toString();
    }

    static Kubectl.Result applyServerSide(String ns, ObjectNode db, String... extra) {
        String[] args = new String[4 + extra.length];
        args[0] = "apply";
        args[1] = "--server-side";
        args[2] = "-f";
        args[3] = "-";
        System.arraycopy(extra, 0, args, 4, extra.length);
        return kubectl.run(yamlIn(ns, db), args);
    }

    /**
     * kubectl validates a {@code kind: List} on the client, with /openapi/v2 as protobuf (a List has no
     * fieldValidation parameter to look up): what {@code kubectl get -o yaml} writes can be applied back.
     */
    @Test
    void a_list_is_applied_and_an_unknown_field_in_it_refused_by_kubectl_with_the_v2_schema() {
        String ns = freshNamespace();
        String list = "apiVersion: v1\nkind: List\nitems:\n"
                + "- {apiVersion: v1, kind: Service, metadata: {name: web, namespace: " + ns + "},"
                + " spec: {selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}}\n"
                + "- apiVersion: apps/v1\n  kind: StatefulSet\n  metadata: {name: web, namespace: " + ns + "}\n"
                + "  spec:\n    serviceName: web\n    replicas: 2\n    selector: {matchLabels: {app: web}}\n"
                + "    template:\n      metadata: {labels: {app: web}}\n"
                + "      spec: {containers: [{name: c, image: 'nginx:1', resources: {requests: {cpu: 1, memory: 64Mi}}}]}\n"
                + "    volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce],"
                + " resources: {requests: {storage: 1Gi}}}}]\n";
        Kubectl.Result applied = kubectl.run(list, "apply", "-f", "-");
        assertThat(applied.exit()).as(applied.toString()).isZero();
        assertThat(applied.out()).isEqualTo("service/web created\nstatefulset.apps/web created\n");
        Kubectl.Result back = kubectl.run(null, "get", "sts,svc", "-n", ns, "-o", "yaml");
        Kubectl.Result reapplied = kubectl.run(back.out(), "apply", "-f", "-");
        assertThat(reapplied.exit()).as(reapplied.toString()).isZero();

        int before = sim.requests().size();
        Kubectl.Result unknown = kubectl.run("apiVersion: v1\nkind: List\nitems:\n"
                + "- {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: " + ns + "}, data: {a: b}, foo: bar}\n",
                "create", "-f", "-");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).isEqualTo("error: error validating \"STDIN\": error validating data: ValidationError(ConfigMap):"
                + " unknown field \"foo\" in io.k8s.api.core.v1.ConfigMap; if you choose to ignore these errors, turn validation off"
                + " with --validate=false\n");
        assertThat(sim.requests().subList(before, sim.requests().size())).noneMatch(RecordedRequest::isWrite);
    }

    @Test
    void get_shows_the_defaulted_statefulset_and_the_table_columns() {
        String ns = freshNamespace();
        Kubectl.Result created = applyServerSide(ns, Fixtures.db());
        assertThat(created.exit()).as(created.toString()).isZero();
        assertThat(created.out()).isEqualTo("statefulset.apps/db serverside-applied\n");
        Kubectl.Result json = kubectl.run(null, "get", "sts", "db", "-n", ns, "-o", "json");
        JsonNode sts = Reference.json(json.out());
        assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/volumeMode").asText()).isEqualTo("Filesystem");
        assertThat(sts.at("/spec/podManagementPolicy").asText()).isEqualTo("OrderedReady");
        assertThat(sts.at("/metadata/managedFields").isMissingNode()).as("kubectl get hides managedFields").isTrue();
        Kubectl.Result table = kubectl.run(null, "get", "sts", "-n", ns);
        assertThat(table.out()).startsWith("NAME   READY   AGE\ndb     0/2 ");
    }

    @Test
    void a_forced_server_side_apply_of_a_bigger_claim_template_prints_the_forbidden_422() {
        String ns = freshNamespace();
        applyServerSide(ns, Fixtures.db());
        for (String dry : new String[] {"--dry-run=none", "--dry-run=server"}) {
            Kubectl.Result r = applyServerSide(ns, Fixtures.dbWithTemplateSize("2Gi"), "--force-conflicts", dry);
            assertThat(r.exit()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).isEqualTo("The StatefulSet \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields "
                    + "other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and "
                    + "'minReadySeconds' are forbidden\n");
        }
    }

    @Test
    void a_server_side_apply_without_force_over_a_client_side_apply_is_the_conflict() {
        String ns = freshNamespace();
        Kubectl.Result created = kubectl.run(yamlIn(ns, Fixtures.db()), "apply", "-f", "-");
        assertThat(created.exit()).as(created.toString()).isZero();
        Kubectl.Result r = applyServerSide(ns, Fixtures.dbWithTemplateSize("2Gi"));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("error: Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.volumeClaimTemplates");
    }

    @Test
    void client_side_apply_creates_with_the_last_applied_annotation() {
        String ns = freshNamespace();
        Kubectl.Result created = kubectl.run(yamlIn(ns, Fixtures.db()), "apply", "-f", "-");
        assertThat(created.exit()).as(created.toString()).isZero();
        assertThat(created.out()).isEqualTo("statefulset.apps/db created\n");
        JsonNode sts = Reference.json(kubectl.run(null, "get", "sts", "db", "-n", ns, "-o", "json").out());
        assertThat(sts.at("/metadata/annotations").has("kubectl.kubernetes.io/last-applied-configuration")).isTrue();
        JsonNode raw = Reference.json(kubectl.run(null, "get", "--raw", "/apis/apps/v1/namespaces/" + ns + "/statefulsets/db").out());
        assertThat(raw.at("/metadata/managedFields/0/manager").asText()).isEqualTo("kubectl-client-side-apply");
        assertThat(raw.at("/metadata/managedFields/0/operation").asText()).isEqualTo("Update");
        assertThat(raw.at("/metadata/managedFields/0/fieldsV1").has("f:status")).as("status is never the main resource's").isFalse();
    }

    @Test
    void patching_claims_gives_the_resize_admission_403_the_capacity_422_and_a_server_dry_run_that_writes_nothing() {
        String ns = freshNamespace();
        ObjectNode fixed = Fixtures.boundClaim("fixed-a", "fixed", "1Gi", "1Gi");
        ObjectNode data = Fixtures.boundClaim("data-db-0", "expandable", "2Gi", "1Gi");
        fixed.withObject("/metadata").put("namespace", ns);
        data.withObject("/metadata").put("namespace", ns);
        sim.load(fixed, data);
        Kubectl.Result forbidden = kubectl.run(null, "patch", "pvc", "fixed-a", "-n", ns, "--type=merge",
                "-p", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
        assertThat(forbidden.exit()).isEqualTo(1);
        assertThat(forbidden.err()).isEqualTo("Error from server (Forbidden): persistentvolumeclaims \"fixed-a\" is forbidden: only "
                + "dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize\n");
        Kubectl.Result below = kubectl.run(null, "patch", "pvc", "data-db-0", "-n", ns, "--type=merge",
                "-p", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}}");
        assertThat(below.exit()).isEqualTo(1);
        assertThat(below.err()).isEqualTo("The PersistentVolumeClaim \"data-db-0\" is invalid: spec.resources.requests.storage: "
                + "Forbidden: field can not be less than status.capacity\n");
        long rv = sim.store().resourceVersion();
        Kubectl.Result dry = kubectl.run(null, "patch", "pvc", "data-db-0", "-n", ns, "--type=merge", "--dry-run=server",
                "-p", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"3Gi\"}}}}");
        assertThat(dry.exit()).as(dry.toString()).isZero();
        assertThat(dry.out()).isEqualTo("persistentvolumeclaim/data-db-0 patched\n"); // kubectl 1.32's own wording
        assertThat(sim.store().resourceVersion()).isEqualTo(rv);
        RecordedRequest last = lastPatch("data-db-0");
        assertThat(last.param("dryRun")).isEqualTo("All");
        assertThat(last.param("fieldManager")).isEqualTo("kubectl-patch");
    }

    @Test
    void delete_raw_with_options_refuses_a_wrong_uid_and_orphans_with_the_right_one() {
        String ns = freshNamespace();
        applyServerSide(ns, Fixtures.db());
        String uid = sim.get("apps/v1", "StatefulSet", ns, "db").at("/metadata/uid").asText();
        String wrong = "00000000-0000-0000-0000-000000000000";
        String path = "/apis/apps/v1/namespaces/" + ns + "/statefulsets/db";
        Kubectl.Result refused = kubectl.run(options(wrong), "delete", "--raw", path, "-f", "-");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).isEqualTo("Error from server (Conflict): " + Reference.uidMismatch(wrong, uid) + "\n");
        Kubectl.Result ok = kubectl.run(options(uid), "delete", "--raw", path, "-f", "-");
        assertThat(ok.exit()).as(ok.toString()).isZero();
        assertThat(Reference.json(ok.out()).at("/metadata/finalizers")).isEqualTo(Reference.json("[\"orphan\"]"));
    }

    @Test
    void delete_with_cascade_orphan_sends_orphan_and_wait_for_delete_returns_once_it_is_gone() {
        String ns = freshNamespace();
        applyServerSide(ns, Fixtures.db());
        Kubectl.Result orphan = kubectl.run(null, "delete", "sts", "db", "-n", ns, "--cascade=orphan", "--wait=false");
        assertThat(orphan.exit()).as(orphan.toString()).isZero();
        RecordedRequest delete = sim.requests().stream().filter(r -> r.method().equals("DELETE") && r.namespace().equals(ns))
                .reduce((a, b) -> b).orElseThrow();
        assertThat(Reference.json(delete.body()).path("propagationPolicy").asText()).isEqualTo("Orphan");
        String path = "/apis/apps/v1/namespaces/" + ns + "/statefulsets/db";
        JsonNode held = sim.get("apps/v1", "StatefulSet", ns, "db");
        assertThat(held.at("/metadata/finalizers/0").asText()).as("held by the orphan finalizer until the GC (part 2)").isEqualTo("orphan");
        // play the garbage collector: drop the finalizer, and the object goes
        sim.registry().patch(sim.type("apps/v1", "StatefulSet"), ns, "db", "",
                dev.stsresize.sim.patch.Patches.Type.MERGE, Reference.json("{\"metadata\":{\"finalizers\":null}}"),
                dev.stsresize.sim.registry.WriteOptions.by("garbage-collector"));
        Kubectl.Result waited = kubectl.run(null, "wait", "--for=delete", "sts/db", "-n", ns, "--timeout=20s");
        assertThat(waited.exit()).as(waited.toString()).isZero();
        assertThat(kubectl.run(null, "get", "--raw", path).err()).contains("NotFound");
    }

    @Test
    void an_unknown_field_in_a_server_side_apply_is_the_typed_patch_error() {
        ObjectNode db = Fixtures.db();
        ((ObjectNode) db.get("spec")).put("foo", "bar");
        Kubectl.Result r = applyServerSide("default", db);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("Error from server: " + Reference.UNKNOWN_FIELD_MESSAGE + "\n");
    }

    @Test
    void imperative_creates_whose_bodies_kubectl_sends_as_protobuf_work() {
        String ns = "imperative";
        assertThat(kubectl.run(null, "create", "namespace", ns).out()).isEqualTo("namespace/" + ns + " created\n");
        assertThat(kubectl.run(null, "create", "serviceaccount", "robot", "-n", ns).exit()).isZero();
        assertThat(kubectl.run(null, "create", "role", "reader", "--verb=get,list", "--resource=persistentvolumeclaims", "-n", ns).exit()).isZero();
        assertThat(kubectl.run(null, "create", "rolebinding", "reader", "--role=reader", "--serviceaccount=" + ns + ":robot", "-n", ns)
                .exit()).isZero();
        Kubectl.Result token = kubectl.run(null, "create", "token", "robot", "-n", ns);
        Kubectl.Result asRobot = kubectl.run(null, "--context", "sim-token", "--token", token.out().trim(), "get", "pvc", "-n", ns);
        assertThat(asRobot.err()).as("the issued token acts as robot, whom the role lets list claims").isEqualTo("No resources found in "
                + ns + " namespace.\n");
        assertThat(sim.get("rbac.authorization.k8s.io/v1", "Role", ns, "reader").at("/rules/0/verbs"))
                .isEqualTo(Reference.json("[\"get\",\"list\"]"));
        Kubectl.Result job = kubectl.run(null, "create", "job", "once", "--image=busybox:1", "-n", ns);
        assertThat(job.exit()).as(job.toString()).isZero();
        JsonNode container = sim.get("batch/v1", "Job", ns, "once").at("/spec/template/spec/containers/0");
        assertThat(container.path("imagePullPolicy").asText()).as("defaulted, not an empty string from protobuf").isEqualTo("IfNotPresent");
        assertThat(sim.get("batch/v1", "Job", ns, "once").at("/spec/template/metadata/creationTimestamp").isNull()).isTrue();
    }

    @Test
    void kubectl_reads_the_version_and_the_raw_discovery() {
        JsonNode version = Reference.json(kubectl.run(null, "get", "--raw", "/version").out());
        assertThat(version.path("gitVersion").asText()).isEqualTo("v1.32.13");
        Kubectl.Result resources = kubectl.run(null, "api-resources", "--api-group=apps", "--no-headers");
        assertThat(resources.out()).contains("statefulsets", "sts", "StatefulSet", "controllerrevisions");
    }

    private static RecordedRequest lastPatch(String name) {
        List<RecordedRequest> patches = sim.requests().stream().filter(r -> r.method().equals("PATCH") && r.name().equals(name)).toList();
        return patches.get(patches.size() - 1);
    }

    private static String options(String uid) {
        return "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"" + uid + "\"}}";
    }
}
