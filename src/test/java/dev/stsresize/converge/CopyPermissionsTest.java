package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A copy patches PersistentVolumes, which are cluster-scoped: a namespace admin may evict, copy and re-create in its
 * namespace and still not touch a volume. Found before any write, as every other missing verb is; a RoleBinding to a
 * ClusterRole that names PersistentVolumes grants nothing on them, so the namespace's rules (which list it) cannot say yes.
 */
class CopyPermissionsTest {
    @TempDir Path home;

    static ObjectNode adminInFiles() {
        return NamespaceAdminTest.binding("files", "admin");
    }

    /** A ClusterRole on cluster-scoped storage objects. */
    static ObjectNode clusterRole(String name, String resource, String verbs) {
        return Harness.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: " + name + "}\n"
                + "rules: [{apiGroups: ['" + (resource.equals("storageclasses") ? "storage.k8s.io" : "") + "'], resources: [" + resource
                + "], verbs: [" + verbs + "]}]\n");
    }

    /** The ClusterRole bound to files/ops by a binding of this kind (a RoleBinding in files, or a ClusterRoleBinding). */
    static ObjectNode bound(String kind, String role) {
        String namespace = kind.equals("RoleBinding") ? ", namespace: files" : "";
        return Harness.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: " + kind + "\nmetadata: {name: ops-" + role + namespace + "}\n"
                + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: " + role + "}\n"
                + "subjects: [{kind: ServiceAccount, name: ops, namespace: files}]\n");
    }

    /** files' admin who may read StorageClasses (so the copy is decided from the class), with the volumes' role bound by this kind. */
    static ObjectNode[] rights(String volumeBinding) {
        return new ObjectNode[] {adminInFiles(), clusterRole("class-reader", "storageclasses", "get, list"),
            bound("ClusterRoleBinding", "class-reader"), clusterRole("volume-keeper", "persistentvolumes", "get, list, patch"),
            bound(volumeBinding, "volume-keeper")};
    }

    Commands.Run asOps(Harness h, String command, String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(command, "-f",
                Commands.manifest(home, DemoScenario.copyManifest()).toString(), "--copy", "--context", "sim-files-ops"));
        if (command.equals("plan")) {
            args.add("--no-usage");
        }
        args.addAll(java.util.List.of(more));
        return Commands.run(h, args.toArray(String[]::new));
    }

    /** files/ops signed in with these rights, and its {@code plan --copy -o json}. */
    Commands.Run planAs(Harness h, ObjectNode... rights) {
        h.sim.load(rights);
        h.sim.tokenFor("files", "ops");
        return asOps(h, "plan", "-o", "json");
    }

    @Test
    void a_namespace_admin_without_volume_rights_is_blocked_before_any_write_naming_the_cluster_wide_verbs() {
        try (Harness h = Harness.start(home, DemoScenario.copyCluster())) {
            Commands.Run plan = planAs(h, rights("RoleBinding"));
            JsonNode item = NamespaceAdminTest.item(plan, "web");
            assertThat(item.path("verdict").asText()).as(plan.describe()).isEqualTo("blocked");
            assertThat(item.path("detail").asText()).as(plan.describe())
                    .contains("you cannot get persistentvolumes, patch persistentvolumes cluster-wide")
                    .contains("a RoleBinding grants nothing on PersistentVolumes").endsWith("Nothing was written")
                    .doesNotContain("in namespace files");
            Commands.Run apply = asOps(h, "apply", "--yes", "--timeout", "60s");
            assertThat(apply.code()).as(apply.describe()).isEqualTo(1);
            assertThat(apply.out() + apply.err()).as(apply.describe()).contains("patch persistentvolumes cluster-wide")
                    .doesNotContain("unknown flag");
            assertThat(h.writes()).as(apply.describe()).isEmpty();
        }
    }

    @Test
    void the_same_admin_with_a_cluster_role_binding_for_volumes_may_copy() {
        try (Harness h = Harness.start(home, DemoScenario.copyCluster())) {
            Commands.Run plan = planAs(h, rights("ClusterRoleBinding"));
            JsonNode item = NamespaceAdminTest.item(plan, "web");
            assertThat(item.path("verdict").asText()).as(plan.describe()).isEqualTo("copy");
            assertThat(plan.out()).as(plan.describe()).doesNotContain("you cannot");
            // a copy patches no claim: the check does not report dry runs it never sent
            Commands.Run dry = asOps(h, "apply", "--dry-run=server");
            assertThat(dry.err()).as(dry.describe()).contains("[check]").doesNotContain("claim patch(es) accepted");
        }
    }

    /** Without StorageClasses the class's expansion is the dry run's answer, and the copy cannot be decided: said so. */
    @Test
    void where_the_class_cannot_be_read_the_refusal_says_why_the_copy_was_not_decided() {
        try (Harness h = Harness.start(home, DemoScenario.copyCluster())) {
            Commands.Run plan = planAs(h, adminInFiles(), clusterRole("volume-keeper", "persistentvolumes", "get, list, patch"),
                    bound("ClusterRoleBinding", "volume-keeper"));
            JsonNode item = NamespaceAdminTest.item(plan, "web");
            assertThat(item.path("verdict").asText()).as(plan.describe()).isEqualTo("refused");
            assertThat(item.path("detail").asText()).as(plan.describe()).contains("cannot grow")
                    .contains("--copy cannot be decided without reading the StorageClass");
            Commands.Run without = Commands.run(h, "plan", "-f", Commands.manifest(home, DemoScenario.copyManifest()).toString(),
                    "--context", "sim-files-ops", "--no-usage", "-o", "json");
            assertThat(NamespaceAdminTest.item(without, "web").path("detail").asText()).as("only where --copy was asked")
                    .doesNotContain("--copy");
        }
    }
}
