package dev.stsresize.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.stsresize.UserError;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.state.StateFileException;
import dev.stsresize.sim.state.StateFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kubectl stsresize demo}: a simulated cluster with the built-in scenario (one StatefulSet
 * per case the plugin handles) and its controllers, the matching manifest and a kubeconfig in a
 * temporary folder. On a terminal it opens the interactive UI on it (the same {@code ui} a user would
 * type) and stops when the UI closes, unless {@code --keep}; without one it prints the commands to try
 * and serves until Ctrl-C.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start a simulated cluster with one StatefulSet per case, and open the interactive UI on it.",
            "Writes the matching manifest and a kubeconfig; on a terminal q quits the UI and stops the cluster."
                    + " Without a terminal it prints the commands to try, and serves until Ctrl-C."})
public final class DemoCommand extends BaseCommand {
    /** What a running demo offers while it serves: where its files are and the cluster itself. */
    public record Demo(Path dir, Path manifest, Path kubeconfig, Path live, SimCluster cluster) {}

    @Option(names = "--speed", defaultValue = "realistic",
            description = "How fast the simulated controllers act: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, seconds like a real cluster).")
    SimSpeed speed;

    @Option(names = "--keep", description = "Keep the cluster serving after the interactive UI closes, for kubectl or k9s, "
            + "until Ctrl-C. Without a terminal the demo opens no UI and always serves until Ctrl-C.")
    boolean keep;

    @Option(names = "--apply", description = "Run the whole converge non-interactively (apply --yes against the demo), "
            + "print the outcome per StatefulSet and exit with apply's code: 2, since the scenario holds refusals on purpose.")
    boolean apply;

    /** Which cluster the demo serves: the growths and refusals, or a class that cannot expand, grown by copy. */
    enum Scenario { grow, copy }

    @Option(names = "--scenario", defaultValue = "grow", paramLabel = "NAME",
            description = "grow: StatefulSets to grow in place and ones refused on purpose (default); copy: a StatefulSet on a class"
                    + " that cannot expand (local-path), grown by copy (--copy is passed to apply and ui).")
    Scenario scenario;

    @Option(names = "--dir", paramLabel = "DIR", description = "Write manifest.yaml, kubeconfig and live.yaml here instead of a new temporary folder.")
    Path dir;

    @Mixin KeepKubeconfigOption keepKubeconfig;

    private final Environment environment;
    private final Consumer<Demo> whileServing;
    private final BooleanSupplier stdoutIsTerminal;

    public DemoCommand(Environment environment) {
        this(environment, DemoCommand::serveUntilInterrupted, environment.stdoutIsTerminal());
    }

    /** For tests: {@code whileServing} runs against the started demo, which stops when it returns. */
    DemoCommand(Environment environment, Consumer<Demo> whileServing) {
        this(environment, whileServing, () -> false);
    }

    /** For tests: also whether stdout is a terminal (the UI opens through the command tree then). */
    DemoCommand(Environment environment, Consumer<Demo> whileServing, BooleanSupplier stdoutIsTerminal) {
        this.environment = environment;
        this.whileServing = whileServing;
        this.stdoutIsTerminal = stdoutIsTerminal;
    }

    /** --dir, when given, is a folder or can be made one: checked by making it, as nothing else is there yet. */
    @Override
    protected void validate() {
        if (dir != null && Files.exists(dir) && !Files.isDirectory(dir)) {
            throw invalid("--dir " + dir + " is a file, not a folder; choose a folder (it is created when missing).");
        }
    }

    @Override
    protected int run() {
        Path folder = folder();
        Path manifest = folder.resolve("manifest.yaml");
        Path kubeconfig = folder.resolve("kubeconfig");
        Path live = folder.resolve("live.yaml");
        try {
            return new Serving().serve(folder, manifest, kubeconfig, live);
        } finally {
            removeEmptyState(folder);
        }
    }

