package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Adoption read from the objects: the new StatefulSet observed its generation, every pod kept its
 * UID and points at the new owner, every revision is controlled, and under whenDeleted Delete every
 * claim is owned again; a rolling update the plan announced replaces pods without being a failure.
 */
class AdoptionCheckTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, Progress.NONE, new StopRequest());
    private final AdoptionCheck check = new AdoptionCheck(cluster, waiter);
    private final Dependents before = new Dependents(Map.of("db-0", "p0", "db-1", "p1"), Map.of("data-db-0", "c0"));

    private Instant soon() {
        return cluster.time.instant().plus(Duration.ofSeconds(20));
    }

    private ObjectNode sts(String extraSpec, long observed, String updateRevision) {
        return cluster.put("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'u2','generation':2},"
                + "'spec':{'replicas':2,'selector':{'matchLabels':{'app':'db'}}" + extraSpec + "},"
                + "'status':{'observedGeneration':" + observed + ",'readyReplicas':1,'currentRevision':'db-rev1','updateRevision':'"
                + updateRevision + "'}}");
    }

    private void pod(String name, String uid, String controller) {
        cluster.put(DependentsTest.pod(name, uid, "db", controller));
    }

    /** Both pods those seen before (p0, p1), each now owned by the new StatefulSet u2. */
    private void podsKeptAndAdopted() {
        pod("db-0", "p0", "u2");
        pod("db-1", "p1", "u2");
    }

    private void revision(String name, String controller) {
        cluster.put("{'kind':'ControllerRevision','metadata':{'name':'" + name + "','namespace':'shop','labels':{'app':'db'}"
                + (controller == null ? "" : ",'ownerReferences':[{'uid':'" + controller + "','controller':true}]") + "}}");
    }

    private void claim(String name, String owner) {
        cluster.put("{'kind':'PersistentVolumeClaim','metadata':{'name':'" + name + "','namespace':'shop','uid':'c0'"
                + (owner == null ? "" : ",'ownerReferences':[{'uid':'" + owner + "'}]") + "}}");
    }

    @Test
    void every_pod_and_revision_adopted_is_verified_with_the_counts_as_they_are() {
        ObjectNode applied = sts("", 2, "db-rev1");
        podsKeptAndAdopted();
        revision("db-rev1", "u2");

        AdoptionCheck.Result r = check.verify(applied, before, "db-rev1", soon());

        assertThat(r.adopted()).as(r.detail()).isTrue();
        assertThat(r.detail()).isEqualTo("adopted by UID u2: 2 pod(s) with unchanged UIDs, revisions adopted; replicas 2, readyReplicas 1,"
                + " currentRevision db-rev1");
        assertThat(r.pods()).containsExactlyInAnyOrder(new StatefulSetResult.PodResult("db-0", "p0", "p0"),
                new StatefulSetResult.PodResult("db-1", "p1", "p1"));
        assertThat(cluster.realWrites()).as("verifying writes nothing").isEmpty();
    }

    @Test
    void adoption_that_comes_while_watching_is_waited_for() {
        ObjectNode applied = sts("", 1, "db-rev1");
        pod("db-0", "p0", null);
        pod("db-1", "p1", "u2");
        revision("db-rev1", null);
        cluster.onWatch("StatefulSet", "shop", "db", () -> cluster.edit("StatefulSet", "shop", "db",
                s -> ((ObjectNode) s.path("status")).put("observedGeneration", 2)));
        cluster.onWatch("Pod", "shop", "db-0", () -> cluster.edit("Pod", "shop", "db-0",
                p -> ((ObjectNode) p.path("metadata")).putArray("ownerReferences").addObject().put("uid", "u2").put("controller", true)));
        cluster.onWatch("StatefulSet", "shop", "db", () -> cluster.put("{'kind':'ControllerRevision','metadata':{'name':'db-rev1',"
                + "'namespace':'shop','labels':{'app':'db'},'ownerReferences':[{'uid':'u2','controller':true}]}}"));

        AdoptionCheck.Result r = check.verify(applied, before, "db-rev1", soon());
        assertThat(r.adopted()).as(r.detail()).isTrue();
    }

    @Test
    void what_is_seen_ends_each_wait_at_once_a_replaced_pod_and_revisions_adopted_with_the_controllers_status_write() {
        ObjectNode applied = sts("", 2, "db-rev1");
        pod("db-0", "p0", "u2");
        pod("db-1", "p1-new", "someone");
        revision("db-rev1", null);
        cluster.onWatch("StatefulSet", "shop", "db", () -> {
            revision("db-rev1", "u2");
            cluster.edit("StatefulSet", "shop", "db", s -> ((ObjectNode) s.path("status")).put("readyReplicas", 2));
        });
        Instant deadline = cluster.time.instant().plus(Duration.ofMinutes(5));
        AdoptionCheck.Result r = check.verify(applied, before, "db-rev1", deadline);
        assertThat(r.detail()).contains("pod db-1 was replaced (UID p1 -> p1-new)").doesNotContain("ControllerRevision");
        assertThat(cluster.time.instant()).as("no wait ran to its deadline").isBefore(deadline.minus(Duration.ofMinutes(4)));
    }

    @Test
    void each_problem_is_named_pods_gone_replaced_or_not_adopted_revisions_and_the_generation() {
        ObjectNode applied = sts("", 1, "db-rev1");
        pod("db-0", "p0-new", "u2");
        revision("db-rev1", null);
        revision("db-rev2", "u2");
        Dependents three = new Dependents(Map.of("db-0", "p0", "db-1", "p1", "db-2", "p2"), Map.of());
        pod("db-2", "p2", "someone");

        AdoptionCheck.Result r = check.verify(applied, three, "db-rev1", soon());

        assertThat(r.adopted()).isFalse();
        assertThat(r.detail()).startsWith("adoption NOT verified for StatefulSet shop/db (UID u2): ")
                .contains("observedGeneration 1 has not caught up with generation 2")
                .contains("pod db-0 was replaced (UID p0 -> p0-new)")
                .contains("pod db-1 is gone")
                .contains("pod db-2 is not adopted (no controller reference to u2)")
                .contains("ControllerRevision(s) db-rev1 not adopted")
                .doesNotContain("db-rev2")
                .endsWith("; replicas 2, readyReplicas 1, currentRevision db-rev1");
        assertThat(r.pods()).contains(new StatefulSetResult.PodResult("db-1", "p1", ""),
                new StatefulSetResult.PodResult("db-0", "p0", "p0-new"));
    }

    @Test
    void the_statefulset_gone_again_or_replaced_is_no_adoption() {
        ObjectNode applied = sts("", 2, "db-rev1");
        cluster.remove("StatefulSet", "shop", "db");
        AdoptionCheck.Result gone = check.verify(applied, before, "db-rev1", soon());
        assertThat(gone.adopted()).isFalse();
        assertThat(gone.pods()).isEmpty();
        assertThat(gone.detail()).isEqualTo("the re-applied StatefulSet shop/db (UID u2) is gone again");

        cluster.put("{'kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'u3'},'status':{'observedGeneration':5}}");
        assertThat(check.verify(applied, before, "db-rev1", soon()).detail()).isEqualTo("the re-applied StatefulSet shop/db (UID u2) is"
                + " gone again");
    }

    @Test
    void under_a_rolling_update_the_plan_announced_replaced_and_recreated_pods_are_the_roll_not_a_failure() {
        ObjectNode applied = sts("", 2, "db-rev2");
        pod("db-0", "p0-new", "u2");
        revision("db-rev2", "u2");
        cluster.onWatch("Pod", "shop", "db-1", () -> { }, () -> pod("db-1", "p1-new", "u2"));

        Instant deadline = cluster.time.instant().plus(Duration.ofMinutes(5));
        AdoptionCheck.Result r = check.verify(applied, before, "db-rev1", deadline);

        assertThat(r.adopted()).as(r.detail()).isTrue();
        assertThat(cluster.time.instant()).as("the re-created pod ends its wait at once").isBefore(deadline.minus(Duration.ofMinutes(4)));
        assertThat(r.pods()).containsExactlyInAnyOrder(new StatefulSetResult.PodResult("db-0", "p0", "p0-new"),
                new StatefulSetResult.PodResult("db-1", "p1", "p1-new"));
    }

    @Test
    void without_a_recorded_revision_or_with_the_same_one_a_replaced_pod_is_a_failure() {
        ObjectNode applied = sts("", 2, "db-rev2");
        pod("db-0", "p0-new", "u2");
        pod("db-1", "p1", "u2");
        assertThat(check.verify(applied, before, "", soon()).detail()).contains("pod db-0 was replaced (UID p0 -> p0-new)");
        sts("", 2, "");
        assertThat(check.verify(applied, before, "db-rev1", soon()).detail()).as("no update revision: no roll")
                .contains("pod db-0 was replaced");
        sts("", 2, "db-rev1");
        assertThat(check.verify(applied, before, "db-rev1", soon()).detail()).as("the same revision: no roll")
                .contains("pod db-0 was replaced");
    }

    @Test
    void under_when_deleted_delete_every_claim_must_be_owned_again() {
        ObjectNode applied = sts(",'persistentVolumeClaimRetentionPolicy':{'whenDeleted':'Delete'}", 2, "db-rev1");
        podsKeptAndAdopted();
        claim("data-db-0", null);
        AdoptionCheck.Result r = check.verify(applied, before, "db-rev1", soon());
        assertThat(r.adopted()).isFalse();
        assertThat(r.detail()).contains("claim data-db-0 has no owner reference to u2 yet (whenDeleted: Delete)");

        claim("data-db-0", "u2");
        assertThat(check.verify(applied, before, "db-rev1", soon()).adopted()).isTrue();

        cluster.remove("PersistentVolumeClaim", "shop", "data-db-0");
        assertThat(check.verify(applied, before, "db-rev1", soon()).detail()).contains("claim data-db-0 is GONE");
    }

    @Test
    void under_when_deleted_retain_the_claims_owners_are_not_asked_for() {
        ObjectNode applied = sts(",'persistentVolumeClaimRetentionPolicy':{'whenDeleted':'Retain'}", 2, "db-rev1");
        podsKeptAndAdopted();
        claim("data-db-0", null);
        assertThat(check.verify(applied, before, "db-rev1", soon()).adopted()).isTrue();
    }

    @Test
    void a_statefulset_controller_silent_for_SLOW_is_named_with_what_to_check_once_as_a_warning_then_in_every_tick() {
        Heard heard = new Heard();
        AdoptionCheck slow = new AdoptionCheck(cluster, new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, heard,
                new StopRequest()));
        ObjectNode applied = sts("", 1, "db-rev1"); // kube-controller-manager down: generation 2 never observed
        podsKeptAndAdopted();
        revision("db-rev1", "u2");

        AdoptionCheck.Result r = slow.verify(applied, before, "db-rev1", cluster.time.instant().plus(Duration.ofMinutes(2)));

        assertThat(r.adopted()).isFalse();
        String late = "StatefulSet db not observed after 30s: the StatefulSet controller of kube-controller-manager does it within"
                + " seconds when it runs; check that kube-controller-manager is up (its pod in kube-system on a self-managed control"
                + " plane, else the provider's control-plane status). The pods keep running meanwhile";
        assertThat(heard.events).filteredOn(ProgressEvent::warning).extracting(ProgressEvent::message).containsExactly(late);
        assertThat(heard.ticks).anyMatch(t -> t.elapsed().compareTo(Waiter.SLOW) < 0).anyMatch(t -> t.elapsed().compareTo(Waiter.SLOW) >= 0)
                .allSatisfy(t -> assertThat(t.what()).isEqualTo("StatefulSet db to observe generation 2"
                        + (t.elapsed().compareTo(Waiter.SLOW) >= 0 ? ": StatefulSet db not observed after 30s: is"
                                + " kube-controller-manager up?" : "")));
    }
}
