package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.ClusterException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The orphan delete: always with Orphan and the UID decided on, watched to its 404; a StatefulSet
 * re-created by someone else is never touched; one held by a finalizer is named.
 */
class OrphanDeleteTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final Heard heard = new Heard();
    private final List<String> checkpoints = new ArrayList<>();
    private final Waiter waiter = new Waiter(new AwaitObject(cluster, cluster.time), cluster.time, heard, new StopRequest());
    private final Events events = new Events(cluster, cluster.time, "alice", e -> { });
    private final OrphanDelete delete = new OrphanDelete(cluster, waiter, events, heard, checkpoints::add);

    private Instant inAMinute() {
        return cluster.time.instant().plus(Duration.ofMinutes(1));
    }

    private void sts(String uid, String finalizers) {
        cluster.put("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'" + uid + "'"
                + (finalizers == null ? "" : ",'deletionTimestamp':'2026-01-01T00:00:00Z','finalizers':" + finalizers) + "}}");
    }

    private static void onlyOrphanDeletesWithTheUid(MemoryCluster cluster, String uid) {
        assertThat(cluster.deletes()).isNotEmpty().allSatisfy(d -> {
            assertThat(d.method()).isEqualTo("deleteStatefulSetOrphan");
            assertThat(d.detail()).isEqualTo("uid=" + uid + " propagationPolicy=Orphan");
        });
    }

    @Test
    void deleted_with_orphan_and_the_uid_then_watched_until_gone() {
        sts("u1", null);
        OrphanDelete.Result r = delete.run("shop", "db", "u1", inAMinute());
        events.flush(); // as a run does at its end: the Events go off the critical path

        assertThat(r.gone()).isTrue();
        assertThat(r.message()).isEmpty();
        assertThat(r.nothingDeleted()).isFalse();
        onlyOrphanDeletesWithTheUid(cluster, "u1");
        assertThat(cluster.deletes()).hasSize(1).allSatisfy(d -> assertThat(d.dryRun()).isFalse());
        assertThat(checkpoints).containsExactly("orphan-delete statefulset db");
        assertThat(heard.events).extracting(ProgressEvent::message).containsExactly(
                "StatefulSet db (UID u1) deleted with propagationPolicy=Orphan: pods, claims and revisions stay",
                "StatefulSet db is gone (404)");
        assertThat(heard.events.get(0).write()).isEqualTo(new Write.OrphanDelete("shop", "db", "u1"));
        assertThat(heard.events.get(1).step()).isEqualTo(Phase.ORPHAN_DELETE);
        assertThat(cluster.eventsCreated).singleElement().satisfies(e -> {
            assertThat(e.path("reason").asText()).isEqualTo("OrphanDeleted");
            assertThat(e.at("/regarding/uid").asText()).isEqualTo("u1");
        });
    }

    @Test
    void a_statefulset_recreated_since_it_was_read_is_not_deleted_409() {
        sts("someone-elses", null);
        OrphanDelete.Result r = delete.run("shop", "db", "u1", inAMinute());

        assertThat(r.gone()).isFalse();
        assertThat(r.nothingDeleted()).isTrue();
        assertThat(r.message()).startsWith("the orphan delete was refused: Precondition failed").endsWith(". Someone re-created"
                + " StatefulSet shop/db since it was read; nothing was deleted. Run again to decide on what is there now");
        assertThat(cluster.get("StatefulSet", "shop", "db")).isPresent();
        assertThat(checkpoints).isEmpty();
        assertThat(heard.events).isEmpty();
        events.flush();
        assertThat(cluster.eventsCreated).isEmpty();
    }

    @Test
    void any_other_refusal_is_the_callers() {
        sts("u1", null);
        cluster.failNext("deleteStatefulSetOrphan", MemoryCluster.error(403, "Forbidden", "delete statefulsets is forbidden"));
        assertThatThrownBy(() -> delete.run("shop", "db", "u1", inAMinute())).isInstanceOf(ClusterException.class)
                .hasMessage("delete statefulsets is forbidden");
        assertThat(checkpoints).isEmpty();
    }

    @Test
    void already_gone_404_is_not_vouched_for_as_an_orphan_delete() {
        OrphanDelete.Result r = delete.run("shop", "db", "u1", inAMinute());

        assertThat(r.gone()).isTrue();
        assertThat(r.nothingDeleted()).isFalse();
        assertThat(checkpoints).isEmpty();
        events.flush();
        assertThat(cluster.eventsCreated).isEmpty();
        assertThat(heard.events.get(0).warning()).isTrue();
        assertThat(heard.events.get(0).message()).isEqualTo("StatefulSet db (UID u1) was already gone (404) when the orphan delete was"
                + " sent: someone else deleted it, with a propagation this run cannot know; its pods and claims are checked next");
        assertThat(heard.events).noneMatch(p -> p.write() != null);
    }

    @Test
    void a_statefulset_held_by_another_finalizer_is_named_once_as_a_warning_and_in_every_tick() {
        // the other finalizer stands on the StatefulSet before the delete: the delete's answer, the wait's start, carries it
        cluster.put("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'u1',"
                + "'finalizers':['example.com/protect']}}");
        cluster.afterWrite = c -> {
            if (c.method().equals("deleteStatefulSetOrphan")) {
                sts("u1", "['orphan','example.com/protect']");
            }
        };
        OrphanDelete.Result r = delete.run("shop", "db", "u1", inAMinute());

        assertThat(r.gone()).isFalse();
        assertThat(r.nothingDeleted()).isFalse();
        String held = "held by finalizer example.com/protect: that controller must remove it (the garbage collector removes only its own,"
                + " orphan); the run re-applies once the StatefulSet is gone";
        assertThat(r.message()).isEqualTo("StatefulSet shop/db is still terminating and " + held);
        assertThat(heard.events).filteredOn(ProgressEvent::warning).extracting(ProgressEvent::message)
                .containsExactly("StatefulSet db is " + held);
        assertThat(heard.ticks).hasSizeGreaterThan(1).allSatisfy(t -> {
            assertThat(t.what()).isEqualTo("StatefulSet db (UID u1) to be gone (404): " + held);
            assertThat(t.step()).isEqualTo(Phase.ORPHAN_DELETE);
        });
        onlyOrphanDeletesWithTheUid(cluster, "u1");
    }

    @Test
    void a_statefulset_the_garbage_collector_still_holds_says_its_finalizers_and_after_a_while_who_removes_them() {
        sts("u1", null);
        cluster.afterWrite = c -> sts("u1", "['orphan']");
        OrphanDelete.Result r = delete.run("shop", "db", "u1", inAMinute());
        assertThat(r.gone()).isFalse();
        assertThat(r.message()).isEqualTo("StatefulSet shop/db is still terminating (finalizers [\"orphan\"]): the garbage collector has"
                + " not finished orphaning its dependents");
        // kube-controller-manager down: the orphan finalizer stays, and the operator is told who owes it
        String late = "its finalizer orphan is still there after 30s: the garbage collector of kube-controller-manager removes it once"
                + " it has taken the owner references off the pods and revisions, within seconds when it runs; check that"
                + " kube-controller-manager is up (its pod in kube-system on a self-managed control plane, else the provider's"
                + " control-plane status). The pods and claims stay meanwhile";
        assertThat(heard.events).filteredOn(ProgressEvent::warning).extracting(ProgressEvent::message).containsExactly(late);
        assertThat(heard.ticks).anyMatch(t -> t.elapsed().compareTo(Waiter.SLOW) < 0).anyMatch(t -> t.elapsed().compareTo(Waiter.SLOW) >= 0)
                .allSatisfy(t -> assertThat(t.what()).isEqualTo("StatefulSet db (UID u1) to be gone (404)"
                        + (t.elapsed().compareTo(Waiter.SLOW) >= 0 ? ": still held by finalizer orphan after 30s: is"
                                + " kube-controller-manager up?" : "")));
    }

    @Test
    void the_garbage_collectors_hint_is_only_for_its_own_finalizer_on_a_terminating_statefulset() {
        assertThat(LateControllers.garbageCollector(Optional.empty())).isEqualTo(Waiter.Late.NONE);
        assertThat(LateControllers.garbageCollector(Optional.of(MemoryCluster.json("{'metadata':{'finalizers':['orphan']}}"))))
                .as("not terminating").isEqualTo(Waiter.Late.NONE);
        assertThat(LateControllers.garbageCollector(Optional.of(MemoryCluster.json(
                "{'metadata':{'deletionTimestamp':'t','finalizers':['orphan','a.io/x']}}")))).as("another finalizer: heldBy names it")
                .isEqualTo(Waiter.Late.NONE);
        assertThat(LateControllers.garbageCollector(Optional.of(MemoryCluster.json(
                "{'metadata':{'deletionTimestamp':'t','finalizers':[]}}")))).as("nothing of the collector's left").isEqualTo(Waiter.Late.NONE);
        assertThat(LateControllers.garbageCollector(Optional.of(MemoryCluster.json(
                "{'metadata':{'deletionTimestamp':'t','finalizers':['orphan']}}"))).fully()).contains("kube-controller-manager");
    }

    @Test
    void gone_once_the_garbage_collector_is_done() {
        sts("u1", null);
        cluster.afterWrite = c -> sts("u1", "['orphan']");
        cluster.onWatch("StatefulSet", "shop", "db", () -> { }, () -> cluster.remove("StatefulSet", "shop", "db"));
        OrphanDelete.Result r = delete.run("shop", "db", "u1", inAMinute());
        assertThat(r.gone()).isTrue();
    }

    @Test
    void a_statefulset_recreated_right_after_the_delete_is_left_alone() {
        sts("u1", null);
        cluster.afterWrite = c -> sts("u2", null);
        OrphanDelete.Result r = delete.run("shop", "db", "u1", inAMinute());
        assertThat(r.gone()).isFalse();
        assertThat(r.message()).isEqualTo("a StatefulSet shop/db with another UID (u2) appeared right after the delete: a reconciler (Helm,"
                + " Flux, Argo CD, an operator) re-created it; it is left alone");
        onlyOrphanDeletesWithTheUid(cluster, "u1");
        assertThat(cluster.deletes()).hasSize(1);
    }

    @Test
    void held_by_names_only_finalizers_other_than_the_garbage_collectors_on_a_terminating_object() {
        ObjectNode live = MemoryCluster.json("{'metadata':{'finalizers':['a.io/x','b.io/y']}}");
        assertThat(OrphanDelete.heldBy(Optional.of(live))).as("not terminating").isEmpty();
        assertThat(OrphanDelete.heldBy(Optional.empty())).isEmpty();
        ObjectNode terminating = MemoryCluster.json("{'metadata':{'deletionTimestamp':'t','finalizers':['orphan','a.io/x','foregroundDeletion','b.io/y']}}");
        assertThat(OrphanDelete.heldBy(Optional.of(terminating))).isEqualTo("held by finalizers a.io/x, b.io/y: their controllers must"
                + " remove them (the garbage collector removes only its own, orphan); the run re-applies once the StatefulSet is gone");
        ObjectNode gc = MemoryCluster.json("{'metadata':{'deletionTimestamp':'t','finalizers':['orphan','foregroundDeletion']}}");
        assertThat(OrphanDelete.heldBy(Optional.of(gc))).isEmpty();
    }
}