    /**
     * The state folder {@link #journalledBeside} names is made by the first run's journal and emptied again when the
     * run ends: left empty, it is a folder the operator did not ask for. One that holds a journal stays (a run to resume).
     */
    private static void removeEmptyState(Path folder) {
        Path state = folder.resolve("state");
        for (Path p : List.of(state.resolve("kubectl-stsresize"), state)) {
            try {
                Files.deleteIfExists(p); // refused for a folder that is not empty: kept then
            } catch (IOException e) {
                return; // not empty, or not ours to remove: kept
            }
        }
    }

    /**
     * Everything that touches the simulated cluster. picocli reflects on the command's own members at every
     * start ({@code --help}, {@code plan}), so a simulator type among them would be loaded then; in this
     * class one is loaded only when the demo runs.
     */
    private final class Serving {
        private Integer serve(Path folder, Path manifest, Path kubeconfig, Path live) {
            try (SimCluster sim = SimCluster.start();
                    RemovedWhenDone removed = keepKubeconfig.removalOf(kubeconfig, spec.commandLine().getErr())) {
                boolean copy = scenario == Scenario.copy;
                sim.load((copy ? DemoScenario.copyCluster() : DemoScenario.cluster()).toArray(new ObjectNode[0]));
                writeManifest(manifest, copy ? DemoScenario.copyManifest() : DemoScenario.manifest());
                sim.writeKubeconfig(kubeconfig);
                writeLive(live, sim);
                try (ControllerManager controllers = ControllerManager.start(sim, dev.stsresize.sim.controller.Speed.valueOf(speed.name()))) {
                    boolean ui = !apply && stdoutIsTerminal.getAsBoolean();
                    banner(spec.commandLine().getOut(), sim, manifest, kubeconfig, live, ui);
                    if (apply) {
                        int code = applyAll(manifest, kubeconfig);
                        PrintWriter out = spec.commandLine().getOut();
                        out.println();
                        out.println("The demo is over and its simulated cluster stopped. Its manifest and the capture taken at start stay in "
                                + folder + " for an offline plan:");
                        out.println("  kubectl stsresize plan -f " + manifest + " --live " + live + " -A");
                        out.flush();
                        return code;
                    }
                    if (ui) {
                        int code = ui(manifest, kubeconfig);
                        if (!keep) {
                            // the screen is gone: say what became of the cluster and where its files stay
                            PrintWriter out = spec.commandLine().getOut();
                            out.println("The UI closed; the simulated cluster is stopped (--keep keeps it serving). Its manifest and "
                                    + "the capture taken at start stay in " + folder + " for an offline plan:");
                            out.println("  kubectl stsresize plan -f " + manifest + " --live " + live + " -A");
                            out.flush();
                            return code;
                        }
                        PrintWriter out = spec.commandLine().getOut();
                        out.println("The UI closed; the simulated cluster keeps serving at " + sim.url() + " (--keep). Try:");
                        out.println("  kubectl --kubeconfig " + kubeconfig + " get sts,pvc -A");
                        out.println("Serving until Ctrl-C.");
                        out.flush();
                    }
                    whileServing.accept(new Demo(folder, manifest, kubeconfig, live, sim));
                }
            }
            return ExitCodes.OK;
        }

