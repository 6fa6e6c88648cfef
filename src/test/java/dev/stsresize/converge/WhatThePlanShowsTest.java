package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.plan.Decision;
import dev.stsresize.render.Palette;
import dev.stsresize.render.PlanDocument;
import dev.stsresize.render.TableRenderer;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.tui.DiffLines;
import dev.stsresize.tui.Glyphs;
import dev.stsresize.tui.Styled;
import dev.stsresize.tui.Texts;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the table, the JSON, the UI's list and diff and the "writes to come" say: only what is known, and what is sent. */
class WhatThePlanShowsTest {
    @TempDir Path home;

    /** A Role with every verb the run needs in shop, and none on the cluster-scoped StorageClasses (a 403). */
    static void shopRoleWithoutStorageClasses(Harness h) {
        ServiceAccountRole.signIn(h, "shop", ServiceAccountRole.STATEFULSETS, ServiceAccountRole.CLAIMS, ServiceAccountRole.PODS,
                ServiceAccountRole.REVISIONS, ServiceAccountRole.EVENTS, ServiceAccountRole.LEASES);
    }

    @Test
    void with_storageclasses_forbidden_a_class_shows_as_unknown_never_as_allowed() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            shopRoleWithoutStorageClasses(h);
            Assessment a = new Assessor(h.cluster("sim-shop-stsresize"), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.PLAN, false, Optional.empty());
            assertThat(a.notes()).anySatisfy(n -> assertThat(n).contains("StorageClasses cannot be listed"));
            Decision d = a.items().get(0).decision();
            assertThat(d.verdict().hasWork()).as("the claims' dry runs decide, as before").isTrue();

            String table = new TableRenderer(Palette.PLAIN).render(List.of(d));
            assertThat(table).as(table).contains(" ?  ").doesNotContain("✓");
            JsonNode claims = PlanDocument.of(List.of(d)).at("/items/0/claims");
            assertThat(claims).isNotEmpty().allSatisfy(c -> assertThat(c.path("expandable").isNull()).as(c.toString()).isTrue());
            assertThat(Texts.classes(d, Glyphs.UNICODE)).endsWith(" ?").doesNotContain("✓");
            String diff = DiffLines.of(d, "uid", "kubectl", Glyphs.UNICODE, 200).stream().map(Styled.Line::text)
                    .collect(Collectors.joining("\n"));
            assertThat(diff).contains("allowVolumeExpansion ? unknown").doesNotContain("✓ true");
        }
    }

    /** The same StatefulSet with the classes readable: ✓, so the test above can fail. */
    @Test
    void with_storageclasses_readable_the_class_shows_as_allowed() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.PLAN, false, Optional.empty());
            Decision d = a.items().get(0).decision();
            assertThat(new TableRenderer(Palette.PLAIN).render(List.of(d))).contains("✓");
            assertThat(PlanDocument.of(List.of(d)).at("/items/0/claims/0/expandable").asBoolean()).isTrue();
        }
    }

    /**
     * The diff's re-apply is the command that sends what the run sends: ONE object, server-side,
     * forcing conflicts, under the field manager the run uses; the PATCH on the wire says the same.
     */
    @Test
    void the_writes_to_come_show_the_reapply_exactly_as_the_run_sends_it() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = Commands.manifest(home, List.of(Demo.declared("postgres")));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "--timeout", "60s");
            RecordedRequest applied = h.sim.requests().stream()
                    .filter(q -> q.method().equals("PATCH") && "statefulsets".equals(q.resource()) && !q.dryRun()).findFirst().orElseThrow();
            String manager = applied.param("fieldManager");
            assertThat(applied.param("force")).isEqualTo("true");
            assertThat(applied.contentType()).startsWith("application/apply-patch+yaml");
            assertThat(r.out()).as(r.describe())
                    .contains("kubectl apply --server-side --force-conflicts --field-manager=" + manager + " -f statefulset.json")
                    .contains("statefulset.json: StatefulSet shop/postgres as declared")
                    .doesNotContain("-f MANIFEST").doesNotContain("-f " + manifest);
            RecordedRequest grown = h.sim.requests().stream()
                    .filter(q -> q.method().equals("PATCH") && "persistentvolumeclaims".equals(q.resource()) && !q.dryRun()).findFirst().orElseThrow();
            assertThat(r.out()).contains("--field-manager=" + grown.param("fieldManager") + " -p");
        }
    }
}
