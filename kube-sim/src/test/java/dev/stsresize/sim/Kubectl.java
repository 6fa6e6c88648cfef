package dev.stsresize.sim;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real kubectl on PATH, run against a kubeconfig; tests skip (saying why) only when it is absent. */
final class Kubectl {
    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    private final Path kubeconfig;
    private final Path cacheDir;

    Kubectl(Path kubeconfig, Path cacheDir) {
        this.kubeconfig = kubeconfig;
        this.cacheDir = cacheDir;
    }

    /** The real kubectl as the cluster's admin, through a kubeconfig written to {@code dir}, which is its cache too. */
    static Kubectl admin(SimCluster sim, Path dir) {
        Path kc = dir.resolve("kubeconfig");
        sim.writeKubeconfig(kc);
        return new Kubectl(kc, dir);
    }

    Path kubeconfig() {
        return kubeconfig;
    }

    static boolean available() {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "kubectl"))) {
                return true;
            }
        }
        return false;
    }

    static final String ABSENT = "kubectl is not on PATH: the kubectl half of the conformance tests cannot run here";

    Result run(String stdin, String... args) {
        return runWithEnv(java.util.Map.of(), stdin, args);
    }

    /** As {@link #run}, with extra environment variables (e.g. EDITOR for {@code kubectl edit}). */
    Result runWithEnv(java.util.Map<String, String> env, String stdin, String... args) {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--cache-dir", cacheDir.toString()));
        cmd.addAll(List.of(args));
        try {
            Path in = Files.createTempFile(cacheDir, "stdin", ".txt");
            Files.writeString(in, stdin == null ? "" : stdin);
            Path out = Files.createTempFile(cacheDir, "out", ".txt");
            Path err = Files.createTempFile(cacheDir, "err", ".txt");
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().putAll(env);
            Process p = pb.redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("kubectl " + String.join(" ", args) + " did not finish in 60 s");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
