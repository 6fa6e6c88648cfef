package dev.stsresize.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive carries only what runs: it stays small, and every command works from it as krew unpacks
 * it, the simulated cluster ({@code simulate}, {@code demo}) included. The jar is shaded with minimizeJar, which
 * keeps what our code reaches by reference; a class a library loads by name that it dropped shows here as a
 * command that fails.
 */
@Tag("slow")
class ReleaseArchiveIT {
    /** The ceiling on the archive's size: what every dependency's every class would far exceed. */
    static final long MAX_ARCHIVE_BYTES = 25_000_000L;

    /** Classes missing from the shaded jar, as the JVM reports them. */
    private static final Pattern MISSING_CLASS = Pattern.compile(
            "NoClassDefFoundError|ClassNotFoundException|VerifyError|ServiceConfigurationError|NoSuchMethodError|Exception in thread");

    @Test
    void theArchiveStaysSmall() throws Exception {
        long size = Files.size(DistributionIT.ARCHIVE);
        System.out.printf("release archive: %,d bytes; jar %,d bytes%n", size,
                Files.size(DistributionIT.TARGET.resolve("kubectl-stsresize.jar")));
        assertThat(size).as("bytes of %s: keep what the commands do not run out of the jar (plugin/pom.xml, shade's filters)",
                DistributionIT.ARCHIVE.getFileName()).isLessThanOrEqualTo(MAX_ARCHIVE_BYTES);
    }

    @Test
    void everyCommandRunsFromTheUnpackedArchive(@TempDir Path tmp) throws Exception {
        Path install = Files.createDirectories(tmp.resolve("install"));
        DistributionIT.unpack(DistributionIT.ARCHIVE, install);
        String launcher = install.resolve("kubectl-stsresize").toString();
        Map<String, String> env = Map.of("XDG_CACHE_HOME", tmp.resolve("cache").toString(), "XDG_STATE_HOME",
                tmp.resolve("state").toString(), "KUBECONFIG", tmp.resolve("no-kubeconfig").toString(), "STSRESIZE_CDS", "0");
        String manifest = Path.of("examples/manifest.yaml").toAbsolutePath().toString();
        String snapshot = Path.of("examples/live-snapshot.yaml").toAbsolutePath().toString();
        Path editable = Files.copy(Path.of(manifest), tmp.resolve("manifest.yaml"));
        Path kubeconfig = tmp.resolve("kubeconfig");

        Process simulate = new ProcessBuilder(launcher, "simulate", "--state", snapshot, "--kubeconfig-out", kubeconfig.toString())
                .redirectError(tmp.resolve("simulate.err").toFile()).start();
        try {
            String ready = new BufferedReader(new InputStreamReader(simulate.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertThat(ready).as("simulate from the archive: %s", Files.readString(tmp.resolve("simulate.err"))).startsWith("ready https://");
            String kc = kubeconfig.toString();

            // each command, as a user would run it; the exit codes each may end with (2: the example holds a refusal)
            Map<String, Invocation> commands = new LinkedHashMap<>();
            commands.put("plan", new Invocation(Set.of(2), "plan", "--kubeconfig", kc, "-f", manifest, "-n", "shop"));
            commands.put("usage", new Invocation(Set.of(0), "usage", "--kubeconfig", kc, "-n", "shop"));
            commands.put("ui", new Invocation(Set.of(2), "ui", "--kubeconfig", kc, "-f", manifest, "-n", "shop"));
            commands.put("apply", new Invocation(Set.of(2), "apply", "--kubeconfig", kc, "-f", manifest, "-n", "shop", "--yes"));
            commands.put("resume", new Invocation(Set.of(0), "resume", "--kubeconfig", kc, "-n", "shop"));
            // postgres grew above: nothing of it to give back (0), or a refusal in one paragraph (1); a missing class shows either way
            commands.put("revert", new Invocation(Set.of(0, 1), "revert", "--kubeconfig", kc, "shop/postgres", "--dry-run=server"));
            commands.put("render-job", new Invocation(Set.of(0), "render-job", "-f", manifest, "-n", "shop", "--kubernetes-version", "1.32"));
            commands.put("set-size", new Invocation(Set.of(0), "set-size", "-f", editable.toString(), "shop/postgres", "data=30Gi"));
            commands.put("version", new Invocation(Set.of(0), "version"));
            commands.put("completion", new Invocation(Set.of(0), "completion", "bash"));
            commands.put("demo", new Invocation(Set.of(2), "demo", "--apply", "--speed", "fast", "--dir", tmp.resolve("demo").toString()));
            commands.put("--help", new Invocation(Set.of(0), "--help"));

            List<String> failures = new ArrayList<>();
            String help = null;
            for (Map.Entry<String, Invocation> c : commands.entrySet()) {
                List<String> cmd = new ArrayList<>(List.of(launcher));
                cmd.addAll(c.getValue().args());
                var r = dev.stsresize.testkit.Processes.run(new HashMap<>(env), tmp, java.time.Duration.ofSeconds(300), cmd.toArray(new String[0]));
                String seen = c.getKey() + ": exit " + r.code() + "\n--- stdout\n" + r.out() + "\n--- stderr\n" + r.err();
                if (!c.getValue().exits().contains(r.code()) || MISSING_CLASS.matcher(r.out() + r.err()).find() || (r.out() + r.err()).isBlank()) {
                    failures.add(seen);
                }
                if (c.getKey().equals("--help")) {
                    help = r.out();
                }
            }
            assertThat(failures).as("commands that failed from the archive").isEmpty();
            assertThat(Files.readString(editable)).as("set-size edited the copy").contains("30Gi");

            // every command the root's help lists is among those run here (simulate: the cluster they ran against)
            List<String> listed = new ArrayList<>();
            Matcher row = Pattern.compile("(?m)^  ([a-z][a-z-]+)  ").matcher(help.substring(help.indexOf("Commands:")));
            while (row.find()) {
                listed.add(row.group(1));
            }
            assertThat(listed).as("the root's commands").contains("plan", "simulate", "demo");
            listed.remove("simulate");
            assertThat(commands.keySet()).as("a row here for each command of the root's help").containsAll(listed);
        } finally {
            new ProcessBuilder("kill", "-TERM", Long.toString(simulate.pid())).start().waitFor();
            simulate.waitFor(30, TimeUnit.SECONDS);
        }
        String simulateErr = Files.readString(tmp.resolve("simulate.err"));
        assertThat(simulateErr).as("simulate's stderr").doesNotContainPattern(MISSING_CLASS);
    }

    private record Invocation(Set<Integer> exits, List<String> args) {
        Invocation(Set<Integer> exits, String... args) {
            this(exits, List.of(args));
        }
    }
}
