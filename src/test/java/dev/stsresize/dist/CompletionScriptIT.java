package dev.stsresize.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.testkit.TwoContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scripts of {@code completion bash|zsh|fish}, sourced into the real shell and asked as the
 * shell asks on a TAB: bash through its completion function with COMP_WORDS, zsh through its
 * completion system on a pseudo-terminal ({@code capture-completion.zsh}), fish through
 * {@code complete --do-complete}. A shell that is not installed is skipped, saying so
 * ({@code .ci/run} installs all three).
 */
class CompletionScriptIT {
    static final Path TARGET = Paths.get(System.getProperty("stsresize.launcher", "target/kubectl-stsresize"))
            .toAbsolutePath().getParent();
    static final Path ZSH_CAPTURE = Path.of("src/test/resources/dev/stsresize/dist/capture-completion.zsh").toAbsolutePath();
    @TempDir Path tmp;
    Map<String, String> env;

    @BeforeEach
    void environment() throws Exception {
        env = new HashMap<>();
        env.put("PATH", TARGET + ":" + System.getenv("PATH"));
        env.put("HOME", tmp.toString()); // no user's shell configuration, and nothing written into it
        env.put("XDG_CONFIG_HOME", tmp.resolve("config").toString());
        env.put("XDG_DATA_HOME", tmp.resolve("data").toString());
        env.put("XDG_CACHE_HOME", tmp.resolve("cache").toString());
        env.put("KUBECONFIG", Files.writeString(tmp.resolve("kubeconfig"), TwoContexts.KUBECONFIG).toString());
        Files.writeString(tmp.resolve("manifest.yaml"), "");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bash", "zsh", "fish"})
    void eachShellCompletesSubcommandsFlagsTheirValuesContextsAndFiles(String shell) throws Exception {
        assumeTrue(DistributionIT.onPath(shell), shell + " is not installed (.ci/run installs it): its completion script is untested here");
        assertThat(complete(shell, "pl")).containsExactly("plan");
        assertThat(complete(shell, "completion", "")).containsExactlyInAnyOrder("bash", "zsh", "fish");
        assertThat(complete(shell, "plan", "--co")).containsExactlyInAnyOrder("--context", "--color", "--copy", "--copy-class", "--copy-image");
        assertThat(complete(shell, "plan", "-o", "")).containsExactlyInAnyOrder("table", "json", "yaml");
        assertThat(complete(shell, "plan", "--context", "")).containsExactlyInAnyOrder("prod", "staging");
        assertThat(complete(shell, "apply", "--context", "st")).containsExactly("staging");
        // a path: the shell completes files
        assertThat(complete(shell, "plan", "-f", "man")).containsExactly("manifest.yaml");
        // nothing to offer and no files either (cobra's directive 4)
        assertThat(complete(shell, "version", "man")).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"zsh", "fish"})
    void theFlagEqualsValueFormCompletesItsValue(String shell) throws Exception {
        // bash splits --context=p at the '=' (COMP_WORDBREAKS); zsh and fish keep one word
        assumeTrue(DistributionIT.onPath(shell), shell + " is not installed (.ci/run installs it): its completion script is untested here");
        assertThat(complete(shell, "plan", "--output=j")).containsExactly("--output=json");
        assertThat(complete(shell, "plan", "--context=s")).containsExactly("--context=staging");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bash", "zsh", "fish"})
    void resumeCompletesStatefulSetsFromTheCluster(String shell) throws Exception {
        assumeTrue(DistributionIT.onPath(shell), shell + " is not installed (.ci/run installs it): its completion script is untested here");
        try (SimCluster sim = SimCluster.start()) {
            sim.load(DemoScenario.cluster().toArray(new ObjectNode[0]));
            // the admin by token: a cold completion process that must first parse a client key with BouncyCastle
            // can overrun its 1 s cluster budget on a loaded machine (seen at load 14), which is not what this tests
            env.put("KUBECONFIG", Files.writeString(tmp.resolve("sim.kubeconfig"),
                    sim.kubeconfig().replace("current-context: sim\n", "current-context: sim-token\n")).toString());
            List<String> all = DemoScenario.cluster().stream().filter(o -> o.path("kind").asText().equals("StatefulSet"))
                    .map(o -> o.path("metadata").path("namespace").asText() + "/" + o.path("metadata").path("name").asText())
                    .toList();
            assertThat(completeFromCluster(shell, "resume", "")).containsExactlyInAnyOrderElementsOf(all);
            String first = all.get(0);
            assertThat(completeFromCluster(shell, "resume", first.substring(0, first.indexOf('/') + 1)))
                    .containsExactlyInAnyOrderElementsOf(all.stream().filter(n -> n.startsWith(first.substring(0, first.indexOf('/') + 1))).toList());
            assertThat(completeFromCluster(shell, "plan", "-n", "")).containsExactlyInAnyOrderElementsOf(
                    all.stream().map(n -> n.substring(0, n.indexOf('/'))).distinct().toList());
        }
    }

    /**
     * A completion from the cluster offers nothing when its 2 s budget runs out, which a cold JVM on a
     * loaded machine can overrun (seen at load 25): asked up to three times, the first non-empty answer is
     * what is checked. A completion that never reaches the cluster still offers nothing three times: red.
     */
    private List<String> completeFromCluster(String shell, String... words) throws Exception {
        List<String> offered = List.of();
        for (int attempt = 0; attempt < 3 && offered.isEmpty(); attempt++) {
            offered = complete(shell, words);
        }
        return offered;
    }

    /** What the shell offers for the words (the last one being completed) after {@code kubectl-stsresize}. */
    private List<String> complete(String shell, String... words) throws Exception {
        String line = "kubectl-stsresize " + String.join(" ", words);
        DistributionIT.Run r = switch (shell) {
            case "bash" -> {
                // COMP_WORDS as bash splits the line, COMP_CWORD the word under the cursor
                String array = String.join(" ", Arrays.stream(words).map(w -> "'" + w + "'").toList());
                yield DistributionIT.run(env, tmp, "bash", "--norc", "--noprofile", "-c",
                        "source <(kubectl-stsresize completion bash)\n"
                                + "COMP_WORDS=(kubectl-stsresize " + array + "); COMP_CWORD=" + words.length + "\n"
                                + "_kubectl_stsresize\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n");
            }
            case "zsh" -> {
                Path script = tmp.resolve("completion.zsh");
                Files.writeString(script, DistributionIT.run(env, tmp, TARGET.resolve("kubectl-stsresize").toString(), "completion", "zsh").out());
                yield DistributionIT.run(env, tmp, "zsh", "-f", ZSH_CAPTURE.toString(), script.toString(), line);
            }
            case "fish" -> {
                Map<String, String> withLine = new HashMap<>(env);
                withLine.put("STSRESIZE_LINE", line);
                yield DistributionIT.run(withLine, tmp, "fish", "--no-config", "-c",
                        "kubectl-stsresize completion fish | source; complete --do-complete \"$STSRESIZE_LINE\"");
            }
            default -> throw new IllegalArgumentException(shell);
        };
        assertThat(r.code()).as(shell + " completing '" + line + "'\n" + r.describe()).isZero();
        assertThat(r.err()).as(shell + " completing '" + line + "'\n" + r.describe()).isEmpty();
        // fish prints "name<TAB>description"
        return r.out().lines().filter(l -> !l.isEmpty()).map(l -> l.contains("\t") ? l.substring(0, l.indexOf('\t')) : l).toList();
    }
}
