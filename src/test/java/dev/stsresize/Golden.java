package dev.stsresize;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden files under src/test/resources/golden. A mismatch fails; run with {@code -Dgolden.update=true}
 * to rewrite them, then review the diff like any other change.
 */
public final class Golden {
    private static final Path ROOT = Path.of("src/test/resources/golden");

    private Golden() {}

    public static void assertMatches(String name, String actual) {
        Path file = ROOT.resolve(name);
        try {
            if (Boolean.getBoolean("golden.update")) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, actual, StandardCharsets.UTF_8);
                return;
            }
            assertThat(file).as("golden file %s is missing; create it with -Dgolden.update=true", file).exists();
            assertThat(actual).as("%s differs from the golden file; if the change is intended, rerun with -Dgolden.update=true", file)
                    .isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
