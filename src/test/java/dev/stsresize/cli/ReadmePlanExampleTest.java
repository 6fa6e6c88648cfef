package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README's plan example is what the CLI prints: each of its blocks is a block of the golden file that
 * {@link PlanExampleIT} compares with the real launcher's output for the same command.
 */
class ReadmePlanExampleTest {
    private static final String COMMAND = "`plan -f examples/manifest.yaml --live examples/live-snapshot.yaml` prints";

    @Test
    void everyBlockOfReadmesPlanExampleIsPrintedByThePlan() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        String golden = Files.readString(Path.of("src/test/resources/golden/plan/examples.table.txt"));
        int at = readme.indexOf(COMMAND);
        assertThat(at).as("README shows what " + COMMAND).isNotNegative();
        // the first fenced block after the sentence, indented as a list item's content
        Matcher fence = Pattern.compile("\n( *)```\n(.*?)\n\\1```\n", Pattern.DOTALL).matcher(readme);
        assertThat(fence.find(at)).as("a fenced block follows " + COMMAND).isTrue();
        String indent = fence.group(1);
        String example = fence.group(2).replaceAll("(?m)^" + indent, "");
        String[] blocks = example.split("\n\n");
        assertThat(blocks).as("README's example has blocks").hasSizeGreaterThan(1);
        List<String> printed = Arrays.stream(golden.split("\n\n")).map(String::strip).toList();
        for (String block : blocks) {
            assertThat(printed).as("README's example block is one the plan prints, whole").contains(block.strip());
        }
    }
}
