package dev.stsresize.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.TemplateSize;
import dev.stsresize.plan.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table at a terminal's width: every line fits, and what identifies a row is never cut. */
class TableWidthTest {
    static final Quantity G10 = Quantity.parse("10Gi");
    static final Quantity G20 = Quantity.parse("20Gi");
    static final String STS = "elasticsearch-hot-tier-eu-west-1-primary";
    static final String CLASS = "premium-ssd-zone-redundant-retain-encrypted";

    static Decision longNames() {
        List<ClaimState> claims = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            claims.add(new ClaimState("datadir-" + STS + "-" + i, "datadir", i, G10, G10, "Bound", CLASS, true, G20, i >= 10, true));
        }
        return new Plan("observability-production", STS, Verdict.GROW, List.of(new TemplateSize("datadir", G10, G20)), claims,
                List.of("the StatefulSet is managed by Flux (kustomize.toolkit.fluxcd.io/name=observability): suspend its reconciliation"
                        + " first, it could recreate the old object in the gap"),
                "template \"datadir\" 10Gi -> 20Gi; 12 claims to grow; then orphan-delete and re-apply the StatefulSet");
    }

    static Decision refusal() {
        return new Refusal("observability-production", STS, List.of(new Finding(Reason.NOT_EXPANDABLE, "claim \"datadir-" + STS
                + "-0\" must grow to 20Gi but its StorageClass \"" + CLASS + "\" does not set allowVolumeExpansion: true")),
                List.of(new TemplateSize("datadir", G10, G20)),
                List.of(new ClaimState("datadir-" + STS + "-0", "datadir", 0, G10, G10, "Bound", CLASS, false, G20, false, true)),
                List.of());
    }

    static List<String> lines(String table) {
        return table.replaceAll("\u001b\\[[0-9;]*m", "").lines().toList();
    }

    /** Every line fits but a heading whose namespace/name and verdict alone are wider (they are never cut). */
    static void assertFits(String table, int width) {
        for (String l : lines(table)) {
            if (l.startsWith("observability-production/" + STS + "  REFUSED")) {
                continue;
            }
            assertThat(l.codePointCount(0, l.length())).as("a line of the table at %d columns:\n%s\n---\n%s", width, l, table)
                    .isLessThanOrEqualTo(width);
        }
    }

    @Test
    void at_80_columns_every_line_fits_and_names_keep_their_ordinal_and_classes_their_mark() {
        String table = new TableRenderer(Palette.PLAIN, 80).render(List.of(longNames(), refusal()));
        assertFits(table, 80);
        List<String> lines = lines(table);
        assertThat(lines.get(0)).startsWith("observability-production/" + STS + "  GROW");
        // twelve claims, each still told apart by its ordinal, each with its quantities whole
        for (int i = 0; i < 12; i++) {
            String ordinal = "-" + i + " ";
            assertThat(lines).as("claim %d", i).anySatisfy(l -> assertThat(l).startsWith("  datadi").contains("…")
                    .contains(ordinal).contains("10Gi", "→", "20Gi").contains("✓"));
        }
        assertThat(table).contains("✗", "not-expandable: claim", "allowVolumeExpansion:", "warning: the StatefulSet is managed by Flux");
        // the sentences wrap at words, with a hanging indent; nothing is lost from them
        String joined = String.join(" ", lines).replaceAll(" +", " ");
        assertThat(joined).contains("suspend its reconciliation first, it could recreate the old object in the gap",
                "then orphan-delete and re-apply the StatefulSet");
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("    "));
    }

    @Test
    void at_80_columns_colour_does_not_count_and_is_never_cut() {
        String table = new TableRenderer(Palette.ANSI, 80).render(List.of(longNames(), refusal()));
        assertFits(table, 80);
        assertThat(table).contains("\u001b[31mREFUSED: not-expandable\u001b[0m");
        assertThat(table.replaceAll("\u001b\\[[0-9;]*m", "")).isEqualTo(new TableRenderer(Palette.PLAIN, 80).render(List.of(longNames(), refusal())));
    }

    @Test
    void at_200_columns_the_long_table_is_the_unlimited_one() {
        Decision d = longNames();
        String wide = new TableRenderer(Palette.PLAIN, 200).render(List.of(d));
        assertThat(wide).isEqualTo(new TableRenderer(Palette.PLAIN).render(List.of(d)));
        assertThat(wide).doesNotContain("…").contains("datadir-" + STS + "-11", CLASS + " ✓", "grow, scaled away");
    }

    @Test
    void the_name_and_the_verdict_are_never_cut_even_when_they_alone_are_wider() {
        String table = new TableRenderer(Palette.PLAIN, 40).render(List.of(refusal(), longNames()));
        assertThat(table).contains("observability-production/" + STS + "  REFUSED: not-expandable\n",
                "observability-production/" + STS + "  GROW\n");
    }

    @Test
    void the_explanation_of_a_verdict_is_cut_before_anything_else_of_the_heading() {
        Plan p = new Plan("ns", "db", Verdict.GROW, List.of(), List.of(), List.of(), "d");
        assertThat(new TableRenderer(Palette.PLAIN, 30).render(List.of(p))).startsWith("ns/db  GROW (grow claims, orp…\n");
        assertThat(new TableRenderer(Palette.PLAIN, 80).render(List.of(p))).startsWith("ns/db  GROW (grow claims, orphan-delete, re-apply)\n");
    }

    @Test
    void cuts_and_wraps() {
        assertThat(TableRenderer.middleCut("data-postgres-0", 9)).isEqualTo("data…es-0");
        assertThat(TableRenderer.middleCut("short", 9)).isEqualTo("short");
        assertThat(TableRenderer.endCut("keep (at or above target)", 10)).isEqualTo("keep (at…");
        assertThat(TableRenderer.wrap("one two three four", 10, "  ", "    ")).containsExactly("  one two", "    three", "    four");
        assertThat(TableRenderer.wrap("one two", 0, "  ", "    ")).containsExactly("  one two");
        // a word wider than a line breaks where the line ends
        assertThat(TableRenderer.wrap("uid 0123456789abcdef0123", 12, "  ", "  ")).containsExactly("  uid", "  0123456789", "  abcdef0123");
    }
}
