package dev.stsresize;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents stay what they are for: README the user's page, ARCHITECTURE.md's claims backed by the
 * classes and tests it names, and code comments free of issue numbers (those go to commits and docs/).
 * Run from the top folder, as every plugin test is.
 */
class DocumentsTest {
    /** About 200 lines: past this the user's page becomes a manual again; reference material goes to docs/. */
    static final int README_MAX_LINES = 210;

    private static final List<Path> SOURCES = List.of(Path.of("src/main/java"), Path.of("kube-sim/src/main/java"));
    private static final Pattern ISSUE = Pattern.compile("(?i)\\bissues? #?\\d+|\\(#\\d+\\)");

    @Test
    void theReadmeStaysTheUsersPage() throws IOException {
        assertThat(Files.readAllLines(Path.of("README.md"))).as("README.md's lines").hasSizeLessThanOrEqualTo(README_MAX_LINES);
    }

    /**
     * Each class ARCHITECTURE.md names ({@code `Assessor`}, {@code `cli.QuickAnswers`}, {@code `ConvergeScenariosTest`}) is
     * a class of the project: an invariant said to be enforced by a test that is gone, or kept by a class renamed
     * away, is a false claim. Names of Go code (kube-apiserver's) are said as such and listed here.
     */
    @Test
    void architectureNamesOnlyClassesThatExist() throws IOException {
        Set<String> goNames = Set.of("DefaultBuildHandlerChain");
        Set<String> classes;
        try (Stream<Path> files = Stream.of("src", "kube-sim/src").map(Path::of).flatMap(DocumentsTest::walk)) {
            classes = files.filter(p -> p.toString().endsWith(".java")).flatMap(DocumentsTest::declaredTypes).collect(Collectors.toSet());
        }
        List<String> missing = new ArrayList<>();
        Matcher m = Pattern.compile("`(?:[a-z]+\\.)*([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:\\.[A-Za-z]+)*(?:\\([^`]*\\))?`")
                .matcher(Files.readString(Path.of("ARCHITECTURE.md")));
        while (m.find()) {
            if (!classes.contains(m.group(1)) && !goNames.contains(m.group(1))) {
                missing.add(m.group());
            }
        }
        assertThat(missing).as("names in ARCHITECTURE.md with no class of that name").isEmpty();
    }

    @Test
    void codeCommentsCarryNoIssueNumbers() {
        List<String> found = new ArrayList<>();
        for (Path root : SOURCES) {
            try (Stream<Path> files = walk(root)) {
                files.filter(p -> p.toString().endsWith(".java")).forEach(p -> {
                    List<String> lines = read(p);
                    for (int i = 0; i < lines.size(); i++) {
                        String line = lines.get(i).trim();
                        boolean comment = line.startsWith("//") || line.startsWith("*") || line.startsWith("/*") || line.contains(" // ");
                        if (comment && ISSUE.matcher(line).find()) {
                            found.add(p + ":" + (i + 1) + ": " + line);
                        }
                    }
                });
            }
        }
        assertThat(found).as("issue numbers belong in commit messages and docs/, not in code comments").isEmpty();
    }

    private static Stream<String> declaredTypes(Path file) {
        Matcher m = Pattern.compile("\\b(?:class|record|interface|enum)\\s+([A-Z][A-Za-z0-9]*)").matcher(String.join("\n", read(file)));
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out.stream();
    }

    private static Stream<Path> walk(Path root) {
        try {
            return Files.walk(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> read(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
