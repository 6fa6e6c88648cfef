package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import static dev.stsresize.tui.ViewsGoldenTest.COLOUR;
import static dev.stsresize.tui.ViewsGoldenTest.done;
import static dev.stsresize.tui.ViewsGoldenTest.press;
import static dev.stsresize.tui.ViewsGoldenTest.said;
import static dev.stsresize.tui.ViewsGoldenTest.select;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stsresize.converge.Write;
import dev.stsresize.plan.Decision;
import dev.stsresize.tui.Key.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every screen at every size from 60x20 to 250x70, drawn by the real frame on lanterna's virtual
 * terminal: the header, the box whole (nothing drawn over its border), the list's column header and
 * every row's full name, a footer of whole key hints; and every kubectl command on the screen, copied
 * off it row by row, read by the shell as the very command (never cut inside a word).
 */
class TerminalSizesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int[][] SIZES = {{60, 20}, {70, 22}, {72, 22}, {80, 24}, {100, 30}, {120, 40}, {160, 50}, {250, 70}};

    static Stream<Arguments> screensAndSizes() {
        List<Arguments> out = new ArrayList<>();
        for (int[] size : SIZES) {
            for (Named<UnaryOperator<UiState>> s : ViewsGoldenTest.screens()) {
                out.add(Arguments.of(Named.of(s.getName() + " " + size[0] + "x" + size[1], s.getPayload()), size[0], size[1]));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("screensAndSizes")
    void theHeaderTheBoxAndAFooterOfWholeHintsAreDrawn(UnaryOperator<UiState> to, int columns, int rows) {
        UiState state = to.apply(DemoDecisions.state(columns, rows));
        String[] screen = VirtualScreen.draw(state, COLOUR, Glyphs.UNICODE).text().split("\n", -1);
        assertThat(screen[0]).as("the header").startsWith(" stsresize │ context: ");
        assertThat(screen[1]).as("the header's counts").contains("StatefulSet");
        int top = Layout.BODY_TOP - 1;
        int bottom = top + Layout.bodyRows(rows) + 1;
        if (state.dialog() == null) { // a dialog sits over the box
            assertThat(screen[top]).startsWith("┌").endsWith("┐");
            assertThat(screen[bottom]).startsWith("└").endsWith("┘");
            for (int r = top + 1; r < bottom; r++) {
                assertThat(screen[r]).as("row %d inside the box, nothing over its border:\n%s", r, String.join("\n", screen))
                        .startsWith("│").hasSize(columns).endsWith("│");
            }
        }
        String footer = screen[rows - 1].strip();
        List<String> hints = Arrays.asList(KeyHints.of(state).split(" {2}"));
        assertThat(footer).as("the footer at %dx%d is whole hints from the first", columns, rows)
                .isIn(prefixes(hints));
        if (state.view() == View.LIST && !state.filtering() && state.dialog() == null) {
            assertThat(footer).contains("<?> help", "<q> quit");
        }
    }

    @ParameterizedTest(name = "{0}x{1}")
    @MethodSource("sizes")
    void theListShowsItsColumnHeaderAndEveryRowsWholeName(int columns, int rows) {
        for (UiState state : List.of(DemoDecisions.state(columns, rows), ViewsGoldenTest.filling(DemoDecisions.state(columns, rows)))) {
            String[] screen = VirtualScreen.draw(state, COLOUR, Glyphs.UNICODE).text().split("\n", -1);
            assertThat(screen[Layout.BODY_TOP]).as("the list's column header").contains("NAMESPACE/NAME", "VERDICT");
            for (int i = 0; i < state.visible().size() && i < Layout.listRows(rows); i++) {
                String key = Loaded.key(state.visible().get(i));
                assertThat(screen[Layout.BODY_TOP + 1 + i]).as("row %d at %dx%d", i, columns, rows).startsWith("│ " + key + " ");
            }
        }
    }

    static Stream<Arguments> sizes() {
        return Arrays.stream(SIZES).map(s -> Arguments.of(s[0], s[1]));
    }

    @Test
    void aFlashTooLongForTheRowEndsAtAWord() {
        UiState state = DemoDecisions.state(60, 20).withFlash(Flash.warn("not resumed: kubectl stsresize resume shop/postgres finishes it"));
        String[] screen = VirtualScreen.draw(state, COLOUR, Glyphs.UNICODE).text().split("\n", -1);
        assertThat(screen[18].strip()).isEqualTo("not resumed: kubectl stsresize resume shop/postgres …");
    }

    /** The diff's writes to come at every width: each command and the DeleteOptions, as the shell and a JSON parser read them. */
    @ParameterizedTest(name = "{0}x{1}")
    @MethodSource("sizes")
    void theDiffsCommandsAreCopiedWhole(int columns, int rows) throws Exception {
        Loaded loaded = DemoDecisions.loaded();
        for (String name : List.of("postgres", "clickhouse", "elasticsearch", "minio")) {
            Decision d = DemoDecisions.named(name);
            List<String> lines = DiffLines.of(d, loaded, Glyphs.UNICODE, Layout.bodyWidth(columns)).stream().map(Styled.Line::text).toList();
            for (String line : lines) {
                assertThat(line.codePointCount(0, line.length())).as("fits the body: " + line).isLessThanOrEqualTo(Layout.bodyWidth(columns));
            }
            List<List<String>> commands = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("kubectl ")) {
                    commands.add(Shell.words(copied(lines.subList(i, lines.size()), "kubectl ")));
                }
            }
            for (Write w : Write.planned(d, loaded.uid(d), loaded.fieldManager(d))) {
                assertThat(commands).as("the commands copied at %d columns", columns).contains(Shell.words(w.command()));
                if (w instanceof Write.OrphanDelete del) {
                    String json = jsonFrom(lines, "{\"kind\":\"DeleteOptions\"");
                    assertThat(JSON.readTree(json)).as(json).isEqualTo(JSON.readTree(del.options()));
                    assertThat(lines).as("the UID on one row").anyMatch(l -> l.contains(loaded.uid(d)));
                }
            }
        }
    }

    /** The wizard's gates and its log: the orphan delete's standalone command, pasted, is the command; its UID never cut. */
    @ParameterizedTest(name = "{0}x{1}")
    @MethodSource("sizes")
    void theWizardsCommandsAreCopiedWhole(int columns, int rows) {
        String pg = "shop/postgres";
        Decision postgres = DemoDecisions.named("postgres");
        String uid = DemoDecisions.loaded().uid(postgres);
        Write.OrphanDelete delete = new Write.OrphanDelete("shop", "postgres", uid);
        UiState gate = press(select(DemoDecisions.state(columns, rows), "postgres"), "a", done(pg, Phase.CHECK, "checked"), "y",
                done(pg, Phase.GROW, "grown"), done(pg, Phase.WAIT, "capacity reached"));
        List<String> atGate = bodyText(gate, columns);
        assertThat(Shell.words(copied(atGate, "kubectl delete --raw"))).isEqualTo(Shell.words(delete.command()));
        UiState deleted = press(gate, "postgres", Kind.ENTER, said(pg, Phase.ORPHAN_DELETE, "deleted with propagationPolicy=Orphan",
                delete.kubectl()));
        List<String> log = bodyText(deleted, columns);
        if (log.stream().anyMatch(l -> l.contains("$ echo"))) { // the newest log entries that fit whole
            assertThat(Shell.words(copied(log, "echo "))).as(String.join("\n", log)).isEqualTo(Shell.words(delete.kubectl()));
            assertThat(log).as("the UID on one row").anyMatch(l -> l.contains(uid));
        } else {
            assertThat(rows).as("only a short terminal leaves the entry out").isLessThan(24);
        }
    }

    /** The header at every size the wizard is drawn at: the server's host and port whole; the context and scope shortened first. */
    @ParameterizedTest(name = "{0}x{1}")
    @MethodSource("sizes")
    void theHeaderKeepsTheServersHostAndPort(int columns, int rows) {
        Loaded demo = DemoDecisions.loaded();
        Loaded live = new Loaded(demo.decisions(), demo.uids(), "arn:aws:eks:eu-west-1:123456789012:cluster/payments-production",
                "https://10.240.17.201:6443", "all namespaces", "/home/alice/deploy/payments/overlays/production/statefulsets.yaml",
                Map.of(), List.of(), demo.fieldManagers());
        UiState state = Update.apply(UiState.initial(columns, rows), new UiEvent.DecisionsLoaded(live)).state();
        String[] screen = VirtualScreen.draw(state, COLOUR, Glyphs.UNICODE).text().split("\n", -1);
        if (columns >= 70) {
            assertThat(screen[0]).as("the header at %dx%d", columns, rows).contains("10.240.17.201:6443");
            if (columns >= 100) { // beside the counts: below that there is no room for a path at all
                assertThat(screen[1]).as("the manifest keeps its file's name").contains("statefulsets.yaml");
            }
        }
    }

    /** The wizard's claim table at every size: each claim's row, or a line that says how many are not shown. */
    @ParameterizedTest(name = "{0}x{1}")
    @MethodSource("sizes")
    void everyClaimOfTheWizardIsShownOrCounted(int columns, int rows) {
        String key = "shop/minio";
        Decision minio = DemoDecisions.named("minio");
        List<ClaimProgress> claims = minio.claimsToGrow().stream().map(c -> new ClaimProgress(c.name(), c.target().toString(),
                c.capacity() == null ? "" : c.capacity().toString(), c.target().toString(), List.of("Resizing"), ClaimProgress.State.RESIZING,
                "", "Resizing: External resizer is resizing volume pvc-0123")).toList();
        for (UiState s : List.of(press(select(DemoDecisions.state(columns, rows), "minio"), "a", done(key, Phase.CHECK, "checked")),
                press(select(DemoDecisions.state(columns, rows), "minio"), "a", done(key, Phase.CHECK, "checked"), "y",
                        done(key, Phase.GROW, "grown")))) {
            UiState shown = Update.apply(s, new UiEvent.ClaimsRead(key, claims)).state();
            List<String> body = bodyText(shown, columns);
            long rowsShown = claims.stream().filter(c -> body.stream().anyMatch(l -> l.startsWith("  " + c.name() + " "))).count();
            String all = String.join("\n", body);
            if (rowsShown < claims.size()) {
                assertThat(all).as("at %dx%d, %d of %d claims shown:%n%s", columns, rows, rowsShown, claims.size(), all)
                        .contains("… " + (claims.size() - rowsShown) + " more claim");
            }
            if (rowsShown > 0 && rowsShown < claims.size()) {
                // PgDn, page by page, shows every claim; each page counts those above and below it
                java.util.Set<String> seen = new java.util.HashSet<>();
                UiState page = shown;
                for (int i = 0; i < claims.size(); i++) {
                    List<String> text = bodyText(page, columns);
                    long onPage = claims.stream().filter(c -> text.stream().anyMatch(l -> l.startsWith("  " + c.name() + " "))).count();
                    claims.stream().map(ClaimProgress::name).filter(n -> text.stream().anyMatch(l -> l.startsWith("  " + n + " ")))
                            .forEach(seen::add);
                    int above = page.wizard().claimsFrom();
                    int below = claims.size() - above - (int) onPage;
                    String joined = String.join("\n", text);
                    if (above > 0) {
                        assertThat(joined).as("at %dx%d:%n%s", columns, rows, joined).contains("… " + above + " more claim" + (above == 1 ? "" : "s") + " above: PgUp");
                    }
                    if (below > 0) {
                        assertThat(joined).as("at %dx%d:%n%s", columns, rows, joined).contains("… " + below + " more claim" + (below == 1 ? "" : "s") + " below: PgDn");
                    }
                    page = press(page, Kind.PAGE_DOWN);
                }
                assertThat(seen).as("every claim on some page at %dx%d", columns, rows).hasSize(claims.size());
            }
            assertThat(body).as("no command cut: every row that continues one is followed by its next:%n%s", all)
                    .noneMatch(l -> l.contains("$ kubectl") && l.endsWith("\\") && body.indexOf(l) == body.size() - 1);
            // each command shown is whole: what the shell reads from it is one of the claim patches
            for (int i = 0; i < body.size(); i++) {
                if (body.get(i).contains("$ kubectl patch")) {
                    List<String> words = Shell.words(copied(body.subList(i, body.size()), "kubectl patch"));
                    assertThat(minio.claimsToGrow().stream().map(c -> Shell.words(Write.ClaimPatch.of("shop", c).command())))
                            .as("a whole claim patch at %dx%d:%n%s", columns, rows, all).contains(words);
                }
            }
        }
    }

    /** The wizard's title: a StorageClass's mark stays beside its name, never alone on a row. */
    @ParameterizedTest(name = "{0}x{1}")
    @MethodSource("sizes")
    void theClassesMarkNeverWrapsAlone(int columns, int rows) {
        for (String name : List.of("postgres", "clickhouse", "elasticsearch", "minio", "kafka")) {
            UiState s = press(select(DemoDecisions.state(columns, rows), name), "a");
            for (String l : bodyText(s, columns)) {
                assertThat(l.strip()).as("%s at %dx%d", name, columns, rows).isNotIn("✓", "✗", "?");
            }
        }
    }

    /** An ended wizard's hint says "<esc> back to the list": Esc goes there, though the wizard was opened from the diff. */
    @Test
    void escBackToTheListGoesToTheList() {
        String pg = "shop/postgres";
        UiState fromDiff = press(select(DemoDecisions.state(80, 24), "postgres"), Kind.ENTER);
        assertThat(fromDiff.view()).isEqualTo(View.DIFF);
        UiState ended = press(fromDiff, "a", done(pg, Phase.CHECK, "checked"), "y", done(pg, Phase.GROW, "grown"),
                done(pg, Phase.WAIT, "capacity reached"), "postgres", Kind.ENTER, done(pg, Phase.ORPHAN_DELETE, "gone"),
                done(pg, Phase.REAPPLY, "re-applied"), done(pg, Phase.VERIFY, "verified"));
        assertThat(KeyHints.of(ended)).contains("<esc> back to the list");
        assertThat(press(ended, Kind.ESCAPE).view()).as("Esc after the hint said: back to the list").isEqualTo(View.LIST);
        // before the end, Esc leaves to where the wizard was opened from, as its hint ("leave") does not promise the list
        UiState atGrow = press(fromDiff, "a", done(pg, Phase.CHECK, "checked"));
        assertThat(press(atGrow, Kind.ESCAPE).view()).isEqualTo(View.DIFF);
    }

    /** The body's rows as a copy off the screen gives them: inside the box, its padding column left out. */
    private static List<String> bodyText(UiState state, int columns) {
        String[] screen = VirtualScreen.draw(state, COLOUR, Glyphs.UNICODE).text().split("\n", -1);
        List<String> out = new ArrayList<>();
        for (int r = Layout.BODY_TOP; r < Layout.BODY_TOP + Layout.bodyRows(state.rows()); r++) {
            out.add(screen[r].substring(2, columns - 1).stripTrailing());
        }
        return out;
    }

    /** From where {@code start} is on a row, that row and the next ones while a row ends with the shell's line continuation. */
    private static String copied(List<String> rows, String start) {
        for (int i = 0; i < rows.size(); i++) {
            int at = rows.get(i).indexOf(start);
            if (at >= 0) {
                StringBuilder b = new StringBuilder(rows.get(i).substring(at));
                while (rows.get(i).endsWith("\\") && i + 1 < rows.size()) {
                    b.append('\n').append(rows.get(++i));
                }
                return b.toString();
            }
        }
        throw new AssertionError("no row holds " + start + ":\n" + String.join("\n", rows));
    }

    /** A file's JSON shown from {@code start} on, its rows joined as a copy gives them, up to the row that closes it. */
    private static String jsonFrom(List<String> rows, String start) {
        for (int i = 0; i < rows.size(); i++) {
            int at = rows.get(i).indexOf(start);
            if (at >= 0) {
                StringBuilder b = new StringBuilder(rows.get(i).substring(at));
                while (!b.toString().endsWith("}}") && i + 1 < rows.size()) {
                    b.append('\n').append(rows.get(++i));
                }
                return b.toString();
            }
        }
        throw new AssertionError("no row holds " + start);
    }

    private static List<String> prefixes(List<String> hints) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= hints.size(); i++) {
            out.add(String.join("  ", hints.subList(0, i)));
        }
        return out;
    }

    /** How POSIX sh reads a command's words: quotes removed, backslash-newline joins, blanks and newlines separate. */
    static final class Shell {
        static List<String> words(String text) {
            List<String> out = new ArrayList<>();
            StringBuilder word = new StringBuilder();
            boolean started = false;
            char quote = 0;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
                if (quote == '\'') {
                    if (c == '\'') {
                        quote = 0;
                    } else {
                        word.append(c);
                    }
                } else if (c == '\\' && next == '\n') {
                    i++;
                } else if (quote == '"') {
                    if (c == '"') {
                        quote = 0;
                    } else if (c == '\\' && "$`\"\\".indexOf(next) >= 0) {
                        word.append(next);
                        i++;
                    } else {
                        word.append(c);
                    }
                } else if (c == '\\') {
                    word.append(next);
                    i++;
                    started = true;
                } else if (c == '\'' || c == '"') {
                    quote = c;
                    started = true;
                } else if (c == ' ' || c == '\n' || c == '\t') {
                    if (started) {
                        out.add(word.toString());
                        word.setLength(0);
                        started = false;
                    }
                } else {
                    word.append(c);
                    started = true;
                }
            }
            assertThat((int) quote).as("every quote closed in:\n" + text).isZero();
            if (started) {
                out.add(word.toString());
            }
            return out;
        }
    }
}
