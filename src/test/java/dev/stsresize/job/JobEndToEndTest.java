package dev.stsresize.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.controller.Speed;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.sim.store.ResourceType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GitOps route end to end: the rendered objects applied with the real kubectl to a simulated
 * cluster with its controllers, the script run as a local process with the Job's environment,
 * AUTHENTICATED AS THE JOB'S ServiceAccount (so the rendered Role is what is tested), then the
 * declared StatefulSet re-applied as Flux would: the pods are adopted with unchanged UIDs. One
 * simulator for the class, one namespace per test.
 */
class JobEndToEndTest {
    static final Duration DEADLINE = Duration.ofSeconds(30);
    static final AtomicInteger NAMESPACES = new AtomicInteger();

    static SimCluster sim;
    static ControllerManager controllers;
    @TempDir static Path dir;
    static Path admin;

    @BeforeAll
    static void start() {
        sim = SimCluster.start();
        sim.load(yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: expandable\n"
                + "  annotations: {sim.stsresize.dev/resizer: online}\nprovisioner: sim.csi.example\nallowVolumeExpansion: true\n"));
        // the class's CSI driver is deployed (it registers its CSIDriver); class "undeployed" names a driver that is not
        sim.load(yaml("apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: sim.csi.example}\nspec: {attachRequired: true}\n"),
                yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: undeployed}\nprovisioner: undeployed.csi.example\n"
                        + "allowVolumeExpansion: true\n"));
        controllers = ControllerManager.start(sim, Speed.fast);
        admin = ScriptRun.adminKubeconfig(sim, dir);
    }

    @AfterAll
    static void stop() {
        ScriptRun.stop(controllers, sim);
    }

    static String db(String ns, String size, String image) {
        return dev.stsresize.testkit.TestObjects.db(ns, "expandable", size, image);
    }

    /** A fresh namespace with db running at 1Gi: two Ready pods, two Bound claims. */
    static String runningDb() {
        String ns = "e2e-" + NAMESPACES.incrementAndGet();
        ScriptRun.Result created = ScriptRun.kubectl(admin, dir, "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n", "apply", "-f", "-");
        assertThat(created.exit()).as(created.toString()).isZero();
        ScriptRun.Result applied = ScriptRun.kubectl(admin, dir, db(ns, "1Gi", "postgres:16"), "apply", "-f", "-");
        assertThat(applied.exit()).as(applied.toString()).isZero();
        await("db-0 and db-1 of " + ns + " Ready with Bound claims", () -> ready(ns, "db-0") && ready(ns, "db-1")
                && bound(ns, "data-db-0") && bound(ns, "data-db-1"));
        return ns;
    }

    /** The rendered stream for db at {@code size}, through the real CLI. */
    static List<ObjectNode> rendered(String ns, String size, Path manifest) {
        try {
            java.nio.file.Files.writeString(manifest, db(ns, size, "postgres:16"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = new dev.stsresize.cli.Cli(new java.io.PrintWriter(out), new java.io.PrintWriter(err), java.io.InputStream.nullInputStream(),
                Map.of(), false).run("render-job", "-f", manifest.toString(), "--namespace", ns, "--kubeconfig", admin.toString());
        assertThat(code).as("render-job exit " + code + "\nstdout:\n" + out + "\nstderr:\n" + err).isZero();
        // which cluster and which version it rendered for, read from that cluster
        assertThat(err.toString()).startsWith("cluster: https://127.0.0.1:").contains("rendered for Kubernetes 1.32 (the cluster's /version)"
                + " in namespace " + ns + "\n");
        try {
            List<ObjectNode> docs = new ArrayList<>();
            new YAMLMapper().readerFor(ObjectNode.class).<ObjectNode>readValues(out.toString()).forEachRemaining(docs::add);
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String env(ObjectNode job, String name) {
        for (JsonNode e : job.at("/spec/template/spec/containers/0/env")) {
            if (e.path("name").asText().equals(name)) {
                return e.path("value").asText();
            }
        }
        throw new AssertionError("the Job has no env " + name);
    }

    /** Applies the objects with the real kubectl, as the admin (Flux's identity). */
    static void apply(List<ObjectNode> objects) {
        StringBuilder stream = new StringBuilder();
        for (ObjectNode o : objects) {
            stream.append("---\n").append(RenderedStream.yaml(List.of(o)));
        }
        ScriptRun.Result r = ScriptRun.kubectl(admin, dir, stream.toString(), "apply", "-f", "-");
        assertThat(r.exit()).as(r.toString()).isZero();
    }

    /** The Job: the last object of the stream, after the identity it runs as. */
    static ObjectNode jobOf(List<ObjectNode> objects) {
        ObjectNode job = objects.get(objects.size() - 1);
        assertThat(job.path("kind").asText()).isEqualTo("Job");
        return job;
    }

    /** The script as the Job runs it: its env, its ServiceAccount's token. */
    static ScriptRun.Result runJob(String ns, ObjectNode job) {
        String sa = job.at("/spec/template/spec/serviceAccountName").asText();
        Path kc = ScriptRun.kubeconfigAs(sim, ns, sa, dir);
        return ScriptRun.run(kc, env(job, "RESIZE_NAMESPACE"), env(job, "RESIZE_DECLARED"), dir);
    }

    @Test
    void the_job_grows_the_claims_as_its_service_account_and_the_re_applied_statefulset_adopts_the_same_pods(@TempDir Path tmp) {
        String ns = runningDb();
        Map<String, String> pods = uids(ns, "Pod");
        Map<String, String> claims = uids(ns, "PersistentVolumeClaim");
        String oldUid = sim.get("apps/v1", "StatefulSet", ns, "db").at("/metadata/uid").asText();
        List<ObjectNode> objects = rendered(ns, "2Gi", tmp.resolve("db.yaml"));
        apply(objects);
        long since = sim.requests().size();

        ScriptRun.Result r = runJob(ns, jobOf(objects));

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.verdicts()).as(r.toString()).containsExactly("verdict " + ns + "/db grow");
        String sa = "system:serviceaccount:" + ns + ":sts-volume-resize";
        List<RecordedRequest> calls = sim.requests().subList((int) since, sim.requests().size());
        assertThat(calls).as("every call is the Job's ServiceAccount's").allSatisfy(q -> assertThat(q.user()).isEqualTo(sa));
        for (String c : List.of("data-db-0", "data-db-1")) {
            assertThat(sim.get("v1", "PersistentVolumeClaim", ns, c).at("/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
        }
        assertThat(sim.get("apps/v1", "StatefulSet", ns, "db")).as("orphan-deleted").isNull();
        assertThat(uids(ns, "Pod")).as("the pods keep running").isEqualTo(pods);

        // Flux's rollout tree: the declared StatefulSet applied again
        ScriptRun.Result reapplied = ScriptRun.kubectl(admin, dir, db(ns, "2Gi", "postgres:16"), "apply", "-f", "-");
        assertThat(reapplied.exit()).as(reapplied.toString()).isZero();
        String newUid = sim.get("apps/v1", "StatefulSet", ns, "db").at("/metadata/uid").asText();
        assertThat(newUid).isNotEqualTo(oldUid);
        await("the pods are adopted by the new StatefulSet", () -> uids(ns, "Pod").keySet().stream()
                .allMatch(p -> newUid.equals(controllerUid(sim.get("v1", "Pod", ns, p)))));
        assertThat(uids(ns, "Pod")).as("adopted, not recreated").isEqualTo(pods);
        assertThat(uids(ns, "PersistentVolumeClaim")).as("no claim lost").isEqualTo(claims);

        ScriptRun.Result again = runJob(ns, jobOf(objects));
        assertThat(again.exit()).as("a re-run finds nothing to do\n" + again).isZero();
        assertThat(again.verdicts()).containsExactly("verdict " + ns + "/db up-to-date");
    }

    /** Every verb of the rendered Role, as {@code apiGroup/resource verb}. */
    static Stream<Arguments> verbs() {
        List<ObjectNode> objects = rendered("verbs", "2Gi", dir.resolve("verbs.yaml"));
        List<Arguments> out = new ArrayList<>();
        for (JsonNode rule : objects.get(1).path("rules")) {
            for (JsonNode verb : rule.path("verbs")) {
                out.add(Arguments.of(rule.at("/resources/0").asText(), verb.asText()));
            }
        }
        assertThat(out).as("the rendered Role's verbs").hasSize(6);
        return out.stream();
    }

    @ParameterizedTest(name = "without {1} on {0} the Job cannot converge and writes nothing")
    @MethodSource("verbs")
    void every_verb_of_the_rendered_role_is_needed(String resource, String verb, @TempDir Path tmp) {
        String ns = runningDb();
        List<ObjectNode> objects = rendered(ns, "2Gi", tmp.resolve("db.yaml"));
        ObjectNode role = objects.get(1);
        for (JsonNode rule : role.path("rules")) {
            if (rule.at("/resources/0").asText().equals(resource)) {
                ArrayNode verbs = (ArrayNode) rule.get("verbs");
                for (int i = 0; i < verbs.size(); i++) {
                    if (verbs.get(i).asText().equals(verb)) {
                        verbs.remove(i);
                    }
                }
            }
        }
        apply(objects);
        long since = sim.requests().size();

        ScriptRun.Result r = runJob(ns, jobOf(objects));

        assertThat(r.exit()).as("a missing permission is transient\n" + r).isEqualTo(1);
        assertThat(r.err()).as(r.toString()).contains("cannot " + verb + " resource \"" + resource + "\"");
        List<RecordedRequest> writes = sim.requests().subList((int) since, sim.requests().size()).stream()
                .filter(q -> q.isWrite() && q.status() < 300 && !dryRun(q)).toList();
        assertThat(writes).as("nothing written\n" + r).isEmpty();
        assertThat(sim.get("apps/v1", "StatefulSet", ns, "db")).isNotNull();
    }

    @Test
    void the_job_waits_while_a_cli_run_holds_the_lease_and_goes_on_once_it_expired(@TempDir Path tmp) {
        String ns = runningDb();
        List<ObjectNode> objects = rendered(ns, "2Gi", tmp.resolve("db.yaml"));
        apply(objects);
        String lease = "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: " + LeaseConvention.leaseName("db")
                + ", namespace: " + ns + "}\nspec: {holderIdentity: 'alice@laptop 4242', leaseDurationSeconds: 60, renewTime: 'RENEWED'}\n";
        ScriptRun.Result held = ScriptRun.kubectl(admin, dir, lease.replace("RENEWED", micro(Instant.now())), "apply", "-f", "-");
        assertThat(held.exit()).as(held.toString()).isZero();
        long since = sim.requests().size();

        ScriptRun.Result r = runJob(ns, jobOf(objects));

        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.verdicts()).containsExactly("verdict " + ns + "/db blocked locked");
        assertThat(r.err()).contains("alice@laptop 4242");
        assertThat(sim.requests().subList((int) since, sim.requests().size())).noneMatch(RecordedRequest::isWrite);

        ScriptRun.Result expired = ScriptRun.kubectl(admin, dir, lease.replace("RENEWED", micro(Instant.now().minusSeconds(600))), "apply", "-f", "-");
        assertThat(expired.exit()).as(expired.toString()).isZero();
        ScriptRun.Result after = runJob(ns, jobOf(objects));
        assertThat(after.exit()).as(after.toString()).isZero();
        assertThat(after.verdicts()).containsExactly("verdict " + ns + "/db grow");
    }

    static void quota(String ns, String hard) {
        ScriptRun.Result q = ScriptRun.kubectl(admin, dir, "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: storage, namespace: "
                + ns + "}\nspec: {hard: {requests.storage: " + hard + "}}\n", "apply", "-f", "-");
        assertThat(q.exit()).as(q.toString()).isZero();
    }

    @Test
    void a_quota_refusal_is_transient_says_why_and_a_later_run_finishes_the_work(@TempDir Path tmp) {
        String ns = runningDb();
        quota(ns, "2560Mi");
        List<ObjectNode> objects = rendered(ns, "2Gi", tmp.resolve("db.yaml"));
        apply(objects);
        long since = sim.requests().size();

        ScriptRun.Result r = runJob(ns, jobOf(objects));

        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.verdicts()).as(r.toString()).containsExactly("verdict " + ns + "/db blocked forbidden");
        assertThat(r.err()).as(r.toString()).contains("exceeded quota: storage");
        assertThat(sim.requests().subList((int) since, sim.requests().size())).filteredOn(q -> q.isWrite() && q.status() < 300)
                .as("only dry runs").allSatisfy(q -> assertThat(dryRun(q)).isTrue());

        // each claim's growth fits alone but not both: a dry run per claim cannot see that (the Role cannot read
        // quotas), so the first claim grows, the second is refused, and the StatefulSet is NOT deleted
        quota(ns, "3Gi");
        ScriptRun.Result partial = runJob(ns, jobOf(objects));
        assertThat(partial.exit()).as(partial.toString()).isEqualTo(1);
        assertThat(partial.err()).as(partial.toString()).contains("exceeded quota: storage");
        assertThat(sim.get("v1", "PersistentVolumeClaim", ns, "data-db-0").at("/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
        assertThat(sim.get("v1", "PersistentVolumeClaim", ns, "data-db-1").at("/spec/resources/requests/storage").asText()).isEqualTo("1Gi");
        assertThat(sim.get("apps/v1", "StatefulSet", ns, "db")).as("not deleted after a failed growth").isNotNull();

        quota(ns, "10Gi");
        ScriptRun.Result done = runJob(ns, jobOf(objects));
        assertThat(done.exit()).as("the Job's retry finishes the work\n" + done).isZero();
        assertThat(done.err()).contains("claim data-db-1 grown to 2Gi").doesNotContain("claim data-db-0 grown");
        assertThat(sim.get("apps/v1", "StatefulSet", ns, "db")).isNull();
    }

    @Test
    void one_refused_statefulset_stops_the_job_before_it_writes_anything_for_the_others(@TempDir Path tmp) throws IOException {
        String ns = runningDb();
        ScriptRun.Result web = ScriptRun.kubectl(admin, dir, db(ns, "1Gi", "nginx:1").replace("db", "web"), "apply", "-f", "-");
        assertThat(web.exit()).as(web.toString()).isZero();
        await("web's claims are Bound", () -> bound(ns, "data-web-0") && bound(ns, "data-web-1"));
        Path manifest = tmp.resolve("both.yaml");
        // db grows; web shrinks, which is refused for good
        java.nio.file.Files.writeString(manifest, db(ns, "2Gi", "postgres:16") + "---\n" + db(ns, "512Mi", "nginx:1").replace("db", "web"));
        java.io.StringWriter out = new java.io.StringWriter();
        int code = new dev.stsresize.cli.Cli(new java.io.PrintWriter(out), new java.io.PrintWriter(new java.io.StringWriter()),
                java.io.InputStream.nullInputStream(), Map.of(), false).run("render-job", "--kubernetes-version", "1.32", "-f", manifest.toString(), "-n", ns);
        assertThat(code).isZero();
        List<ObjectNode> objects = new ArrayList<>();
        new YAMLMapper().readerFor(ObjectNode.class).<ObjectNode>readValues(out.toString()).forEachRemaining(objects::add);
        apply(objects);
        long since = sim.requests().size();

        ScriptRun.Result r = runJob(ns, jobOf(objects));

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.verdicts()).as(r.toString()).containsExactly("verdict " + ns + "/db grow", "verdict " + ns + "/web refused shrink");
        assertThat(sim.requests().subList((int) since, sim.requests().size())).filteredOn(q -> q.isWrite() && q.status() < 300)
                .as("only dry runs").allSatisfy(q -> assertThat(dryRun(q)).isTrue());
        assertThat(sim.get("v1", "PersistentVolumeClaim", ns, "data-db-0").at("/spec/resources/requests/storage").asText()).isEqualTo("1Gi");
        assertThat(sim.get("apps/v1", "StatefulSet", ns, "db")).isNotNull();
        assertThat(sim.get("apps/v1", "StatefulSet", ns, "db").at("/metadata/deletionTimestamp").isMissingNode())
                .as("the proven orphan delete was a dry run, read as delete.go reads it").isTrue();
    }

    @Test
    void a_class_whose_csi_driver_is_not_deployed_is_refused_in_cluster_with_nothing_written(@TempDir Path tmp) throws IOException {
        String ns = "e2e-" + NAMESPACES.incrementAndGet();
        String manifest = dev.stsresize.testkit.TestObjects.db(ns, "undeployed", "1Gi", "postgres:16");
        ScriptRun.Result created = ScriptRun.kubectl(admin, dir, "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n---\n"
                + manifest, "apply", "-f", "-");
        assertThat(created.exit()).as(created.toString()).isZero();
        await("db's claims Bound", () -> bound(ns, "data-db-0") && bound(ns, "data-db-1"));
        Path file = tmp.resolve("db.yaml");
        java.nio.file.Files.writeString(file, manifest.replace("storage: 1Gi", "storage: 2Gi"));
        for (boolean namespacedOnly : List.of(false, true)) {
            java.io.StringWriter out = new java.io.StringWriter();
            List<String> args = new ArrayList<>(List.of("render-job", "--kubernetes-version", "1.32", "-f", file.toString(), "-n", ns));
            if (namespacedOnly) {
                args.add("--namespaced-only");
            }
            assertThat(new dev.stsresize.cli.Cli(new java.io.PrintWriter(out), new java.io.PrintWriter(new java.io.StringWriter()),
                    java.io.InputStream.nullInputStream(), Map.of(), false).run(args.toArray(String[]::new))).isZero();
            List<ObjectNode> objects = new ArrayList<>();
            new YAMLMapper().readerFor(ObjectNode.class).<ObjectNode>readValues(out.toString()).forEachRemaining(objects::add);
            apply(objects);
            long since = sim.requests().size();

            ScriptRun.Result r = runJob(ns, jobOf(objects));

            if (!namespacedOnly) {
                assertThat(r.exit()).as(r.toString()).isEqualTo(2);
                assertThat(r.verdicts()).as(r.toString()).containsExactly("verdict " + ns + "/db refused no-resizer");
                assertThat(r.err()).as(r.toString()).contains("claims data-db-0, data-db-1 must grow but StorageClass undeployed: provisioner"
                        + " undeployed.csi.example has no CSIDriver \"undeployed.csi.example\" in the cluster");
                assertThat(sim.requests().subList((int) since, sim.requests().size())).filteredOn(q -> q.isWrite() && q.status() < 300)
                        .as("only dry runs").allSatisfy(q -> assertThat(dryRun(q)).isTrue());
                assertThat(sim.get("v1", "PersistentVolumeClaim", ns, "data-db-0").at("/spec/resources/requests/storage").asText())
                        .isEqualTo("1Gi");
                // the ClusterRole is what let it see: the next render leaves it out
                ScriptRun.Result removed = ScriptRun.kubectl(admin, dir, "", "delete", "clusterrolebinding", "sts-volume-resize:" + ns);
                assertThat(removed.exit()).as(removed.toString()).isZero();
            } else {
                // negative control: without the read the script cannot tell, says so, and converges as before
                assertThat(r.verdicts()).as(r.toString()).containsExactly("verdict " + ns + "/db grow");
                assertThat(r.err()).as(r.toString()).contains("cannot read StorageClass undeployed")
                        .contains("whether its provisioner has a resizer is unchecked");
            }
        }
    }

    /** A dry run where kube-apiserver reads it for the verb: the query of a patch, the DeleteOptions body of a delete. */
    static boolean dryRun(RecordedRequest q) {
        return q.dryRun();
    }

    static String micro(Instant t) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(java.time.ZoneOffset.UTC).format(t);
    }

    static Map<String, String> uids(String ns, String kind) {
        ResourceType t = sim.type("v1", kind);
        Map<String, String> out = new TreeMap<>();
        for (ObjectNode o : sim.store().list(t, ns)) {
            out.put(o.at("/metadata/name").asText(), o.at("/metadata/uid").asText());
        }
        return out;
    }

    static String controllerUid(JsonNode o) {
        if (o == null) {
            return null;
        }
        for (JsonNode ref : o.at("/metadata/ownerReferences")) {
            if (ref.path("controller").asBoolean()) {
                return ref.path("uid").asText();
            }
        }
        return null;
    }

    static boolean ready(String ns, String pod) {
        ObjectNode p = sim.get("v1", "Pod", ns, pod);
        if (p == null || !"Running".equals(p.at("/status/phase").asText())) {
            return false;
        }
        for (JsonNode c : p.at("/status/conditions")) {
            if (c.path("type").asText().equals("Ready") && c.path("status").asText().equals("True")) {
                return true;
            }
        }
        return false;
    }

    static boolean bound(String ns, String claim) {
        ObjectNode c = sim.get("v1", "PersistentVolumeClaim", ns, claim);
        return c != null && "Bound".equals(c.at("/status/phase").asText());
    }

    /** Polls against a generous deadline; never asserts a duration. */
    static void await(String what, BooleanSupplier condition) {
        dev.stsresize.testkit.Await.until(what, DEADLINE, java.time.Duration.ofMillis(10), condition);
    }

    static ObjectNode yaml(String s) {
        return dev.stsresize.testkit.TestObjects.yaml(s);
    }

    static {
        String missing = ScriptRun.missingTools();
        if (missing != null) {
            System.err.println("JobEndToEndTest: " + missing);
        }
    }

    @BeforeAll
    static void tools() {
        String missing = ScriptRun.missingTools();
        assumeTrue(missing == null, missing);
    }
}
