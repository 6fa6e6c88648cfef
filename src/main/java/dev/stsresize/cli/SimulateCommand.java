package dev.stsresize.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.SimOptions;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.fault.FaultFile;
import dev.stsresize.sim.fault.FaultRule;
import dev.stsresize.sim.state.StateFileException;
import dev.stsresize.sim.state.StateFiles;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kubectl stsresize simulate}: serves a simulated cluster on 127.0.0.1 loaded from state
 * files, writes a kubeconfig for it, prints exactly one line {@code ready <url>} and serves until
 * SIGINT/SIGTERM, then saves the state when asked.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = "Serve a simulated Kubernetes API server on 127.0.0.1, loaded from state files, until interrupted.")
public final class SimulateCommand extends BaseCommand {
    @Option(names = "--state", arity = "1..*", paramLabel = "FILE",
            description = "YAML/JSON files of objects to load (Lists and multi-document files; status kept as given).")
    List<Path> state = new ArrayList<>();

    @Option(names = "--kubeconfig-out", required = true, paramLabel = "FILE",
            description = "Where to write a kubeconfig for the simulated cluster (admin context 'sim').")
    Path kubeconfigOut;

    @Mixin KeepKubeconfigOption keepKubeconfig;

    @Option(names = "--port", defaultValue = "0", description = "Port on 127.0.0.1; 0 (default) picks a free one.")
    int port;

    @Option(names = "--log", paramLabel = "FILE", description = "Write every request as a JSON line to FILE.")
    Path log;

    @Option(names = "--save", paramLabel = "FILE", description = "On exit, write the state to FILE as a YAML List.")
    Path save;

    @Option(names = "--speed", defaultValue = "fast", description = "Controller speed: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}; realistic takes seconds, like a real cluster).")
    SimSpeed speed;

    @Option(names = "--no-controllers", description = "Run no controllers: the API server only stores objects.")
    boolean noControllers;

    @Option(names = "--faults", paramLabel = "FILE",
            description = "Inject faults from a YAML file: {faults: [{verb, resource, name, nth, times, probability, seed, status, "
                    + "reason, message, retryAfterSeconds, latencyMillis, drop, cutWatchAfterEvents}], "
                    + "down: [{component: kube-controller-manager|kubelet|csi-resizer, afterSeconds, forSeconds}], "
                    + "featureGates: {RecoverVolumeExpansionFailure: false}} (docs/commands.md, simulate).")
    Path faults;

    /** Every flag before the server starts: a bad one leaves no port and no kubeconfig behind. */
    @Override
    protected void validate() {
        if (port < 0 || port > 65535) {
            throw invalid("--port " + port + " is not a port; use 1-65535, or 0 to pick a free one.");
        }
        for (Path in : state) {
            readable(in, "--state");
        }
        if (faults != null) {
            readable(faults, "--faults");
        }
        writableIn(kubeconfigOut, "--kubeconfig-out");
        if (log != null) {
            writableIn(log, "--log");
        }
        if (save != null) {
            writableIn(save, "--save");
        }
    }

    private void readable(Path file, String flag) {
        if (!java.nio.file.Files.isRegularFile(file) || !java.nio.file.Files.isReadable(file)) {
            throw invalid(flag + " " + file + " is not a readable file. Check the path.");
        }
    }

    /** The folder a file is to be written into exists: the simulator writes it only once it serves. */
    private void writableIn(Path file, String flag) {
        Path folder = file.toAbsolutePath().getParent();
        if (folder == null || !java.nio.file.Files.isDirectory(folder) || !java.nio.file.Files.isWritable(folder)) {
            throw invalid(flag + " " + file + " cannot be written: its folder " + folder + " is not a writable folder. Create it,"
                    + " or choose another path.");
        }
        if (java.nio.file.Files.isDirectory(file)) {
            throw invalid(flag + " " + file + " is a folder; name a file in it.");
        }
    }

    @Override
    protected int run() throws InterruptedException {
        return new Serving().serve();
    }

