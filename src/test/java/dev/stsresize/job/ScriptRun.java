package dev.stsresize.job;

import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.controller.ControllerManager;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code stsresize.sh} as a local process with the Job's environment, against a
 * simulated cluster through the real kubectl and jq on PATH; tests skip, saying why, when one is absent.
 */
final class ScriptRun {
    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }

        List<String> verdicts() {
            return out.lines().filter(l -> l.startsWith("verdict ")).toList();
        }
    }

    static String missingTools() {
        for (String tool : List.of("kubectl", "jq")) {
            if (!onPath(tool)) {
                return tool + " is not on PATH: the script's tests run the real kubectl and jq (CI installs jq; kubectl v1.32)";
            }
        }
        return null;
    }

    static boolean onPath(String tool) {
        return which(tool) != null;
    }

    static Path which(String tool) {
        return dev.stsresize.testkit.Processes.which(tool);
    }

    /** The real kubectl as the given kubeconfig's current context, stdin from {@code stdin}. */
    static Result kubectl(Path kubeconfig, Path dir, String stdin, String... args) {
        return unchecked(() -> {
            List<String> cmd = new java.util.ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(),
                    "--cache-dir", dir.resolve("kubectl-cache").toString()));
            cmd.addAll(List.of(args));
            Path in = Files.createTempFile(dir, "stdin", ".txt");
            Files.writeString(in, stdin == null ? "" : stdin);
            Path out = Files.createTempFile(dir, "out", ".txt");
            Path err = Files.createTempFile(dir, "err", ".txt");
            Process p = new ProcessBuilder(cmd).redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            return awaitExit(p, 60, out, err, "kubectl " + String.join(" ", args), false);
        });
    }

    /** A kubeconfig whose current context is ServiceAccount NS/NAME (its bearer token, over TLS like any cluster's). */
    static Path kubeconfigAs(SimCluster sim, String namespace, String serviceAccount, Path dir) {
        sim.tokenFor(namespace, serviceAccount);
        Path kc = dir.resolve("kubeconfig-" + namespace + "-" + serviceAccount);
        try {
            Files.writeString(kc, sim.kubeconfig().replace("current-context: sim\n",
                    "current-context: sim-" + namespace + "-" + serviceAccount + "\n"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return kc;
    }

    static Path adminKubeconfig(SimCluster sim, Path dir) {
        Path kc = dir.resolve("kubeconfig-admin");
        sim.writeKubeconfig(kc);
        return kc;
    }

    /** The script with RESIZE_NAMESPACE and RESIZE_DECLARED, HOME and TMPDIR in a scratch folder, as in the Job. */
    static Result run(Path kubeconfig, String namespace, String declaredJson, Path dir) {
        return unchecked(() -> {
            Path script = dir.resolve(Script.RESOURCE);
            if (!Files.exists(script)) {
                Files.writeString(script, Script.text(), StandardCharsets.UTF_8);
            }
            // one HOME per folder: kubectl's discovery cache stays warm across runs, as in one Job pod
            Path home = Files.createDirectories(dir.resolve("home"));
            Path out = Files.createTempFile(dir, "out", ".txt");
            Path err = Files.createTempFile(dir, "err", ".txt");
            ProcessBuilder pb = new ProcessBuilder("sh", script.toString()).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Map<String, String> env = pb.environment();
            env.keySet().removeIf(k -> k.startsWith("KUBE") || k.startsWith("RESIZE_"));
            env.put("KUBECONFIG", kubeconfig.toString());
            env.put("HOME", home.toString());
            env.put("TMPDIR", home.toString());
            env.put("RESIZE_NAMESPACE", namespace);
            env.put("RESIZE_DECLARED", declaredJson);
            return awaitExit(pb.start(), 180, out, err, "the script", true);
        });
    }

    /** Closes what a test class started, the controllers before the cluster they watch; either may not have started. */
    static void stop(ControllerManager controllers, SimCluster sim) {
        if (controllers != null) {
            controllers.close();
        }
        if (sim != null) {
            sim.close();
        }
    }

    /** The process's exit and output once it ends; one still running after {@code seconds} is killed and the test fails naming it. */
    private static Result awaitExit(Process p, int seconds, Path out, Path err, String what, boolean stderrIfLate)
            throws IOException, InterruptedException {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(what + " did not finish in " + seconds + " s" + (stderrIfLate ? "\nstderr so far:\n" + Files.readString(err) : ""));
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private interface ProcessCall {
        Result call() throws IOException, InterruptedException;
    }

    private static Result unchecked(ProcessCall call) {
        try {
            return call.call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
