package dev.stsresize.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Tools on PATH and child processes, as the tests that drive real programs (kubectl, sh, the launcher) need them. */
public final class Processes {
    private Processes() {}

    /** How a child process ended, with all it wrote. */
    public record Result(int code, String out, String err) {}

    /** The executable {@code tool} in a directory of PATH, or null. */
    public static Path which(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return Path.of(dir, tool);
            }
        }
        return null;
    }

    public static boolean onPath(String tool) {
        return which(tool) != null;
    }

    /**
     * Runs {@code cmd} in {@code dir} with {@code env} added to this JVM's environment and stdin from
     * /dev/null; stdout and stderr are read side by side, so neither pipe can fill and stall the child.
     */
    public static Result run(Map<String, String> env, Path dir, Duration timeout, String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertThat(p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)).as("process finished").isTrue();
        return new Result(p.exitValue(), out, err.join());
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
