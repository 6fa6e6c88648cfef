package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where RBAC forbids Leases, resume (and apply's finishing of a run left behind) works from the local journal alone. */
class ResumeWithoutLeasesTest {
    @TempDir Path home;

    /** A run of the ServiceAccount, journal only, stopped right after its orphan delete: the StatefulSet is absent. */
    static void crashAfterTheOrphanDelete(Harness h) {
        var cluster = h.cluster(ServiceAccountRole.signIn(h, "shop", ServiceAccountRole.WITHOUT_LEASES));
        Assessment a = new Assessor(cluster, Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                Assessor.Depth.APPLY, false, Optional.empty());
        assertThat(a.namespacesWithoutLeases()).containsExactly("shop");
        Checkpoint crash = w -> {
            if (w.startsWith("orphan-delete")) {
                throw new CrashResumeTest.Crash(w);
            }
        };
        // the journal names the server as the ServiceAccount's context does
        Converger first = new Converger(cluster, java.time.Clock.systemUTC(), h.journal, "sa@ci 1", h.sim.url(),
                GateAnswers.YES, h.events::add, crash);
        assertThatThrownBy(() -> first.converge(a.items().get(0), Harness.options(), false)).isInstanceOf(CrashResumeTest.Crash.class);
        Harness.await("the StatefulSet gone after the orphan delete", () -> h.sts("shop", "postgres") == null);
        assertThat(h.journal.all()).extracting(Record::name).containsExactly("postgres");
    }

    static void assertFinished(Harness h, Commands.Run r) {
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.err()).as(r.describe()).contains("warning: Leases or Secrets are forbidden in namespace shop", "local journal");
        ObjectNode sts = h.sts("shop", "postgres");
        assertThat(sts).as(r.describe()).isNotNull();
        assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
        assertThat(h.journal.all()).as("journal after the finish").isEmpty();
        assertThat(h.writes()).noneMatch(w -> "leases".equals(w.resource()));
        assertThat(h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres")).isNull();
    }

    @Test
    void resume_finishes_from_the_local_journal_with_a_warning() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            crashAfterTheOrphanDelete(h);
            Commands.Run r = Commands.run(h, "resume", "--yes", "--context", "sim-shop-stsresize", "--timeout", "60s");
            assertFinished(h, r);
            assertThat(r.out()).as(r.describe()).contains("shop/postgres: converged");
        }
    }

    @Test
    void a_named_resume_and_a_re_run_of_apply_do_too() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            crashAfterTheOrphanDelete(h);
            Commands.Run r = Commands.run(h, "resume", "shop/postgres", "--yes", "--context", "sim-shop-stsresize", "--timeout", "60s");
            assertFinished(h, r);
        }
        try (Harness h = Harness.start(home.resolve("again"), Demo.cluster())) {
            crashAfterTheOrphanDelete(h);
            Path manifest = Commands.manifest(home, List.of(Demo.declared("postgres")));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "--context", "sim-shop-stsresize",
                    "--timeout", "60s");
            assertFinished(h, r);
        }
    }
}
