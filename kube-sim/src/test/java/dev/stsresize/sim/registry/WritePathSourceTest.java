package dev.stsresize.sim.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The generic write path stays generic: what differs per resource lives in its strategy (registry.strategy)
 * or an admission plugin, never in a test of the kind or resource name in the registry itself. A String
 * switch compiles to hash codes and equals calls, out of ArchUnit's sight, so the sources are read.
 */
class WritePathSourceTest {
    /** t.kind().equals(…), "Pod".equals(t.kind()), switch (t.kind()), and the same on resource() or groupResource(). */
    static final Pattern DISPATCH = Pattern.compile(
            "(kind|resource|groupResource)\\(\\)\\s*\\.equals\\("
            + "|\"[^\"]*\"\\s*\\.equals\\(\\s*[\\w.]*(kind|resource|groupResource)\\(\\)"
            + "|switch\\s*\\(\\s*[\\w.]*(kind|resource|groupResource)\\(\\)");

    @Test
    void the_registry_never_dispatches_on_a_kind_or_resource_name() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("src/main/java/dev/stsresize/sim/registry"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (DISPATCH.matcher(lines.get(i)).find()) {
                        found.add(f.getFileName() + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        assertThat(found).as("per-resource behaviour belongs in registry/strategy (one Strategy per resource, listed in "
                + "Strategies) or in an admission plugin (AdmissionChain)").isEmpty();
    }

    @Test
    void the_pattern_sees_the_dispatch_it_forbids() {
        assertThat(Stream.of("if (t.kind().equals(\"Pod\")) {", "switch (t.kind()) {", "\"Service\".equals(t.kind())",
                "t.groupResource().equals(\"pods\")").filter(s -> DISPATCH.matcher(s).find())).hasSize(4);
        assertThat(DISPATCH.matcher("if (!kind.isEmpty() && !kind.equals(t.kind())) {").find())
                .as("comparing the body's kind with the URL's is decoding, not dispatch").isFalse();
    }
}
