package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import dev.stsresize.render.Palette;
import dev.stsresize.render.PlanDocument;
import dev.stsresize.render.TableRenderer;
import dev.stsresize.sim.http.RecordedRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A claim whose request reached the target while its volume did not is not grown (the real node's D11, D4): after an
 * apply whose resize failed, the same apply again is blocked ({@code resize-failed}, naming revert) and writes nothing,
 * rather than take the claims as "at or above the target", re-create the StatefulSet with the target's template and
 * say {@code converged} (red when the request alone counts as grown); and a claim whose resize is merely under way is waited for before any re-create.
 */
class ResizeFailedIsNotGrownTest {
    @TempDir Path home;

    private static Assessment assess(Harness h, Assessor.Depth depth) {
        return new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false, depth, false, Optional.empty());
    }

    /** The writes (not dry runs, not reads) sent from {@code from} on. */
    private static List<RecordedRequest> writesFrom(Harness h, int from) {
        List<RecordedRequest> log = h.sim.requests();
        return log.subList(from, log.size()).stream().filter(q -> !q.method().equals("GET") && !q.dryRun()).toList();
    }

    @Test
    void apply_again_after_a_failed_resize_is_blocked_naming_revert_and_writes_nothing() {
        try (Harness h = Harness.start(home, WaitsThatSpeakTest.withResizer("failing"))) {
            StatefulSetResult first = WaitsThatSpeakTest.converge(h, WaitsThatSpeakTest.converger(h, new Heard()), Demo.declared("postgres"),
                    Harness.options());
            assertThat(first.reason()).as(first.detail()).isEqualTo("resize-failed");
            String uid = Harness.uid(h.sts("shop", "postgres"));

            int mark = h.sim.requests().size();
            Assessment again = assess(h, Assessor.Depth.APPLY);
            Decision d = again.items().get(0).decision();
            assertThat(d.verdict()).as(d.detail()).isEqualTo(Verdict.BLOCKED);
            assertThat(((Refusal) d).reason()).isEqualTo(Reason.RESIZE_FAILED);
            assertThat(d.detail()).contains("their resize failed", "VolumeResizeFailed", "kubectl stsresize revert shop/postgres")
                    .doesNotContain("at or above the target");
            assertThat(d.claims()).as("every raised claim is marked failed, none is kept as at the target")
                    .allMatch(ClaimState::resizeFailed);
            String table = new TableRenderer(Palette.PLAIN).render(List.of(d));
            assertThat(table).contains("BLOCKED: resize-failed", "resize failed").doesNotContain("keep (at or above target)");
            assertThat(PlanDocument.of(List.of(d)).toString()).contains("\"action\":\"resize-failed\"");

            StatefulSetResult r = WaitsThatSpeakTest.converger(h, new Heard()).converge(again.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(r.detail()).isNotEqualTo(Outcome.CONVERGED);
            assertThat(r.reason()).isEqualTo("resize-failed");
            assertThat(writesFrom(h, mark)).as("nothing written: no orphan delete, no re-apply over volumes that did not grow").isEmpty();
            assertThat(Harness.uid(h.sts("shop", "postgres"))).isEqualTo(uid);
            assertThat(h.sts("shop", "postgres").at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText())
                    .as("the template still declares the size the volumes have").isEqualTo("10Gi");
        }
    }

    /**
     * The real node's D1 and D2: apply's failure paragraph once (stderr's outcome line says only the word), and its claims
     * said to have failed, not "has not grown yet … the volume's resizer has not finished … (no resizer in the cluster".
     */
    @Test
    void a_failed_apply_says_its_paragraph_once_and_its_claims_failed_not_unfinished() {
        try (Harness h = Harness.start(home, WaitsThatSpeakTest.withResizer("failing"))) {
            Commands.Run r = Commands.run(h, "apply", "-f", NamespaceAdminTest.manifest(home).toString(), "--yes", "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            String all = r.out() + r.err();
            assertThat(all.split("Nothing was deleted", -1)).as(r.describe()).hasSize(2);
            assertThat(r.err()).as(r.describe()).contains("WARNING [record] shop/postgres: failed (the result says why)");
            assertThat(r.out()).as(r.describe()).contains("shop/postgres: failed (resize-failed)", "kubectl stsresize revert shop/postgres",
                    "warning: claims data-postgres-0 (10Gi of 20Gi), data-postgres-1 (10Gi of 20Gi), data-postgres-2 (10Gi of 20Gi)"
                            + " did not grow: their resize failed")
                    .doesNotContain("has not grown yet", "has not finished", "no resizer in the cluster");
        }
    }

    @Test
    void the_plan_depth_says_the_same_as_apply() {
        try (Harness h = Harness.start(home, WaitsThatSpeakTest.withResizer("failing"))) {
            WaitsThatSpeakTest.converge(h, WaitsThatSpeakTest.converger(h, new Heard()), Demo.declared("postgres"), Harness.options());
            Decision d = assess(h, Assessor.Depth.PLAN).items().get(0).decision();
            assertThat(d.verdict()).as(d.detail()).isEqualTo(Verdict.BLOCKED);
            assertThat(((Refusal) d).reason()).isEqualTo(Reason.RESIZE_FAILED);
        }
    }

    @Test
    void a_claim_still_resizing_is_waited_for_before_the_statefulset_is_re_created() {
        try (Harness h = Harness.start(home, WaitsThatSpeakTest.withResizer("none"))) {
            ConvergeOptions shortWait = Harness.options().withTimeout(Duration.ofSeconds(2));
            StatefulSetResult first = WaitsThatSpeakTest.converge(h, WaitsThatSpeakTest.converger(h, new Heard()), Demo.declared("postgres"),
                    shortWait);
            assertThat(first.outcome()).as(first.detail()).isNotEqualTo(Outcome.CONVERGED);
            ObjectNode raised = h.claim("shop", "data-postgres-0");
            assertThat(raised.at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            assertThat(raised.at("/status/capacity/storage").asText()).isEqualTo("10Gi");
            String uid = Harness.uid(h.sts("shop", "postgres"));

            Assessment again = assess(h, Assessor.Depth.APPLY);
            Decision d = again.items().get(0).decision();
            assertThat(d.verdict()).as("nothing says it failed: a resize under way").isEqualTo(Verdict.GROW);
            assertThat(d.claimsToAwait()).hasSize(3);
            assertThat(d.detail()).contains("3 claims already requesting the target with their volumes still below it, waited for")
                    .doesNotContain("at or above the target");
            StatefulSetResult r = WaitsThatSpeakTest.converger(h, new Heard()).converge(again.items().get(0), shortWait, true);
            assertThat(r.outcome()).as(r.detail()).isNotEqualTo(Outcome.CONVERGED);
            assertThat(h.sim.requests()).as("no orphan delete while the volumes are below the declared size")
                    .noneMatch(q -> q.method().equals("DELETE") && "statefulsets".equals(q.resource()) && !q.dryRun());
            assertThat(Harness.uid(h.sts("shop", "postgres"))).isEqualTo(uid);
        }
    }
}
