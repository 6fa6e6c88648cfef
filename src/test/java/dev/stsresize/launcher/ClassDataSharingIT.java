package dev.stsresize.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's start-up archive: trained in the background on first use into the user's cache,
 * used from then on, silently ignored and retrained when the jar changes, and never a word from the
 * JVM on the user's terminal. JDK 17 (the default Java) and, where installed, JDK 25's AOT cache.
 */
class ClassDataSharingIT {
    private static final Path LAUNCHER = Paths.get(System.getProperty("stsresize.launcher", "target/kubectl-stsresize"))
            .toAbsolutePath();
    private static final Path JDK25 = Paths.get(System.getProperty("stsresize.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64"));

    @Test
    void jdk17TrainsACdsArchiveUsesItAndRetrainsForANewJar(@TempDir Path tmp) throws Exception {
        lifecycle(tmp, Map.of(), "cds-", ".jsa");
    }

    @Test
    void jdk25TrainsAnAotCache(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isExecutable(JDK25.resolve("bin/java")), "no JDK 25 at " + JDK25 + " (-Dstsresize.jdk25=DIR)");
        lifecycle(tmp, Map.of("JAVA_HOME", JDK25.toString()), "aot-", ".aot");
    }

    private void lifecycle(Path tmp, Map<String, String> java, String prefix, String suffix) throws Exception {
        // a private install, so the test can swap its jar like an upgrade does
        Path home = Files.createDirectories(tmp.resolve("install"));
        Path launcher = Files.copy(LAUNCHER, home.resolve("kubectl-stsresize"));
        Path jar = Files.copy(LAUNCHER.resolveSibling("kubectl-stsresize.jar"), home.resolve("kubectl-stsresize.jar"));
        Path cache = tmp.resolve("cache/kubectl-stsresize");
        Map<String, String> env = new HashMap<>(java);
        env.put("XDG_CACHE_HOME", tmp.resolve("cache").toString());
        env.put("STSRESIZE_CDS", "1");

        LauncherIT.Run first = LauncherIT.run(env, tmp, launcher.toString(), "version");
        assertThat(first.code()).as(first.describe()).isZero();
        assertThat(first.err()).as(first.describe()).isEmpty();
        Path archive = awaitArchive(cache, prefix, suffix, null);

        // used: a running plugin (simulate serves until stopped) has the archive mapped
        assertThat(mapsArchive(env, tmp, launcher, archive)).as("the JVM maps " + archive).isTrue();

        // an upgrade: a new jar (and the launcher that comes with it); the old archive is stale
        Files.writeString(launcher, Files.readString(launcher).replaceFirst("jar_sum=[0-9a-f]+", "jar_sum=" + "1".repeat(64)));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));
        LauncherIT.Run stale = LauncherIT.run(env, tmp, launcher.toString(), "plan", "--help");
        assertThat(stale.code()).as(stale.describe()).isZero();
        assertThat(stale.err()).as("no JVM warning about the stale archive\n" + stale.describe()).isEmpty();
        Path retrained = awaitArchive(cache, prefix, suffix, archive);
        assertThat(Files.exists(archive)).as("the stale archive is removed").isFalse();

        // a jar changed behind the launcher's back: the JVM refuses the archive, silently (plan --help: version
        // and --help off a terminal run without the archive, see the launcher)
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(60)));
        LauncherIT.Run foreign = LauncherIT.run(env, tmp, launcher.toString(), "plan", "--help");
        assertThat(foreign.code()).as(foreign.describe()).isZero();
        assertThat(foreign.err()).as(foreign.describe()).isEmpty();
        assertThat(retrained).exists();

        // and off when asked
        LauncherIT.Run off = LauncherIT.run(Map.of("STSRESIZE_CDS", "0", "XDG_CACHE_HOME", tmp.resolve("none").toString()),
                tmp, launcher.toString(), "version");
        assertThat(off.code()).as(off.describe()).isZero();
        assertThat(tmp.resolve("none")).doesNotExist();
    }

    private static boolean mapsArchive(Map<String, String> env, Path tmp, Path launcher, Path archive) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "no /proc: cannot see what the JVM maps");
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "simulate", "--state",
                Path.of("examples/live-snapshot.yaml").toAbsolutePath().toString(), "--kubeconfig-out",
                tmp.resolve("sim.kubeconfig").toString()).directory(tmp.toFile());
        pb.environment().putAll(env);
        pb.redirectError(tmp.resolve("sim.err").toFile());
        Process p = pb.start();
        try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()))) {
            String line = out.readLine();
            assertThat(line).as("simulate's first line; stderr: " + Files.readString(tmp.resolve("sim.err"))).startsWith("ready ");
            return Files.readString(Path.of("/proc/" + p.pid() + "/maps")).contains(archive.toString());
        } finally {
            p.destroy();
            p.waitFor();
        }
    }

    /** The background training's result, waited for (it runs detached, at low priority on a busy machine). */
    private static Path awaitArchive(Path cache, String prefix, String suffix, Path not) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(4));
        while (Instant.now().isBefore(deadline)) {
            if (Files.isDirectory(cache)) {
                try (Stream<Path> files = Files.list(cache)) {
                    List<Path> found = files.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.startsWith(prefix) && n.endsWith(suffix) && !p.equals(not);
                    }).toList();
                    if (!found.isEmpty() && !lockHeld(cache)) {
                        // the trainer removes its lock last: wait for it, or it races the temp dir's cleanup
                        return found.get(0);
                    }
                    assertThat(Files.list(cache).map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".failed"));
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no " + prefix + "*" + suffix + " archive (with its training finished) in " + cache);
    }

    private static boolean lockHeld(Path cache) throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(".lock"));
        }
    }
}
