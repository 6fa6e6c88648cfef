package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.testkit.TestObjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, tried as a new user would with the real kubectl and its defaults (client-side validation
 * on): a small app applied whole (ConfigMap, Service, StatefulSet, Deployment), {@code kubectl explain}
 * from the served OpenAPI v3 schemas, {@code kubectl diff}, and {@code kubectl edit} with a scripted
 * editor. Helm is not installable here (no Debian or npm package), so its chart test is left out.
 */
@Tag("slow")
class NewUserKubectlTest extends KubectlOnSim {
    static final String APP = """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: cfg}
            data: {a: b}
            ---
            apiVersion: v1
            kind: Service
            metadata: {name: db}
            spec:
              clusterIP: None
              selector: {app: db}
              ports: [{port: 5432}]
            ---
            apiVersion: v1
            kind: Service
            metadata: {name: web}
            spec:
              selector: {app: web}
              ports: [{port: 80, targetPort: 8080}]
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web}
            spec:
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers: [{name: web, image: nginx:1.27, ports: [{containerPort: 8080}]}]
            ---
            """ + TestObjects.db("default", "expandable", "1Gi", "postgres:16");

    @BeforeAll
    static void applyTheApp() {
        sim.load(Fixtures.storageClass("expandable", true));
        Kubectl.Result applied = kubectl.run(APP, "apply", "-f", "-");
        assertThat(applied.exit()).as(applied.toString()).isZero();
        assertThat(applied.out()).isEqualTo("configmap/cfg created\nservice/db created\nservice/web created\n"
                + "deployment.apps/web created\nstatefulset.apps/db created\n");
    }

    @Test
    void the_whole_app_is_stored_with_defaults_and_a_second_apply_changes_nothing() {
        assertThat(kubectl.run(null, "get", "svc", "db", "-o", "jsonpath={.spec.clusterIP}").out()).isEqualTo("None");
        assertThat(kubectl.run(null, "get", "svc", "web", "-o", "jsonpath={.spec.clusterIP}").out()).matches("10\\.(9[6-9]|10[0-9]|11[01])\\.\\d+\\.\\d+");
        assertThat(kubectl.run(null, "get", "deploy", "web", "-o", "jsonpath={.spec.strategy.rollingUpdate.maxSurge}").out()).isEqualTo("25%");
        Kubectl.Result again = kubectl.run(APP, "apply", "-f", "-");
        assertThat(again.exit()).as(again.toString()).isZero();
        // kubectl's three-way patch treats volumeClaimTemplates as atomic (no patchStrategy in k8s.io/api), and the live
        // templates carry the server's defaults (apiVersion, kind, status: the reference shows them), so kubectl re-sends
        // the list and says "configured" against a real server too; the server's defaults make it the same object
        assertThat(again.out()).isEqualTo("configmap/cfg unchanged\nservice/db unchanged\nservice/web unchanged\n"
                + "deployment.apps/web unchanged\nstatefulset.apps/db configured\n");
        assertThat(kubectl.run(null, "get", "sts", "db", "-o", "jsonpath={.metadata.generation}").out()).as("nothing changed").isEqualTo("1");
        Kubectl.Result all = kubectl.run(null, "get", "all", "-o", "name");
        assertThat(all.out()).contains("service/db", "deployment.apps/web", "statefulset.apps/db");
    }

    @Test
    void explain_reads_the_served_schemas() {
        Kubectl.Result explain = kubectl.run(null, "explain", "statefulset.spec.volumeClaimTemplates");
        assertThat(explain.exit()).as(explain.toString()).isZero();
        assertThat(explain.out()).contains("KIND:       StatefulSet", "VERSION:    v1",
                "FIELD: volumeClaimTemplates <[]PersistentVolumeClaim>", "spec\t<PersistentVolumeClaimSpec>");
        Kubectl.Result svc = kubectl.run(null, "explain", "service.spec.ports");
        assertThat(svc.exit()).as(svc.toString()).isZero();
        assertThat(svc.out()).contains("FIELD: ports <[]ServicePort>", "targetPort\t<IntOrString>", "port\t<integer>");
    }

    @Test
    void an_unknown_field_is_refused_by_server_side_field_validation() {
        Kubectl.Result bad = kubectl.run("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typo}\ndatta: {a: b}\n", "apply", "-f", "-");
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err()).contains("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: "
                + "unknown field \"datta\"");
        Kubectl.Result warned = kubectl.run("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typo}\ndatta: {a: b}\n",
                "apply", "--validate=warn", "-f", "-");
        assertThat(warned.exit()).as(warned.toString()).isZero();
        assertThat(warned.err()).contains("Warning: unknown field \"datta\"");
    }

    @Test
    void diff_shows_a_change_and_edit_writes_one() throws Exception {
        Kubectl.Result diff = kubectl.run(APP.replace("data: {a: b}", "data: {a: c}"), "diff", "-f", "-");
        assertThat(diff.exit()).as(diff.toString()).isEqualTo(1);
        assertThat(diff.out()).contains("-  a: b", "+  a: c");
        Path editor = dir.resolve("editor.sh");
        Files.writeString(editor, "#!/bin/sh\nsed -i 's/^  a: b$/  a: edited/' \"$1\"\n");
        editor.toFile().setExecutable(true);
        Kubectl.Result edit = kubectl.runWithEnv(Map.of("EDITOR", editor.toString(), "KUBE_EDITOR", editor.toString()), null,
                "edit", "configmap", "cfg");
        assertThat(edit.exit()).as(edit.toString()).isZero();
        assertThat(edit.out()).isEqualTo("configmap/cfg edited\n");
        assertThat(kubectl.run(null, "get", "cm", "cfg", "-o", "jsonpath={.data.a}").out()).isEqualTo("edited");
    }
}