    /**
     * Everything that touches the simulated cluster. picocli reflects on the command's own members at every
     * start ({@code --help}, {@code plan}), so a simulator type among them would be loaded then; in this
     * class one is loaded only when {@code simulate} runs.
     */
    private final class Serving {
        private Integer serve() throws InterruptedException {
            List<ObjectNode> objects = readState();
            refuseUnservedKinds(objects);
            List<FaultRule> rules = faultRules();
            List<FaultFile.Outage> outages = outages();
            java.util.Map<String, Boolean> gates = featureGates();
            SimCluster sim = start();
            rules.forEach(sim.faults()::add);
            gates.forEach(sim.registry().featureGates()::set);
            sim.load(objects.toArray(new ObjectNode[0]));
            // a context per ServiceAccount of the state, so scripts can act as each (authorised by the state's RBAC)
            for (ObjectNode sa : sim.store().list(sim.type("v1", "ServiceAccount"), "")) {
                sim.tokenFor(sa.path("metadata").path("namespace").asText(), sa.path("metadata").path("name").asText());
            }
            RemovedWhenDone removed = keepKubeconfig.removalOf(kubeconfigOut, spec.commandLine().getErr());
            sim.writeKubeconfig(kubeconfigOut);
            ControllerManager controllers = noControllers ? null : ControllerManager.start(sim, dev.stsresize.sim.controller.Speed.valueOf(speed.name()));
            if (controllers != null) {
                outages.forEach(o -> controllers.outage(o.component(), o.after(), o.lasting()));
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    if (controllers != null) {
                        controllers.close();
                    }
                    if (save != null) {
                        StateFiles.write(save, sim.snapshot());
                    }
                } finally {
                    sim.close();
                    if (removed != null) {
                        removed.close();
                    }
                    stopped.countDown();
                }
            }, "sim-shutdown"));
            PrintWriter out = spec.commandLine().getOut();
            out.println("ready " + sim.url());
            out.flush();
            stopped.await();
            return ExitCodes.OK;
        }

        /** The feature gates of --faults (featureGates:), read before the server starts. */
        private java.util.Map<String, Boolean> featureGates() {
            if (faults == null) {
                return java.util.Map.of();
            }
            try {
                java.util.Map<String, Boolean> gates = FaultFile.featureGates(faults);
                gates.forEach((name, on) -> new dev.stsresize.sim.admission.FeatureGates().set(name, on)); // an unknown name refused now
                return gates;
            } catch (IllegalArgumentException e) {
                throw new UserError(e.getMessage() + " Fix --faults " + faults + " (docs/commands.md, simulate, lists the fields).", e);
            }
        }

        /** Read before the server starts, like the state: a bad file leaves nothing behind. */
        private List<FaultRule> faultRules() {
            if (faults == null) {
                return List.of();
            }
            try {
                return FaultFile.read(faults);
            } catch (IllegalArgumentException e) {
                throw new UserError(e.getMessage() + " Fix --faults " + faults + " (README, Simulated cluster, lists the fields).", e);
            }
        }

        /** The outages of --faults (down:), read with its rules; there is nothing to take down without controllers. */
        private List<FaultFile.Outage> outages() {
            if (faults == null) {
                return List.of();
            }
            List<FaultFile.Outage> outages;
            try {
                outages = FaultFile.outages(faults);
            } catch (IllegalArgumentException e) {
                throw new UserError(e.getMessage() + " Fix --faults " + faults + " (docs/commands.md, simulate, lists the fields).", e);
            }
            if (noControllers && !outages.isEmpty()) {
                throw new UserError("--faults " + faults + " takes " + outages.get(0).component() + " down, but --no-controllers runs"
                        + " none: remove --no-controllers, or the down: list.");
            }
            return outages;
        }

        private List<ObjectNode> readState() {
            try {
                return StateFiles.read(state);
            } catch (StateFileException e) {
                throw new UserError(e.getMessage(), e);
            }
        }

        /** Checked before the server starts, so a refused state leaves no kubeconfig and no port behind. */
        private static void refuseUnservedKinds(List<ObjectNode> objects) {
            for (ObjectNode o : objects) {
                if (dev.stsresize.sim.usage.UsageDocument.is(o)) {
                    continue; // the simulator's own usage document (the demo's snapshot has one): it configures, is not stored
                }
                String apiVersion = o.path("apiVersion").asText();
                String kind = o.path("kind").asText();
                if (dev.stsresize.sim.store.Catalog.standard().byKind(apiVersion, kind).isEmpty()) {
                    String ns = o.path("metadata").path("namespace").asText("");
                    throw new UserError("the state holds " + kind + " " + (ns.isEmpty() ? "" : ns + "/") + o.path("metadata").path("name").asText()
                            + " (" + apiVersion + "), a kind the simulated cluster does not serve; remove it from the --state files "
                            + "(it serves " + String.join(", ", dev.stsresize.sim.store.Catalog.standard().all().stream()
                                .filter(t -> t.verbs().contains("get")).map(t -> t.resource()).toList()) + ").");
                }
            }
        }

        private SimCluster start() {
            try {
                return SimCluster.start(SimOptions.defaults().withPort(port).withLogFile(log));
            } catch (UncheckedIOException e) {
                if (e.getCause() instanceof BindException) {
                    throw new UserError("port " + port + " on 127.0.0.1 is already in use; choose another with --port, or 0 to "
                            + "pick a free one.", e);
                }
                throw new UserError("cannot start the simulated cluster: " + e.getMessage() + "; check --log is writable.", e);
            }
        }
    }
}
