package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import static org.assertj.core.api.Assertions.assertThat;

import com.googlecode.lanterna.SGR;
import com.googlecode.lanterna.TextColor;
import dev.stsresize.Golden;
import dev.stsresize.converge.Write;
import dev.stsresize.tui.Key.Kind;
import dev.stsresize.tui.terminal.Theme;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every view drawn on lanterna's virtual terminal at 80x24 and 120x40 from the demo's real decisions,
 * compared with golden screens (update with -Dgolden.update=true and review the diff).
 */
class ViewsGoldenTest {
    static final Theme COLOUR = new Theme(true);

    static UiState press(UiState s, Object... keys) {
        for (Object k : keys) {
            if (k instanceof Kind kind) {
                s = Update.apply(s, new UiEvent.Pressed(Key.of(kind))).state();
            } else if (k instanceof UiEvent e) {
                s = Update.apply(s, e).state();
            } else {
                for (char c : k.toString().toCharArray()) {
                    s = Update.apply(s, new UiEvent.Pressed(Key.ch(c))).state();
                }
            }
        }
        return s;
    }

    static UiState select(UiState s, String name) {
        for (int i = 0; i < s.visible().size(); i++) {
            if (s.visible().get(i).name().equals(name)) {
                return s.withCursor(i);
            }
        }
        throw new AssertionError(name);
    }

    /** Each claim to grow of {@code d}, read while its resizer works: a row and the resizer's word under it. */
    static List<ClaimProgress> resizing(dev.stsresize.plan.Decision d) {
        return d.claimsToGrow().stream().map(c -> new ClaimProgress(c.name(), c.target().toString(),
                c.capacity() == null ? "" : c.capacity().toString(), c.target().toString(), List.of("Resizing"), ClaimProgress.State.RESIZING,
                "", "Resizing: External resizer is resizing volume pvc-0123")).toList();
    }

    static UiEvent done(String key, Phase step, String message) {
        return new UiEvent.StepFinished(key, step, true, message);
    }

    static UiEvent said(String key, Phase step, String message, String kubectl) {
        return new UiEvent.StepProgress(key, step, message, kubectl, false);
    }

