package dev.stsresize.assets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/ansi2html.py, which turns {@code tmux capture-pane -e} into the page the README's screenshots
 * are photographed from: each SGR attribute lands on the right cells with the right colour, the
 * attributes carry across lines as tmux writes them, other escapes vanish, and every cell sits at its
 * grid position (box drawing aligned).
 */
class Ansi2HtmlTest {
    static final Path SCRIPT = Path.of("scripts/ansi2html.py");
    /** The x advance of one cell at the default 16 px: DejaVu Sans Mono's 1233/2048 em. */
    static final double CELL = 16 * 1233 / 2048.0;
    static final String E = "\u001b";

    @TempDir Path dir;

    @BeforeEach
    void python() {
        assumeTrue(onPath("python3"), "python3 is not installed: scripts/ansi2html.py (used only by scripts/capture-assets.sh) is not tested");
    }

    record Run(int exit, String out) {}

    record Span(Map<String, String> style, String cls, String text) {
        double left() {
            return Double.parseDouble(style.get("left").replace("px", ""));
        }
    }

    Run run(String capture, String... args) throws IOException, InterruptedException {
        Path in = dir.resolve("capture.ansi");
        Files.writeString(in, capture, StandardCharsets.UTF_8);
        List<String> cmd = new ArrayList<>(List.of("python3", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        cmd.add(in.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** The page's rows, each as its spans. */
    List<List<Span>> rows(String capture, String... args) throws Exception {
        Run r = run(capture, args);
        assertThat(r.exit()).as(r.out()).isZero();
        List<List<Span>> rows = new ArrayList<>();
        Matcher row = Pattern.compile("<div class=\"r\">(.*?)</div>").matcher(r.out());
        Pattern spanPattern = Pattern.compile("<span(?: class=\"([^\"]*)\")? style=\"([^\"]*)\">(.*?)</span>");
        while (row.find()) {
            List<Span> spans = new ArrayList<>();
            Matcher s = spanPattern.matcher(row.group(1));
            while (s.find()) {
                Map<String, String> style = new LinkedHashMap<>();
                for (String decl : s.group(2).split(";")) {
                    String[] kv = decl.split(":", 2);
                    style.put(kv[0], kv[1]);
                }
                spans.add(new Span(style, s.group(1) == null ? "" : s.group(1), s.group(3)));
            }
            rows.add(spans);
        }
        return rows;
    }

    static Span find(List<Span> row, String text) {
        return row.stream().filter(s -> s.text().contains(text)).findFirst()
                .orElseThrow(() -> new AssertionError("no span with " + text + " in " + row));
    }

    @Test
    void the_converters_doctests_pass() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("python3", "-m", "doctest", "-v", SCRIPT.toString()).redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("Test passed.").containsPattern("[1-9][0-9]* passed and 0 failed");
    }

    @Test
    void the_sixteen_colours_foreground_and_background() throws Exception {
        List<Span> row = rows(E + "[31mred" + E + "[91mbright" + E + "[39;44mbg" + E + "[104mbrightbg" + E + "[0m.").get(0);
        assertThat(find(row, "red").style()).containsEntry("color", "#c50f1f").doesNotContainKey("background");
        assertThat(find(row, "bright").style()).containsEntry("color", "#e74856");
        assertThat(find(row, "bg").style()).containsEntry("background", "#0037da").doesNotContainKey("color");
        assertThat(find(row, "brightbg").style()).containsEntry("background", "#3b78ff");
        assertThat(find(row, ".").style()).doesNotContainKeys("color", "background");
    }

    @Test
    void two_hundred_fifty_six_colours_and_truecolor_in_both_notations() throws Exception {
        List<Span> row = rows(E + "[38;5;196mcube" + E + "[38;5;244mgrey" + E + "[38;5;9mlow"
                + E + "[38;2;1;2;255mrgb" + E + "[38:2::10:20:30mcolon" + E + "[38:5:46mcolon256"
                + E + "[39;48;2;200;100;0mbgrgb" + E + "[48;5;21mbg256").get(0);
        assertThat(find(row, "cube").style()).containsEntry("color", "#ff0000");
        assertThat(find(row, "grey").style()).containsEntry("color", "#808080");
        assertThat(find(row, "low").style()).containsEntry("color", "#e74856");
        assertThat(find(row, "rgb").style()).containsEntry("color", "#0102ff");
        assertThat(find(row, "colon").style()).containsEntry("color", "#0a141e");
        assertThat(find(row, "colon256").style()).containsEntry("color", "#00ff00");
        assertThat(find(row, "bgrgb").style()).containsEntry("background", "#c86400").doesNotContainKey("color");
        assertThat(find(row, "bg256").style()).containsEntry("background", "#0000ff");
    }

    @Test
    void bold_dim_underline_reverse_and_their_resets() throws Exception {
        List<Span> row = rows(E + "[1mbold" + E + "[22;2mdim" + E + "[22;32;2mdimgreen" + E + "[0;4munder" + E + "[24;7mrev"
                + E + "[31mrevred" + E + "[27;9mstrike" + E + "[0;3mitalic" + E + "[0;8mhidden" + E + "[mplain").get(0);
        assertThat(find(row, "bold").style()).containsEntry("font-weight", "bold");
        // dim: the text colour halfway to the background
        assertThat(find(row, "dim").style()).containsEntry("color", "#757575").doesNotContainKey("font-weight");
        assertThat(find(row, "dimgreen").style()).containsEntry("color", "#145c12");
        assertThat(find(row, "under").cls()).isEqualTo("u");
        // reverse swaps the resolved colours: default on default becomes background-coloured text on the text colour
        assertThat(find(row, "rev").style()).containsEntry("color", "#161616").containsEntry("background", "#d4d4d4");
        assertThat(find(row, "revred").style()).containsEntry("color", "#161616").containsEntry("background", "#c50f1f");
        assertThat(find(row, "strike").cls()).isEqualTo("s");
        assertThat(find(row, "strike").style()).containsEntry("color", "#c50f1f").doesNotContainKey("background");
        assertThat(find(row, "italic").style()).containsEntry("font-style", "italic").doesNotContainKey("color");
        assertThat(find(row, "hidden").style()).containsEntry("color", "#161616");
        Span plain = find(row, "plain");
        assertThat(plain.style()).containsOnlyKeys("left", "width");
        assertThat(plain.cls()).isEmpty();
    }

    @Test
    void attributes_carry_across_lines_as_tmux_writes_them() throws Exception {
        List<List<Span>> rows = rows(E + "[36m┌──┐\n│ok│" + E + "[0m\nplain\n");
        assertThat(rows).hasSize(3);
        assertThat(find(rows.get(1), "│").style()).containsEntry("color", "#3a96dd");
        assertThat(find(rows.get(1), "ok").style()).containsEntry("color", "#3a96dd");
        assertThat(find(rows.get(2), "plain").style()).doesNotContainKey("color");
    }

    @Test
    void other_escapes_vanish_and_text_is_escaped() throws Exception {
        List<Span> row = rows(E + "]8;;https://example.com" + E + "\\link" + E + "]8;;" + E + "\\ " + E + "[2J" + E + "[5;3H"
                + E + "]0;title\u0007" + E + "(B<b>&amp;" + E + "[?25l.").get(0);
        String text = row.stream().map(Span::text).reduce("", String::concat);
        assertThat(text).isEqualTo("link &lt;b&gt;&amp;amp;.");
    }

    @Test
    void every_cell_sits_on_the_grid_whatever_the_glyph() throws Exception {
        List<Span> row = rows("ab│cd漢x✓ e\u0301!\t" + E + "[1mT").get(0);
        assertThat(find(row, "ab").left()).isZero();
        Span box = find(row, "│");
        assertThat(box.left()).isCloseTo(2 * CELL, org.assertj.core.data.Offset.offset(0.01));
        assertThat(box.style()).containsEntry("width", String.format("%.3fpx", CELL));
        assertThat(find(row, "cd").left()).isCloseTo(3 * CELL, org.assertj.core.data.Offset.offset(0.01));
        Span wide = find(row, "漢");
        assertThat(wide.left()).isCloseTo(5 * CELL, org.assertj.core.data.Offset.offset(0.01));
        assertThat(wide.style()).containsEntry("width", String.format("%.3fpx", 2 * CELL));
        assertThat(find(row, "x").left()).isCloseTo(7 * CELL, org.assertj.core.data.Offset.offset(0.01));
        assertThat(find(row, "✓").left()).isCloseTo(8 * CELL, org.assertj.core.data.Offset.offset(0.01));
        // a combining accent stays in its letter's cell
        assertThat(find(row, "e\u0301").left()).isCloseTo(10 * CELL, org.assertj.core.data.Offset.offset(0.01));
        assertThat(find(row, "!").left()).isCloseTo(11 * CELL, org.assertj.core.data.Offset.offset(0.01));
        // a tab goes to the next multiple of 8
        assertThat(find(row, "T").left()).isCloseTo(16 * CELL, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void pads_to_the_pane_and_prints_the_page_size() throws Exception {
        Path html = dir.resolve("page.html");
        Run r = run("hi\n", "--cols", "20", "--rows", "5", "-o", html.toString(), "--print-size");
        assertThat(r.exit()).as(r.out()).isZero();
        // 20 cells of 16 px DejaVu Sans Mono and 5 rows of 19 px, with 14 px around
        assertThat(r.out().strip()).isEqualTo("221x123");
        String page = Files.readString(html);
        assertThat(page).startsWith("<!DOCTYPE html>").contains("data-cols=\"20\" data-rows=\"5\"").contains("background:#161616")
                .contains("DejaVu Sans Mono");
        assertThat(page.split("<div class=\"r\">", -1)).hasSize(6);
        assertThat(page).contains(">hi                  </span>");
    }

    static boolean onPath(String tool) {
        return dev.stsresize.testkit.Processes.onPath(tool);
    }
}
