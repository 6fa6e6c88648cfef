package dev.stsresize.launcher;

import dev.stsresize.testkit.Processes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The JVM options the launcher gives a command on this machine, for benchmarks that start the plugin's JVM
 * themselves: asked from the launcher's source (with an empty jar beside it and a java that only prints how it
 * was run), so a benchmark measures what users run rather than a copy of the flags that drifts.
 */
public final class LauncherOptions {
    private LauncherOptions() {}

    /** The options before {@code -cp} for {@code command}, without the class-data archive's (which benchmarks give themselves). */
    public static List<String> forCommand(String command) {
        return forCommand(Path.of("src/main/sh/kubectl-stsresize"), command);
    }

    /**
     * The options another build's launcher gives {@code command}: the one beside {@code jar} (as {@code mvn package}
     * leaves it in target/), else this build's.
     */
    public static List<String> besideJar(Path jar, String command) {
        Path launcher = jar.toAbsolutePath().resolveSibling("kubectl-stsresize");
        return Files.isRegularFile(launcher) ? forCommand(launcher, command) : forCommand(command);
    }

    static List<String> forCommand(Path source, String command) {
        try {
            Path dir = Files.createTempDirectory("launcher-options");
            Path launcher = Files.copy(source, dir.resolve("kubectl-stsresize"));
            Files.createFile(dir.resolve("kubectl-stsresize.jar"));
            Path home = Files.createDirectories(dir.resolve("jdk/bin")).getParent();
            Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + Runtime.version().feature() + "\"\n");
            Path java = home.resolve("bin/java");
            Files.writeString(java, "#!/bin/sh\necho \"$*\"\n");
            Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
            var r = Processes.run(Map.of("STSRESIZE_JAVA", home.toString(), "STSRESIZE_CDS", "0", "PATH", System.getenv("PATH")),
                    dir, Duration.ofSeconds(30), "/bin/sh", launcher.toString(), command);
            deleteAll(dir);
            String line = r.out().strip();
            int cp = line.indexOf(" -cp ");
            if (r.code() != 0 || cp < 0) {
                throw new IllegalStateException("the launcher did not run its java as expected: exit " + r.code() + "\n" + r.out() + r.err());
            }
            return Arrays.asList(line.substring(0, cp).split(" "));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void deleteAll(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