    /** The screens worth keeping: each view, and the wizard at each gate. */
    static List<Named<UnaryOperator<UiState>>> screens() {
        String pg = "shop/postgres";
        var postgres = DemoDecisions.named("postgres");
        List<Named<UnaryOperator<UiState>>> out = new ArrayList<>();
        out.add(Named.of("list", s -> s));
        out.add(Named.of("list-filtered", s -> press(s, "/", "shop")));
        out.add(Named.of("list-by-verdict", s -> press(s, "s", "j")));
        out.add(Named.of("diff-grow", s -> press(select(s, "postgres"), Kind.ENTER)));
        out.add(Named.of("diff-scaled-away", s -> press(select(s, "elasticsearch"), Kind.ENTER)));
        out.add(Named.of("diff-refused", s -> press(select(s, "mysql"), Kind.ENTER)));
        out.add(Named.of("help", s -> press(s, "?")));
        out.add(Named.of("wizard-grow-gate", s -> press(select(s, "postgres"), "a", said(pg, Phase.CHECK, "3 claims Bound, dry runs accepted", ""),
                done(pg, Phase.CHECK, "checked"))));
        out.add(Named.of("wizard-delete-gate", s -> {
            UiState t = press(select(s, "postgres"), "a", done(pg, Phase.CHECK, "checked"), "y");
            for (var c : postgres.claimsToGrow()) {
                t = press(t, said(pg, Phase.GROW, "patched " + c.name() + " to " + c.target(), Write.ClaimPatch.of("shop", c).command()));
            }
            return press(t, done(pg, Phase.GROW, "3 claims grown"), done(pg, Phase.WAIT, "capacity 20Gi on every claim"), "postg");
        }));
        // issue 38: the copy's name gate states the downtime before the name is typed, as apply --copy's prompt does
        out.add(Named.of("wizard-copy-name-gate", s -> {
            UiState copy = Update.apply(UiState.initial(s.columns(), s.rows()), new UiEvent.DecisionsLoaded(
                    DemoDecisions.copyLoaded(dev.stsresize.plan.CopyOptIn.withDefaults()))).state();
            String web = "files/web";
            return press(copy, "a", done(web, Phase.CHECK, "re-read: 2 claim(s) to copy"), "y",
                    said(web, Phase.RETAIN, "every volume to copy is kept by reclaim policy Retain, its policy before recorded", ""),
                    done(web, Phase.RETAIN, "every volume to copy is kept by reclaim policy Retain"), "we");
        }));
        // issue 40 item 7: the claims that do not fit are counted above and below with the key that shows them
        String minio = "shop/minio";
        out.add(Named.of("wizard-claims-hidden", s -> press(select(s, "minio"), "a", done(minio, Phase.CHECK, "checked"), "y",
                done(minio, Phase.GROW, "4 claims patched"), new UiEvent.ClaimsRead(minio, resizing(DemoDecisions.named("minio"))),
                new UiEvent.WaitTicked(minio, new WaitStatus("the capacity of 4 claims to reach 40Gi", java.time.Duration.ofSeconds(20),
                        java.time.Duration.ofSeconds(280))))));
        out.add(Named.of("wizard-claims-scrolled", s -> press(select(s, "minio"), "a", done(minio, Phase.CHECK, "checked"), "y",
                done(minio, Phase.GROW, "4 claims patched"), new UiEvent.ClaimsRead(minio, resizing(DemoDecisions.named("minio"))),
                new UiEvent.WaitTicked(minio, new WaitStatus("the capacity of 4 claims to reach 40Gi", java.time.Duration.ofSeconds(20),
                        java.time.Duration.ofSeconds(280))), Kind.PAGE_DOWN)));
        out.add(Named.of("wizard-quit-while-absent", s -> press(select(s, "postgres"), "a", done(pg, Phase.CHECK, "checked"), "y",
                done(pg, Phase.GROW, "3 claims grown"), done(pg, Phase.WAIT, "capacity reached"), "postgres", Kind.ENTER,
                done(pg, Phase.ORPHAN_DELETE, "deleted with propagationPolicy=Orphan"), "q")));
        out.add(Named.of("wizard-progress", s -> press(select(s, "postgres"), "a", done(pg, Phase.CHECK, "checked"), "y",
                said(pg, Phase.GROW, "claim data-postgres-0: 10Gi -> 20Gi", Write.ClaimPatch.of("shop", postgres.claimsToGrow().get(0)).command()),
                done(pg, Phase.GROW, "3 claim(s) patched"), new UiEvent.ClaimsRead(pg, List.of(
                        claim("data-postgres-0", "20Gi", ClaimProgress.State.GROWN, List.of()),
                        claim("data-postgres-1", "10Gi", ClaimProgress.State.RESIZING, List.of("Resizing")),
                        claim("data-postgres-2", "10Gi", ClaimProgress.State.RESIZING, List.of("Resizing")))))));
        out.add(Named.of("wizard-summary", s -> press(select(s, "postgres"), "a", done(pg, Phase.CHECK, "checked"), "y",
                done(pg, Phase.GROW, "grown"), done(pg, Phase.WAIT, "capacity reached"), "postgres", Kind.ENTER,
                done(pg, Phase.ORPHAN_DELETE, "gone"), done(pg, Phase.REAPPLY, "re-applied"),
                new UiEvent.Summarized(pg, summary(true, false)), done(pg, Phase.VERIFY, "verified"))));
        out.add(Named.of("wizard-summary-restart-offer", s -> press(select(s, "postgres"), "a", done(pg, Phase.CHECK, "checked"), "y",
                done(pg, Phase.GROW, "grown"), done(pg, Phase.WAIT, "capacity reached"), "postgres", Kind.ENTER,
                done(pg, Phase.ORPHAN_DELETE, "gone"), done(pg, Phase.REAPPLY, "re-applied"),
                new UiEvent.Summarized(pg, summary(true, true)), done(pg, Phase.VERIFY, "verified"))));
        out.add(Named.of("wizard-not-verified", s -> press(select(s, "postgres"), "a", done(pg, Phase.CHECK, "checked"), "y",
                done(pg, Phase.GROW, "grown"), done(pg, Phase.WAIT, "capacity reached"), "postgres", Kind.ENTER,
                done(pg, Phase.ORPHAN_DELETE, "gone"), done(pg, Phase.REAPPLY, "re-applied"),
                new UiEvent.Summarized(pg, summary(false, false)),
                new UiEvent.StepFinished(pg, Phase.VERIFY, false, "pod postgres-1 is not owned by 7ac0fd4d-4923-4fa1-afd1-265324a8175e"))));
        out.add(Named.of("resume-dialog", s -> {
            Loaded l = s.loaded();
            InterruptedRun run = new InterruptedRun("shop", "postgres", "deleting", "bob@desk 7", "2026-12-03T10:00:00.000000Z", true);
            return Update.apply(UiState.initial(s.columns(), s.rows()), new UiEvent.DecisionsLoaded(new Loaded(l.decisions(), l.uids(),
                    l.context(), l.cluster(), l.scope(), l.manifest(), java.util.Map.of(), List.of(run), l.fieldManagers()))).state();
        }));
        out.add(Named.of("diff-conditions", s -> {
            Loaded l = s.loaded();
            UiState t = Update.apply(UiState.initial(s.columns(), s.rows()), new UiEvent.DecisionsLoaded(new Loaded(l.decisions(), l.uids(),
                    l.context(), l.cluster(), l.scope(), l.manifest(), java.util.Map.of("analytics/data-clickhouse-0",
                            List.of("FileSystemResizePending"), "analytics/data-clickhouse-1", List.of("Resizing")), List.of(), l.fieldManagers()))).state();
            return press(select(t, "clickhouse"), Kind.ENTER);
        }));
        // issue 15: usage in the list, the diff and its own view; the manifest edited from the list
        out.add(Named.of("list-usage", s -> filling(s)));
        out.add(Named.of("diff-usage", s -> press(select(filling(s), "ledger"), Kind.ENTER)));
        out.add(Named.of("usage-view", s -> press(filling(s), "u")));
        out.add(Named.of("list-marked", s -> press(select(filling(s), "ledger"), " ", Kind.UP, Kind.UP, " ")));
        out.add(Named.of("edit-form", s -> press(select(filling(s), "ledger"), "e")));
        out.add(Named.of("edit-diff", s -> press(select(filling(s), "ledger"), "e", Kind.ENTER, new UiEvent.EditPrepared(List.of(
                new SizeEdit.FileChange(EditFlowTest.FILE, "", "", String.join("\n", "--- " + EditFlowTest.FILE, "+++ " + EditFlowTest.FILE,
                        "@@ -321,4 +321,4 @@", "       - ReadWriteOnce", "       resources:", "         requests:",
                        "-          storage: 10Gi", "+          storage: 14Gi", "")))))));
        return out;
    }

