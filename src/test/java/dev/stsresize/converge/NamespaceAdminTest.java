package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.http.RecordedRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The usual grant of a shared cluster: the built-in {@code admin} or {@code edit} ClusterRole bound in
 * one namespace. It may not create events.k8s.io Events (only core ones), nor list StorageClasses; on
 * servers before Leases joined {@code edit} it may not write Leases either. None of that may block a
 * run: the optional writes fall back and say so, only a verb the work itself needs blocks.
 */
class NamespaceAdminTest {
    @TempDir Path home;

    static ObjectNode binding(String clusterRole) {
        return binding("shop", clusterRole);
    }

    /** The ClusterRole bound in {@code namespace} to its ServiceAccount ops (context sim-NAMESPACE-ops once it has a token). */
    static ObjectNode binding(String namespace, String clusterRole) {
        return Harness.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: ops-" + clusterRole
                + ", namespace: " + namespace + "}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: " + clusterRole
                + "}\nsubjects: [{kind: ServiceAccount, name: ops, namespace: " + namespace + "}]\n");
    }

    static Path manifest(Path home) {
        return Commands.manifest(home, List.of(Demo.declared("postgres")));
    }

    /** The Events this run left in namespace shop, as "apiVersion-it-was-stored-as reason regarding". */
    static List<String> events(Harness h) {
        List<String> out = new ArrayList<>();
        for (ObjectNode o : h.sim.snapshot()) {
            if (o.path("kind").asText().equals("Event") && o.path("reportingComponent").asText().equals(Events.CONTROLLER)) {
                out.add(o.path("reason").asText() + " " + o.at("/involvedObject/kind").asText() + "/" + o.at("/involvedObject/name").asText());
            }
        }
        return out;
    }

    static List<RecordedRequest> eventPosts(Harness h) {
        return h.sim.requests().stream().filter(q -> q.method().equals("POST") && q.path().endsWith("/events")).toList();
    }

    @Test
    void a_namespace_admin_converges_with_core_events_and_its_lock_in_a_lease() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            signInAsOps(h, binding("admin"));
            Commands.Run r = applyAsOps(h);
            assertThat(r.code()).as(r.describe()).isZero();
            assertThat(r.out()).as(r.describe()).contains("shop/postgres: converged");
            // only the StorageClasses (cluster-scoped) are out of its reach, and that is a note
            assertThat(r.out() + r.err()).as(r.describe()).doesNotContain("blocked", "you cannot", "Events are not recorded",
                    "local journal only", "could not record Event");
            // the lock was in the cluster: v1.32's edit (and so admin) grants Leases and Secrets
            assertThat(h.writes()).anyMatch(w -> "leases".equals(w.resource()));
            assertThat(h.writes()).anyMatch(w -> "secrets".equals(w.resource()));
            // events.k8s.io refused once, then every Event through the core API
            List<RecordedRequest> posts = eventPosts(h);
            assertThat(posts).filteredOn(q -> q.path().startsWith("/apis/events.k8s.io/")).hasSize(1)
                    .allMatch(q -> q.status() == 403);
            assertThat(posts).filteredOn(q -> q.path().startsWith("/api/v1/")).isNotEmpty().allMatch(q -> q.status() == 201);
            assertThat(events(h)).contains("OrphanDeleted StatefulSet/postgres", "Reapplied StatefulSet/postgres")
                    .anyMatch(e -> e.startsWith("StorageRequestGrown PersistentVolumeClaim/data-postgres-"));
        }
    }

    @Test
    void plan_shows_a_namespace_admin_the_work_and_no_blocker() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            signInAsOps(h, binding("edit"));
            Commands.Run text = planAsOps(h);
            assertThat(text.code()).as(text.describe()).isZero();
            assertThat(text.out()).as(text.describe()).containsPattern("shop/postgres +GROW").doesNotContain("BLOCKED", "you cannot", "warning:");
            assertThat(text.err()).as(text.describe()).contains("StorageClasses cannot be listed");
            Commands.Run json = planAsOps(h, "-o", "json");
            JsonNode item = item(json, "postgres");
            assertThat(item.path("verdict").asText()).as(json.describe()).isEqualTo("grow");
            assertThat(item.path("warnings")).as(json.describe()).isEmpty();
        }
    }

    /** A run on a server whose {@code edit} had no Leases (v1.24's): journal only, said in the plan and the result. */
    @Test
    void where_leases_are_not_granted_the_lock_stays_in_the_journal_and_the_plan_warns() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            ObjectNode edit = h.get("rbac.authorization.k8s.io/v1", "ClusterRole", "", "edit");
            ArrayNode rules = (ArrayNode) edit.get("rules");
            for (int i = rules.size() - 1; i >= 0; i--) {
                if (rules.get(i).path("resources").toString().contains("leases")) {
                    rules.remove(i);
                }
            }
            signInAsOps(h, edit, binding("edit"));
            Commands.Run plan = planAsOps(h, "-o", "json");
            JsonNode item = item(plan, "postgres");
            assertThat(item.path("verdict").asText()).as(plan.describe()).isEqualTo("grow");
            assertThat(item.path("warnings").toString()).as(plan.describe()).contains("local journal only",
                    "you cannot get leases.coordination.k8s.io, create leases.coordination.k8s.io, update leases.coordination.k8s.io"
                            + " in namespace shop");
            Commands.Run r = applyAsOps(h);
            assertThat(r.code()).as(r.describe()).isZero();
            assertThat(r.out()).as(r.describe()).contains("shop/postgres: converged", "local journal only");
            assertThat(h.writes()).noneMatch(w -> "leases".equals(w.resource()));
            assertThat(h.journal.all()).as("released").isEmpty();
        }
    }

    @Test
    void view_is_blocked_naming_the_verbs_the_work_needs_and_writes_nothing() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            signInAsOps(h, binding("view"));
            Commands.Run plan = planAsOps(h, "-o", "json");
            JsonNode item = item(plan, "postgres");
            assertThat(item.path("verdict").asText()).as(plan.describe()).isEqualTo("blocked");
            assertThat(item.path("detail").asText()).as(plan.describe()).contains("you cannot patch persistentvolumeclaims, delete"
                    + " statefulsets.apps, create statefulsets.apps, patch statefulsets.apps in namespace shop")
                    .doesNotContain("events", "leases", "secrets");
            // what is only optional is a warning beside the blocker, not a blocker
            assertThat(item.path("warnings").toString()).contains("Events are not recorded in namespace shop", "local journal only");
            Commands.Run r = applyAsOps(h);
            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(h.writes()).isEmpty();
        }
    }

    /**
     * StorageClasses unreadable, a class that cannot expand: plan's note says the server's dry run of each claim patch
     * decides, so plan sends those dry runs (together) and refuses as apply does (real node D9: it said GROW, exit 0).
     */
    @Test
    void plan_sends_the_claim_dry_runs_its_note_promises_and_refuses_a_class_that_cannot_expand() {
        List<ObjectNode> objects = Demo.clusterWith("StorageClass", "fast-online", sc -> sc.put("allowVolumeExpansion", false));
        try (Harness h = Harness.start(home, objects)) {
            signInAsOps(h, binding("admin"));
            int mark = h.sim.requests().size();
            Commands.Run plan = planAsOps(h);
            assertThat(plan.code()).as(plan.describe()).isEqualTo(2);
            assertThat(plan.out()).as(plan.describe()).containsPattern("shop/postgres +REFUSED: not-expandable")
                    .contains("claims \"data-postgres-0\", \"data-postgres-1\", \"data-postgres-2\" cannot grow");
            assertThat(plan.err()).contains("left to the server's dry run of its patch");
            List<RecordedRequest> sent = h.sim.requests().subList(mark, h.sim.requests().size());
            assertThat(sent).filteredOn(q -> q.method().equals("PATCH") && "persistentvolumeclaims".equals(q.resource()))
                    .hasSize(3).allMatch(RecordedRequest::dryRun);
            assertThat(sent).as("a plan writes nothing").allMatch(q -> q.method().equals("GET") || q.dryRun()
                    || q.path().contains("selfsubject"));
        }
    }

    /** The ServiceAccount shop/ops, bound as the objects say, with a token in the kubeconfig's context sim-shop-ops. */
    static void signInAsOps(Harness h, ObjectNode... rbac) {
        h.sim.load(rbac);
        h.sim.tokenFor("shop", "ops");
    }

    /** {@code plan} of the manifest as shop/ops, with no usage read, then the given arguments. */
    Commands.Run planAsOps(Harness h, String... more) {
        List<String> args = new ArrayList<>(List.of("plan", "-f", manifest(home).toString(), "--context", "sim-shop-ops", "--no-usage"));
        args.addAll(List.of(more));
        return Commands.run(h, args.toArray(String[]::new));
    }

    /** {@code apply --yes} of the manifest as shop/ops. */
    Commands.Run applyAsOps(Harness h) {
        return Commands.run(h, "apply", "-f", manifest(home).toString(), "--yes", "--context", "sim-shop-ops", "--timeout", "60s");
    }

    static JsonNode item(Commands.Run r, String name) {
        try {
            JsonNode doc = Objects.MAPPER.readTree(r.out());
            for (JsonNode i : doc.path("items")) {
                if (i.path("name").asText().equals(name)) {
                    return i;
                }
            }
            throw new AssertionError("no item " + name + " in\n" + r.describe());
        } catch (java.io.IOException e) {
            throw new AssertionError(r.describe(), e);
        }
    }
}