        private void banner(PrintWriter out, SimCluster sim, Path manifest, Path kubeconfig, Path live, boolean ui) {
            String kc = "--kubeconfig " + kubeconfig;
            out.println("A simulated cluster serves at " + sim.url() + " (speed " + speed + "), with these StatefulSets:");
            for (String d : scenario == Scenario.copy ? DemoScenario.copyDescriptions() : DemoScenario.descriptions()) {
                out.println("  " + d);
            }
            out.println();
            out.println("Files:");
            out.println("  " + manifest + "   what the operator declares (the sizes to grow to)");
            out.println("  " + kubeconfig + "     admin access to the simulated cluster" + (keepKubeconfig.keep ? "" : ", removed when the demo ends"));
            out.println("  " + live + "      the cluster as it was at start, for plan");
            out.println();
            if (apply) {
                // the cluster stops when the apply ends: commands against it would find nothing
                out.println("Applying every change the plugin may make, as an operator would with --yes; the cluster stops after.");
                out.flush();
                return;
            }
            out.println("Try:");
            out.println("  kubectl " + kc + " get sts,pvc -A");
            out.println("  kubectl stsresize plan " + kc + " -f " + manifest + " -A");
            out.println("  kubectl stsresize apply " + kc + " -f " + manifest + " -A" + copyFlag() + "          # asks before each write");
            out.println("  kubectl stsresize plan -f " + manifest + " --live " + live + " -A   # offline, against the capture");
            out.println();
            out.println(ui ? "Opening the interactive UI on it (q quits" + (keep ? "; the cluster keeps serving after, --keep)." : " and stops the cluster).")
                    : "Serving until Ctrl-C.");
            out.flush();
        }

        private void writeLive(Path live, SimCluster sim) {
            try {
                StateFiles.write(live, sim.snapshot());
            } catch (StateFileException e) {
                throw new UserError(e.getMessage(), e);
            }
        }
    }

    /** The same apply a user would type, through the same command tree, answering every gate with --yes. */
    private int applyAll(Path manifest, Path kubeconfig) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        out.println("Running: kubectl stsresize apply --kubeconfig " + kubeconfig + " -f " + manifest + " -A --yes" + copyFlag());
        out.flush();
        List<String> args = new java.util.ArrayList<>(List.of("apply", "--kubeconfig", kubeconfig.toString(), "-f", manifest.toString(), "-A",
                "--yes"));
        if (scenario == Scenario.copy) {
            args.add("--copy");
        }
        return new Cli(out, err, journalledBeside(manifest)).run(args.toArray(String[]::new));
    }

    /** The interactive UI on the demo, as a user would open it: {@code ui --kubeconfig K -f M -A}. */
    private int ui(Path manifest, Path kubeconfig) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        out.println("Opening: kubectl stsresize ui --kubeconfig " + kubeconfig + " -f " + manifest + " -A" + copyFlag());
        out.flush();
        List<String> args = new java.util.ArrayList<>(List.of("ui", "--kubeconfig", kubeconfig.toString(), "-f", manifest.toString(), "-A"));
        if (scenario == Scenario.copy) {
            args.add("--copy");
        }
        return new Cli(out, err, journalledBeside(manifest).onConsole()).run(args.toArray(String[]::new));
    }

    /** " --copy" for the copy scenario: the opt-in every command of it needs. */
    private String copyFlag() {
        return scenario == Scenario.copy ? " --copy" : "";
    }

    /** The demo's own runs keep their journal beside its files: never in the operator's state folder, among real runs. */
    private Environment journalledBeside(Path manifest) {
        Map<String, String> env = new HashMap<>(environment.variables());
        env.put("XDG_STATE_HOME", manifest.getParent().resolve("state").toString());
        return environment.withVariables(env);
    }

    private Path folder() {
        try {
            if (dir == null) {
                return Files.createTempDirectory("stsresize-demo-");
            }
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UserError("cannot create the demo folder " + (dir == null ? "in the temporary directory" : dir) + ": "
                    + e.getMessage() + "; choose a writable folder with --dir.", e);
        }
    }

    private static void writeManifest(Path file, List<ObjectNode> objects) {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));
        StringBuilder b = new StringBuilder();
        try {
            for (ObjectNode o : objects) {
                b.append("---\n").append(yaml.writeValueAsString(o));
            }
            Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("cannot write the demo manifest " + file + ": " + e.getMessage() + "; choose a writable folder with --dir.", e);
        }
    }

    private static void serveUntilInterrupted(Demo demo) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "demo-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