    /** The demo, each StatefulSet declared in demo/manifest.yaml, after a usage read (payments/ledger 92 % and filling). */
    static UiState filling(UiState s) {
        UiState loaded = Update.apply(UiState.initial(s.columns(), s.rows()),
                new UiEvent.DecisionsLoaded(EditFlowTest.declaredIn(EditFlowTest.FILE))).state();
        return press(loaded, UsageFlowTest.read());
    }

    static ClaimProgress claim(String name, String capacity, ClaimProgress.State state, List<String> conditions) {
        return new ClaimProgress(name, "20Gi", capacity, "20Gi", conditions, state, "");
    }

    /** A summary as ClusterSteps builds it after the demo's postgres converged (UIDs as the simulator makes them). */
    static Summary summary(boolean converged, boolean fileSystemWaits) {
        String oldUid = "77c9c2f7-0cea-330f-afe3-b8c357b2a7da";
        String newUid = "7ac0fd4d-4923-4fa1-afd1-265324a8175e";
        List<Summary.PodCheck> pods = List.of(
                new Summary.PodCheck("postgres-0", "9dcfa5d5-1111-4e2f-9a11-000000000000", "9dcfa5d5-1111-4e2f-9a11-000000000000", newUid, false),
                new Summary.PodCheck("postgres-1", "15a09686-2222-4e2f-9a11-000000000000", "15a09686-2222-4e2f-9a11-000000000000",
                        converged ? newUid : "", false),
                new Summary.PodCheck("postgres-2", "3afc6a0b-3333-4e2f-9a11-000000000000", "3afc6a0b-3333-4e2f-9a11-000000000000", newUid, false));
        List<Summary.ClaimCheck> claims = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            boolean waits = fileSystemWaits && i == 0;
            claims.add(new Summary.ClaimCheck("data-postgres-" + i, "10Gi", "20Gi", waits ? "10Gi" : "20Gi", !waits, waits, waits ? "postgres-0" : ""));
        }
        return new Summary(converged ? "converged" : "failed", converged, converged ? "" : "not-verified",
                converged ? "adopted by UID " + newUid : "adoption NOT verified for StatefulSet shop/postgres (UID " + newUid
                        + "): pod postgres-1 is not adopted (no controller reference to " + newUid + ")",
                oldUid, newUid, pods, claims, List.of());
    }

    static Stream<Arguments> screensAndSizes() {
        List<Arguments> out = new ArrayList<>();
        for (int[] size : new int[][] {{70, 22}, {80, 24}, {120, 40}}) {
            for (Named<UnaryOperator<UiState>> s : screens()) {
                if (size[0] == 70 && !s.getName().startsWith("wizard-") && !s.getName().equals("list")) {
                    continue; // the smallest size the wizard is drawn for: its screens, and the list it comes from
                }
                out.add(Arguments.of(Named.of(s.getName() + " " + size[0] + "x" + size[1], s.getPayload()), size[0], size[1],
                        s.getName()));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("screensAndSizes")
    void matchesItsGoldenScreen(UnaryOperator<UiState> to, int columns, int rows, String name) {
        UiState state = to.apply(DemoDecisions.state(columns, rows));
        String text = VirtualScreen.draw(state, COLOUR, Glyphs.UNICODE).text();
        Golden.assertMatches("tui/" + name + "-" + columns + "x" + rows + ".txt", text);
    }

    @Test
    void asciiFallbackDrawsTheSameScreenWithoutAnyNonAsciiCharacter() {
        UiState diff = press(select(DemoDecisions.state(80, 24), "postgres"), Kind.ENTER);
        String text = VirtualScreen.draw(diff, COLOUR, Glyphs.ASCII).text();
        assertThat(text.chars()).as("every character is ASCII").allMatch(c -> c < 128);
        assertThat(text).contains("+- diff shop/postgres").contains("10Gi -> 20Gi").contains("allowVolumeExpansion + true");
        Golden.assertMatches("tui/diff-grow-ascii-80x24.txt", text);
        String list = VirtualScreen.draw(DemoDecisions.state(80, 24), COLOUR, Glyphs.ASCII).text();
        assertThat(list.chars()).allMatch(c -> c < 128);
        Golden.assertMatches("tui/list-ascii-80x24.txt", list);
    }

    @Test
    void noColorDropsTheColoursButKeepsTheTextAndTheSelection() {
        UiState list = DemoDecisions.state(80, 24);
        VirtualScreen plain = VirtualScreen.draw(list, new Theme(false), Glyphs.UNICODE);
        VirtualScreen coloured = VirtualScreen.draw(list, COLOUR, Glyphs.UNICODE);
        assertThat(plain.colours()).containsOnly(TextColor.ANSI.DEFAULT);
        assertThat(coloured.colours()).contains(TextColor.ANSI.GREEN, TextColor.ANSI.RED);
        assertThat(plain.text()).isEqualTo(coloured.text());
        int selectedRow = plain.rowOf(list.selected().namespace() + "/" + list.selected().name());
        assertThat(plain.at(2, selectedRow).getModifiers()).as("the selection is reverse video, not a colour").contains(SGR.REVERSE);
    }

    @Test
    void noColorIsReadFromTheEnvironmentAsNoColorOrgSays() {
        assertThat(Theme.forEnvironment(java.util.Map.of("NO_COLOR", "1")).colour()).isFalse();
        assertThat(Theme.forEnvironment(java.util.Map.of("NO_COLOR", "")).colour()).as("empty means unset").isTrue();
        assertThat(Theme.forEnvironment(java.util.Map.of()).colour()).isTrue();
    }

    @Test
    void theLocaleDecidesBetweenUtf8AndAscii() {
        assertThat(Glyphs.forLocale(java.util.Map.of("LANG", "en_US.UTF-8"))).isEqualTo(Glyphs.UNICODE);
        assertThat(Glyphs.forLocale(java.util.Map.of("LANG", "C.utf8"))).isEqualTo(Glyphs.UNICODE);
        assertThat(Glyphs.forLocale(java.util.Map.of("LANG", "C"))).isEqualTo(Glyphs.ASCII);
        assertThat(Glyphs.forLocale(java.util.Map.of())).as("POSIX locale").isEqualTo(Glyphs.ASCII);
        assertThat(Glyphs.forLocale(java.util.Map.of("LC_ALL", "C", "LANG", "en_US.UTF-8"))).as("LC_ALL wins").isEqualTo(Glyphs.ASCII);
        assertThat(Glyphs.forLocale(java.util.Map.of("LC_CTYPE", "de_DE.UTF-8", "LANG", "C"))).as("LC_CTYPE before LANG").isEqualTo(Glyphs.UNICODE);
    }

    @Test
    void aTerminalTooSmallSaysSoInsteadOfDrawingGarbage() {
        String text = VirtualScreen.draw(DemoDecisions.state(30, 8), COLOUR, Glyphs.UNICODE).text();
        assertThat(text).contains("30x8").contains("40x10");
    }

    @Test
    void aWideTerminalShowsWholeCellsThatANarrowOneTruncates() {
        UiState wide = DemoDecisions.state(120, 40);
        String text = VirtualScreen.draw(wide, COLOUR, Glyphs.UNICODE).text();
        for (var d : wide.visible()) {
            assertThat(text).contains(Texts.verdict(d)).contains(Texts.templates(d, Glyphs.UNICODE));
        }
        String narrow = VirtualScreen.draw(DemoDecisions.state(80, 24), COLOUR, Glyphs.UNICODE).text();
        for (String line : narrow.split("\n")) {
            assertThat(line.codePointCount(0, line.length())).isLessThanOrEqualTo(80);
        }
        for (var d : wide.visible()) {
            assertThat(narrow).as("the verdict is never cut at 80 columns").contains(Texts.verdict(d));
        }
    }
}
