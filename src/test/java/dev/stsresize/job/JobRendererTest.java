package dev.stsresize.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stsresize.Golden;
import dev.stsresize.UserError;
import dev.stsresize.cli.Cli;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What render-job emits: golden files, names, labels, the identity, the Job's hash, and its errors. */
class JobRendererTest {
    static final String MANIFEST = "src/test/resources/job/manifest.yaml";
    static final KubernetesVersion V1_32 = new KubernetesVersion(1, 32);

    record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new Cli(new PrintWriter(out), new PrintWriter(err), InputStream.nullInputStream(), Map.of(), false).run(args);
        return new Run(code, out.toString(), err.toString());
    }

    static List<ObjectNode> docs(String yaml) {
        try {
            List<ObjectNode> out = new ArrayList<>();
            new YAMLMapper().readerFor(ObjectNode.class).<ObjectNode>readValues(yaml).forEachRemaining(out::add);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void renders_the_default_unit_in_apply_order() {
        Run r = cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "--namespace", "shop");
        assertThat(r.exit()).as(r.toString()).isZero();
        Golden.assertMatches("job/default.yaml", r.out());
        assertThat(docs(r.out()).stream().map(d -> d.path("kind").asText()))
                .containsExactly("ServiceAccount", "Role", "RoleBinding", "NetworkPolicy", "ClusterRole", "ClusterRoleBinding", "Job");
    }

    @Test
    void renders_a_unit_with_labels_pull_secrets_and_the_api_server_endpoints() {
        Run r = cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-n", "shop", "--unit", "db", "--label", "team=storage", "--label",
                "app.kubernetes.io/part-of=shop", "--image-pull-secret", "mirror", "--api-server-cidr", "10.0.0.1/32",
                "--api-server-port", "8443", "--image", "registry.example/kubectl-jq@sha256:" + "ab".repeat(32));
        assertThat(r.exit()).as(r.toString()).isZero();
        Golden.assertMatches("job/unit-db.yaml", r.out());
        List<ObjectNode> docs = docs(r.out());
        for (ObjectNode d : docs) {
            JsonNode labels = d.at("/metadata/labels");
            assertThat(d.at("/metadata/name").asText()).startsWith("sts-volume-resize-db");
            assertThat(labels.path("team").asText()).as(d.path("kind").asText()).isEqualTo("storage");
            assertThat(labels.path("app.kubernetes.io/name").asText()).isEqualTo("sts-volume-resize");
            assertThat(labels.path("app.kubernetes.io/instance").asText()).isEqualTo("sts-volume-resize-db");
            assertThat(labels.path("app.kubernetes.io/managed-by").asText()).isEqualTo("kubectl-stsresize");
        }
        JsonNode pod = JobEndToEndTest.jobOf(docs).at("/spec/template");
        assertThat(pod.at("/metadata/labels").has("team")).as("--label never reaches the pod").isFalse();
        assertThat(pod.at("/metadata/labels/app.kubernetes.io~1instance").asText()).isEqualTo("sts-volume-resize-db");
        assertThat(docs.get(0).at("/imagePullSecrets/0/name").asText()).as("pull secrets on the ServiceAccount").isEqualTo("mirror");
        assertThat(pod.at("/spec").has("imagePullSecrets")).isFalse();
        assertThat(docs.get(3).at("/spec/podSelector/matchLabels")).isEqualTo(
                ((ObjectNode) JobEndToEndTest.jobOf(docs).at("/spec/template/metadata/labels").deepCopy()).without("app.kubernetes.io/managed-by"));
        assertThat(r.out()).doesNotContain("0.0.0.0/0");
    }

    @ParameterizedTest(name = "unit \"{0}\" names the objects {1}")
    @MethodSource("units")
    void names_the_objects_after_the_unit(String unit, String base) {
        assertThat(JobRenderer.baseName(unit)).isEqualTo(base);
    }

    static Stream<Arguments> units() {
        return Stream.of(Arguments.of(null, "sts-volume-resize"), Arguments.of("", "sts-volume-resize"),
                Arguments.of("base", "sts-volume-resize"), Arguments.of("db", "sts-volume-resize-db"));
    }

    @Test
    void the_identity_is_narrow_and_reads_only_storage_classes_and_csi_drivers_beyond_its_namespace() {
        List<ObjectNode> docs = docs(cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-n", "shop").out());
        ObjectNode role = docs.get(1);
        assertThat(role.path("kind").asText()).isEqualTo("Role");
        assertThat(role.path("rules")).isEqualTo(docs("""
                rules:
                - {apiGroups: [apps], resources: [statefulsets], resourceNames: [db, queue], verbs: [get, delete]}
                - {apiGroups: [''], resources: [persistentvolumeclaims], verbs: [get, list, patch]}
                - {apiGroups: [coordination.k8s.io], resources: [leases], resourceNames: [stsresize-db, stsresize-queue], verbs: [get]}
                """).get(0).path("rules"));
        assertThat(docs.get(2).at("/roleRef/kind").asText()).isEqualTo("Role");
        ObjectNode reader = docs.get(4);
        assertThat(reader.path("kind").asText()).isEqualTo("ClusterRole");
        assertThat(reader.at("/metadata/name").asText()).isEqualTo("sts-volume-resize:shop");
        assertThat(reader.at("/metadata").has("namespace")).isFalse();
        assertThat(reader.path("rules")).isEqualTo(docs("""
                rules:
                - {apiGroups: [storage.k8s.io], resources: [storageclasses], verbs: [get]}
                - {apiGroups: [storage.k8s.io], resources: [csidrivers], verbs: [list]}
                """).get(0).path("rules"));
        assertThat(docs.get(5).at("/roleRef/name").asText()).isEqualTo("sts-volume-resize:shop");
        assertThat(docs.get(5).at("/subjects/0")).isEqualTo(docs("{kind: ServiceAccount, name: sts-volume-resize, namespace: shop}").get(0));
        List<ObjectNode> namespaced = docs(cli("render-job", "--kubernetes-version", "1.32", "--namespaced-only", "-f", MANIFEST, "-n", "shop")
                .out());
        assertThat(namespaced).noneMatch(d -> d.path("kind").asText().startsWith("Cluster"));
        assertThat(namespaced).hasSize(5);
        JsonNode pod = JobEndToEndTest.jobOf(docs).at("/spec/template/spec");
        assertThat(pod.path("serviceAccountName").asText()).isEqualTo(docs.get(0).at("/metadata/name").asText());
    }

    @Test
    void the_job_fails_for_good_on_exit_2_and_runs_restricted() {
        ObjectNode job = docs(cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-n", "shop").out()).get(6);
        assertThat(job.at("/spec/podFailurePolicy/rules/0")).isEqualTo(docs(
                "{action: FailJob, onExitCodes: {containerName: resize, operator: In, values: [2]}}").get(0));
        assertThat(job.at("/spec/backoffLimit").asInt()).isBetween(1, 10);
        assertThat(job.at("/spec/activeDeadlineSeconds").asInt()).isPositive();
        assertThat(job.at("/spec/ttlSecondsAfterFinished").asInt()).isPositive();
        JsonNode pod = job.at("/spec/template/spec");
        assertThat(pod.path("restartPolicy").asText()).isEqualTo("Never");
        JsonNode c = pod.at("/containers/0");
        assertThat(c.path("image").asText()).isEqualTo(JobRenderer.DEFAULT_IMAGE).contains("@sha256:");
        assertThat(c.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(c.at("/securityContext/allowPrivilegeEscalation").asBoolean()).isFalse();
        assertThat(c.at("/securityContext/capabilities/drop/0").asText()).isEqualTo("ALL");
        assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.at("/securityContext/runAsUser").asLong()).isEqualTo(65532);
        assertThat(pod.at("/securityContext/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
        assertThat(c.at("/resources/requests/memory").isTextual()).isTrue();
        assertThat(c.at("/resources/limits/memory").isTextual()).isTrue();
        assertThat(c.at("/command/2").asText()).as("the script, verbatim").isEqualTo(Script.text());
        assertThat(c.at("/volumeMounts/0/mountPath").asText()).as("HOME and kubectl's cache on the emptyDir").isEqualTo("/tmp");
        assertThat(JobEndToEndTest.env(job, "HOME")).isEqualTo("/tmp");
        assertThat(JobEndToEndTest.env(job, "RESIZE_NAMESPACE")).isEqualTo("shop");
    }

    @Test
    void the_script_is_told_the_declared_volume_fields_only() {
        ObjectNode job = docs(cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-n", "shop").out()).get(6);
        Golden.assertMatches("job/declared.json", JobEndToEndTest.env(job, "RESIZE_DECLARED") + "\n");
        assertThat(JobEndToEndTest.env(job, "RESIZE_DECLARED")).doesNotContain("postgres").doesNotContain("replicas")
                .doesNotContain("PersistentVolumeClaim");
    }

    static ObjectNode db() {
        return docs("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: shop}
                spec:
                  serviceName: db
                  replicas: 2
                  selector: {matchLabels: {app: db}}
                  updateStrategy: {type: RollingUpdate}
                  template:
                    metadata: {labels: {app: db}}
                    spec:
                      containers: [{name: db, image: "postgres:16"}]
                  volumeClaimTemplates:
                  - metadata: {name: data, labels: {tier: db}}
                    spec: {storageClassName: fast, accessModes: [ReadWriteOnce], resources: {requests: {storage: 20Gi}}}
                """).get(0);
    }

    static String jobName(ObjectNode sts) {
        return JobEndToEndTest.jobOf(JobRenderer.render(JobSpec.of("shop", List.of(sts), V1_32))).at("/metadata/name").asText();
    }

    static Stream<Arguments> changes() {
        return Stream.<Arguments>of(
                change("the storage request", true, s -> s.withObject("/spec/volumeClaimTemplates/0/spec/resources/requests").put("storage", "30Gi")),
                change("the storage class", true, s -> s.withObject("/spec/volumeClaimTemplates/0/spec").put("storageClassName", "slow")),
                change("a template label", true, s -> s.withObject("/spec/volumeClaimTemplates/0/metadata/labels").put("tier", "x")),
                change("an added template", true, s -> s.withArray("/spec/volumeClaimTemplates").add(
                        ((ObjectNode) s.at("/spec/volumeClaimTemplates/0").deepCopy()).put("x", 1))),
                change("serviceName", true, s -> s.withObject("/spec").put("serviceName", "db2")),
                change("the selector", true, s -> s.withObject("/spec/selector/matchLabels").put("tier", "db")),
                change("the pod template's image", false, s -> s.withObject("/spec/template/spec/containers/0").put("image", "postgres:17")),
                change("the pod template's labels", false, s -> s.withObject("/spec/template/metadata/labels").put("rev", "2")),
                change("replicas", false, s -> s.withObject("/spec").put("replicas", 5)),
                change("the update strategy", false, s -> s.withObject("/spec/updateStrategy").put("type", "OnDelete")),
                change("the StatefulSet's own labels", false, s -> s.withObject("/metadata").putObject("labels").put("a", "b")),
                change("the key order of the manifest", false, s -> {
                    ObjectNode spec = (ObjectNode) s.at("/spec/volumeClaimTemplates/0/spec");
                    JsonNode modes = spec.remove("accessModes");
                    spec.set("accessModes", modes);
                }));
    }

    static Arguments change(String what, boolean renames, Consumer<ObjectNode> edit) {
        return Arguments.of(what, renames, edit);
    }

    @ParameterizedTest(name = "changing {0} renames the Job: {1}")
    @MethodSource("changes")
    void the_job_name_changes_exactly_when_a_declared_volume_field_does(String what, boolean renames, Consumer<ObjectNode> edit) {
        ObjectNode changed = db();
        edit.accept(changed);
        String before = jobName(db());
        assertThat(before).matches("sts-volume-resize-[0-9a-f]{10}");
        assertThat(jobName(db())).as("deterministic").isEqualTo(before);
        if (renames) {
            assertThat(jobName(changed)).as(what).isNotEqualTo(before);
        } else {
            assertThat(jobName(changed)).as(what).isEqualTo(before);
        }
    }

    @Test
    void a_manifest_without_a_claim_template_in_the_namespace_is_a_clear_error(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        java.nio.file.Path m = dir.resolve("cache.yaml");
        java.nio.file.Files.writeString(m, "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: cache}\nspec:\n  serviceName: cache\n"
                + "  selector: {matchLabels: {app: cache}}\n  template:\n    metadata: {labels: {app: cache}}\n"
                + "    spec: {containers: [{name: c, image: redis}]}\n");
        Run r = cli("render-job", "--kubernetes-version", "1.32", "-f", m.toString(), "-n", "shop");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).as(r.toString()).isEqualTo("error: the manifest declares no StatefulSet with volumeClaimTemplates in"
                + " namespace shop; there is nothing for a resize Job to converge. Check -f and --namespace\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void an_image_not_pinned_by_digest_is_refused_with_the_fix() {
        Run r = cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-n", "shop", "--image", "alpine/k8s:1.32");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("--image alpine/k8s:1.32 is not pinned by digest").contains("NAME@sha256:DIGEST");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void bad_flags_are_refused_before_anything_is_read() {
        assertThat(cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-n", "shop", "--label", "novalue").err()).contains("--label takes KEY=VALUE");
        assertThat(cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-n", "shop", "--api-server-port", "0").err()).contains("from 1 to 65535");
        assertThat(cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-n", "shop", "--api-server-cidr", "kubernetes").err()).contains("a CIDR");
        assertThatThrownBy(() -> JobRenderer.render(JobSpec.of("shop", List.of(db()), V1_32).withUnit("a-much-too-long-unit-name-for-a-job")))
                .isInstanceOf(UserError.class).hasMessageContaining("at most 63");
    }

    @Test
    void a_cluster_before_v1_26_gets_no_pod_failure_policy_and_the_same_job_otherwise() {
        Run old = cli("render-job", "--kubernetes-version", "v1.25.16", "-f", MANIFEST, "--namespace", "shop");
        assertThat(old.exit()).as(old.toString()).isZero();
        Golden.assertMatches("job/kubernetes-1.25.yaml", old.out());
        ObjectNode job = docs(old.out()).get(6);
        assertThat(job.at("/spec/podFailurePolicy").isMissingNode()).as(old.toString()).isTrue();
        ObjectNode current = docs(cli("render-job", "--kubernetes-version", "1.26", "-f", MANIFEST, "--namespace", "shop").out()).get(6);
        assertThat(current.at("/spec/podFailurePolicy/rules/0/action").asText()).as("negative control: 1.26 serves it").isEqualTo("FailJob");
        current.with("spec").remove("podFailurePolicy");
        assertThat(job).as("only podFailurePolicy differs").isEqualTo(current);
    }

    @Test
    void a_cluster_older_than_the_oldest_supported_version_is_refused_with_the_version_named() {
        Run r = cli("render-job", "--kubernetes-version", "1.23", "-f", MANIFEST, "--namespace", "shop");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).as(r.toString()).startsWith("error: the cluster runs Kubernetes 1.23, older than 1.24, the oldest kubectl"
                + " stsresize supports: volume expansion is GA only from 1.24");
        assertThat(r.out()).isEmpty();
        assertThat(cli("render-job", "--kubernetes-version", "1.24", "-f", MANIFEST, "--namespace", "shop").exit())
                .as("negative control: 1.24 renders").isZero();
    }

    @Test
    void without_a_version_and_without_a_cluster_it_asks_for_the_version() {
        Run r = cli("render-job", "-f", MANIFEST, "--namespace", "shop");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).as(r.toString()).startsWith("error: render-job writes only the fields the target cluster serves, in the"
                + " Job's namespace, so it needs the cluster's Kubernetes version and the namespace: pass --kubernetes-version (e.g. 1.32)"
                + " and -n NS, or a kubeconfig of that cluster (no kubeconfig found");
        assertThat(r.out()).isEmpty();
        assertThat(cli("render-job", "--kubernetes-version", "one.two", "-f", MANIFEST, "--namespace", "shop").err())
                .contains("--kubernetes-version takes the cluster's Kubernetes version as MAJOR.MINOR (e.g. 1.32");
    }

    /** Offline when the version and the namespace are both named; it says what it rendered for, on stderr. */
    @Test
    void it_says_which_version_and_namespace_it_rendered_for() {
        Run r = cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-n", "shop");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).isEqualTo("rendered for Kubernetes 1.32 (--kubernetes-version) in namespace shop\n");
        Run all = cli("render-job", "--kubernetes-version", "1.32", "-f", MANIFEST, "-A");
        assertThat(all.exit()).as(all.toString()).isEqualTo(1);
        assertThat(all.err()).startsWith("error: render-job writes the Job of one namespace: pass -n NS");
        assertThat(all.out()).isEmpty();
    }

    @Test
    void versions_are_read_as_kubectl_version_and_providers_print_them() {
        assertThat(KubernetesVersion.parse("v1.32.3-eks-1a2b3c", "--kubernetes-version")).isEqualTo(V1_32);
        assertThat(KubernetesVersion.parse("1.32", "--kubernetes-version")).isEqualTo(V1_32);
        ObjectNode gke = docs("{major: '1', minor: '32+', gitVersion: v1.32.4-gke.100}").get(0);
        assertThat(KubernetesVersion.fromVersionInfo(gke, "https://x")).isEqualTo(V1_32);
        ObjectNode gitOnly = docs("{gitVersion: v1.25.16}").get(0);
        assertThat(KubernetesVersion.fromVersionInfo(gitOnly, "https://x")).isEqualTo(new KubernetesVersion(1, 25));
        assertThatThrownBy(() -> KubernetesVersion.fromVersionInfo(docs("{major: '', minor: ''}").get(0), "https://x"))
                .isInstanceOf(UserError.class).hasMessageContaining("answered /version without a version");
    }
}
