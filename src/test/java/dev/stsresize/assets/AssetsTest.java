package dev.stsresize.assets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * assets/ as scripts/capture-assets.sh leaves it: the script lints, the pictures are PNGs, the cast is
 * asciicast v2 that a player accepts, and the README's links to them resolve.
 */
class AssetsTest {
    static final Path CAPTURE = Path.of("scripts/capture-assets.sh");

    static String exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + "\n" + out).isZero();
        return out;
    }

    @Test
    void the_capture_script_parses_as_bash() throws Exception {
        assertThat(Files.isExecutable(CAPTURE)).as("executable").isTrue();
        exec("bash", "-n", CAPTURE.toString());
    }

    @Test
    void the_capture_script_passes_shellcheck() throws Exception {
        assumeTrue(Ansi2HtmlTest.onPath("shellcheck"), "shellcheck is not installed (CI installs Debian's package): the lint is skipped");
        exec("shellcheck", CAPTURE.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "diff", "wizard"})
    void each_screenshot_is_a_png_of_a_whole_pane(String name) throws Exception {
        byte[] png = Files.readAllBytes(Path.of("assets", name + ".png"));
        assertThat(png).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        ByteBuffer ihdr = ByteBuffer.wrap(png, 16, 8);
        int width = ihdr.getInt();
        int height = ihdr.getInt();
        // 120 x 34 cells of 16 px DejaVu Sans Mono, 19 px rows, at 2 device pixels per CSS pixel
        assertThat(width).as("width").isGreaterThan(1000);
        assertThat(height).as("height").isGreaterThan(500).isLessThan(width);
    }

    @Test
    void the_cast_is_asciicast_v2_in_time_order() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("assets/session.cast"), StandardCharsets.UTF_8);
        ObjectMapper json = new ObjectMapper();
        JsonNode header = json.readTree(lines.get(0));
        assertThat(header.path("version").asInt()).isEqualTo(2);
        assertThat(header.path("width").asInt()).isPositive();
        assertThat(header.path("height").asInt()).isPositive();
        double last = 0;
        StringBuilder output = new StringBuilder();
        for (String line : lines.subList(1, lines.size())) {
            JsonNode event = json.readTree(line);
            assertThat(event.isArray() && event.size() == 3).as(line).isTrue();
            assertThat(event.get(0).asDouble()).as("time order: " + line).isGreaterThanOrEqualTo(last);
            last = event.get(0).asDouble();
            assertThat(event.get(1).asText()).as(line).isIn("o", "i", "r", "m");
            if (event.get(1).asText().equals("o")) {
                output.append(event.get(2).asText());
            }
        }
        assertThat(output).as("the session shows the UI").contains("StatefulSets[");
    }

    @Test
    void the_readmes_link_to_every_asset_and_every_link_resolves() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        Matcher link = Pattern.compile("\\]\\((assets/[^)\\s]+)\\)").matcher(readme);
        StringBuilder linked = new StringBuilder();
        while (link.find()) {
            assertThat(Path.of(link.group(1))).as("README.md links " + link.group(1)).exists();
            linked.append(link.group(1)).append('\n');
        }
        assertThat(linked.toString()).contains("assets/list.png", "assets/diff.png", "assets/wizard.png", "assets/session.cast");
        assertThat(Files.readString(Path.of("assets/README.md")))
                .contains("list.png", "diff.png", "wizard.png", "session.cast", "scripts/capture-assets.sh")
                .doesNotContain("PLACEHOLDER");
    }
}
