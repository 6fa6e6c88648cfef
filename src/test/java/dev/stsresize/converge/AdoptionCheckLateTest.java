package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Adoption that does not come: a pod or a claim the StatefulSet controller leaves unadopted past {@link Waiter#SLOW} is
 * named as late, with what to check; each claim of several is judged on its own owner reference and each one
 * left unowned is said.
 */
class AdoptionCheckLateTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final Heard heard = new Heard();
    private final AdoptionCheck check = new AdoptionCheck(cluster, new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, heard,
            new StopRequest()));
    private final Dependents before = new Dependents(Map.of("db-0", "p0", "db-1", "p1"), Map.of("data-db-0", "c0", "data-db-1", "c1"));

    /** The re-applied StatefulSet u2, its generation observed, claims deleted with it. */
    private ObjectNode applied() {
        return cluster.put("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'u2','generation':2},"
                + "'spec':{'replicas':2,'selector':{'matchLabels':{'app':'db'}},'persistentVolumeClaimRetentionPolicy':{'whenDeleted':"
                + "'Delete'}},'status':{'observedGeneration':2,'readyReplicas':2,'currentRevision':'db-rev1','updateRevision':'db-rev1'}}");
    }

    private void pod(String name, String uid, String controller) {
        cluster.put(DependentsTest.pod(name, uid, "db", controller));
    }

    private void claim(String name, String uid, String owner) {
        cluster.put("{'kind':'PersistentVolumeClaim','metadata':{'name':'" + name + "','namespace':'shop','uid':'" + uid + "'"
                + (owner == null ? "" : ",'ownerReferences':[{'uid':'" + owner + "'}]") + "}}");
    }

    private Instant inTwoMinutes() {
        return cluster.time.instant().plus(Duration.ofMinutes(2));
    }

    private java.util.List<String> warnings() {
        return heard.events.stream().filter(ProgressEvent::warning).map(ProgressEvent::message).toList();
    }

    @Test
    void a_pod_left_unadopted_past_SLOW_is_named_as_late_once() {
        ObjectNode sts = applied();
        pod("db-0", "p0", null);
        pod("db-1", "p1", "u2");
        claim("data-db-0", "c0", "u2");
        claim("data-db-1", "c1", "u2");
        AdoptionCheck.Result r = check.verify(sts, before, "db-rev1", inTwoMinutes());
        assertThat(r.adopted()).isFalse();
        assertThat(r.detail()).contains("pod db-0 is not adopted (no controller reference to u2)");
        assertThat(warnings()).singleElement().satisfies(w -> assertThat(w).startsWith("pod db-0 not adopted after 30s: the StatefulSet"
                + " controller of kube-controller-manager"));
    }

    @Test
    void claims_left_unowned_past_SLOW_are_named_as_late_and_each_is_said() {
        ObjectNode sts = applied();
        pod("db-0", "p0", "u2");
        pod("db-1", "p1", "u2");
        claim("data-db-0", "c0", null);
        claim("data-db-1", "c1", null);
        AdoptionCheck.Result r = check.verify(sts, before, "db-rev1", inTwoMinutes());
        assertThat(r.adopted()).isFalse();
        assertThat(r.detail()).contains("claim data-db-0 has no owner reference to u2 yet (whenDeleted: Delete)")
                .contains("claim data-db-1 has no owner reference to u2 yet (whenDeleted: Delete)");
        assertThat(warnings()).singleElement().satisfies(w -> assertThat(w).matches("claim data-db-[01] not owned after 30s.*"));
    }

    @Test
    void an_owned_claim_beside_an_unowned_one_is_not_said() {
        ObjectNode sts = applied();
        pod("db-0", "p0", "u2");
        pod("db-1", "p1", "u2");
        claim("data-db-0", "c0", "u2");
        claim("data-db-1", "c1", null);
        AdoptionCheck.Result r = check.verify(sts, before, "db-rev1", inTwoMinutes());
        assertThat(r.detail()).contains("claim data-db-1 has no owner reference to u2 yet").doesNotContain("claim data-db-0");
    }

    @Test
    void a_statefulset_deleted_while_its_generation_is_awaited_is_gone_again() {
        ObjectNode sts = applied();
        ((ObjectNode) sts.path("status")).put("observedGeneration", 1);
        cluster.remove("StatefulSet", "shop", "db");
        AdoptionCheck.Result r = check.verify(sts, before, "db-rev1", inTwoMinutes());
        assertThat(r.adopted()).isFalse();
        assertThat(r.detail()).isEqualTo("the re-applied StatefulSet shop/db (UID u2) is gone again");
    }

    @Test
    void the_counts_said_are_those_after_the_last_wait() {
        ObjectNode sts = applied();
        cluster.edit("StatefulSet", "shop", "db", x -> ((ObjectNode) x.path("status")).put("readyReplicas", 1));
        pod("db-0", "p0", null);
        pod("db-1", "p1", "u2");
        claim("data-db-0", "c0", "u2");
        claim("data-db-1", "c1", "u2");
        cluster.onWatch("Pod", "shop", "db-0", () -> {
            pod("db-0", "p0", "u2");
            cluster.edit("StatefulSet", "shop", "db", x -> ((ObjectNode) x.path("status")).put("readyReplicas", 2));
        });
        AdoptionCheck.Result r = check.verify(sts, before, "db-rev1", inTwoMinutes());
        assertThat(r.adopted()).as(r.detail()).isTrue();
        assertThat(r.detail()).endsWith("replicas 2, readyReplicas 2, currentRevision db-rev1");
    }
}
