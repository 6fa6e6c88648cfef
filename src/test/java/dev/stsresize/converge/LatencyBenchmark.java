package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import dev.stsresize.sim.http.RecordedRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a timed test: prints how {@code plan -A} and the UI's first list slow down on a far API server,
 * with the simulator adding a latency L (0, 25, 50 ms; {@code -Dbench.latencies}) to every request,
 * on the demo's cluster and on 2,000 StatefulSets / 6,000 claims in 20 namespaces. The round trips on
 * the critical path are inferred as (wall at L − wall at 0) / L; the goal is at most 5. Each row is a
 * median of {@code -Dbench.runs} (default 5) runs, all rows measured round-robin in one run so the
 * machine's noise falls on all alike; {@code -Dbench.before=<a build's kubectl-stsresize.jar>} adds
 * that build's rows to the same run. Also prints each build's requests by kind, {@code kubectl get
 * sts,pvc,sc -A -o json} against the same server for the ratio at scale, and the load average. The
 * first screen's calls through the port are timed in its JVM: the longest chain of calls each sent
 * after the one before it was answered is the critical path counted without the machine's noise,
 * which on a loaded machine is larger than the latency itself.
 * Run with {@code mvn -B test -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=LatencyBenchmark}
 * ({@code -Dbench.scale=false} for the demo only, {@code -Dbench.demo=false} for the scale only,
 * {@code -Dbench.rows='first screen'} for the rows whose name matches). The first screen is timed to
 * its list drawn (the LISTs: what {@code ui} waits for before its first list) and, in the same runs,
 * to its proofs in (the rows "proofs in").
 */
@Tag("bench")
class LatencyBenchmark {
    @TempDir Path dir;

    /** A build measured: its name and class path. */
    record Build(String name, String classPath) {}

    @Test
    void plan_and_first_screen_on_a_far_server() throws Exception {
        List<Build> builds = new ArrayList<>();
        String before = System.getProperty("bench.before", "");
        if (!before.isEmpty()) {
            // the test classes (FirstScreen) after the build's jar, whose classes win
            builds.add(new Build("before", before + java.io.File.pathSeparator + testClasses()));
        }
        // with a build to compare, this one's classes run on that build's jar for their dependencies, so both
        // load them alike (from one shaded jar, not the test class path's hundred folders and jars)
        String sep = java.io.File.pathSeparator;
        builds.add(new Build("now", before.isEmpty() ? System.getProperty("java.class.path")
                : Path.of("target", "classes").toAbsolutePath() + sep + testClasses() + sep + before));
        List<Long> latencies = List.of(System.getProperty("bench.latencies", "0,25,50").split(",")).stream()
                .map(String::trim).map(Long::parseLong).toList();
        int runs = Integer.getInteger("bench.runs", 5);

        StringBuilder demoManifest = new StringBuilder();
        for (ObjectNode o : DemoScenario.manifest()) {
            demoManifest.append("---\n").append(Harness.YAML.writeValueAsString(o).replaceFirst("^---\n", ""));
        }
        System.out.printf("%nload average before: %s%n", loadAverage());
        if (Boolean.parseBoolean(System.getProperty("bench.demo", "true"))) {
            measure("demo (9 StatefulSets)", DemoScenario.cluster(), demoManifest.toString(), builds, latencies, runs, false);
        }
        if (Boolean.parseBoolean(System.getProperty("bench.scale", "true"))) {
            PlanBenchmark.Scale scale = PlanBenchmark.scale();
            measure("2,000 StatefulSets / 6,000 claims in 20 namespaces", scale.objects(), scale.manifest(), builds, latencies,
                    Integer.getInteger("bench.scaleRuns", 3), true);
        }
        System.out.printf("load average after: %s%n%n", loadAverage());
    }

    /**
     * apply's requests on a far server, measured only: in this JVM, through the port with every call
     * timed, at {@code -Dbench.applyLatency} (default 25 ms), for postgres alone and for postgres and
     * elasticsearch (one namespace). Prints the calls of the proofs and of the converge apart, and the
     * longest chain of calls each sent after the one before it was answered, so the round trips per
     * StatefulSet can be read off the difference (waits on watches count as one call: their time is the
     * resizer's and the controllers', not round trips). Also counts them without a clock ({@link CallDepths}) and
     * fails when one StatefulSet's converge takes more than {@link ApplyRoundTripsTest#MOST} in sequence.
     */
    @Test
    void apply_round_trips_per_statefulset() throws Exception {
        long latency = Long.getLong("bench.applyLatency", 25);
        System.out.printf("%napply on the demo's cluster, %d ms per request, in this JVM (calls through the port, calls in sequence, wall)%n", latency);
        for (List<String> names : List.of(List.of("postgres"), List.of("postgres", "elasticsearch"))) {
            try (Harness h = Harness.start(dir.resolve(String.join("-", names)), Demo.cluster())) {
                h.sim.faults().add(FaultRule.on(null, null, null, Fault.latency(latency)));
                List<long[]> calls = java.util.Collections.synchronizedList(new ArrayList<>());
                List<String> named = java.util.Collections.synchronizedList(new ArrayList<>());
                CallDepths depths = new CallDepths();
                dev.stsresize.cluster.Cluster timed = TimedCluster.of(depths.around(h.cluster()), calls, named);
                long start = System.nanoTime();
                int from = h.sim.requests().size();
                Assessment a = new Assessor(timed, Progress.NONE).assess(names.stream().map(Demo::declared).toList(), false,
                        Assessor.Depth.APPLY, false, java.util.Optional.empty());
                double proveSeconds = (System.nanoTime() - start) / 1e9;
                int proveCalls = calls.size();
                int proveChain = FirstScreen.longestChain(calls);
                String proveKinds = byKind(h.sim.requests().subList(from, h.sim.requests().size()));
                calls.clear();
                named.clear();
                depths.clear();
                from = h.sim.requests().size();
                start = System.nanoTime();
                Converger converger = h.converger(timed, "bench@host 1", GateAnswers.YES, Checkpoint.NONE);
                for (Assessed item : a.items()) {
                    StatefulSetResult r = converger.converge(item, Harness.options(), true);
                    if (r.outcome() != Outcome.CONVERGED) {
                        System.out.printf("  %s: %s %s%n", item.name(), r.outcome(), r.detail());
                    }
                }
                System.out.printf("  %s: proofs %d calls, %d in sequence, %.2f s (%s); converge %d calls, %d in sequence, %.2f s (%s)%n",
                        String.join(" + ", names), proveCalls, proveChain, proveSeconds, proveKinds, calls.size(),
                        FirstScreen.longestChain(calls), (System.nanoTime() - start) / 1e9,
                        byKind(h.sim.requests().subList(from, h.sim.requests().size())));
                // counted, not timed: the round trips besides the waits for controllers (the watches), the Events apart
                System.out.printf("  %s: converge %d in sequence besides %d watches and the capacity wait's %d reads (at most %d per StatefulSet)%n%s",
                        String.join(" + ", names), depths.inSequence(), depths.watches(), depths.waitReads(), ApplyRoundTripsTest.MOST, depths.byDepth());
                if (names.size() == 1 && depths.inSequence() > ApplyRoundTripsTest.MOST) {
                    throw new AssertionError(names + ": " + depths.inSequence() + " round trips in sequence, more than "
                            + ApplyRoundTripsTest.MOST + " (issue 37)");
                }
                if (Boolean.getBoolean("bench.trace")) {
                    // each call of the converge, in the order it ended, with its start and end after the converge began (ms)
                    for (int i = 0; i < calls.size(); i++) {
                        System.out.printf("    %6.0f %6.0f %s%n", (calls.get(i)[0] - start) / 1e6, (calls.get(i)[1] - start) / 1e6, named.get(i));
                    }
                }
            }
        }
    }

    private void measure(String title, List<ObjectNode> objects, String manifest, List<Build> builds, List<Long> latencies, int runs,
            boolean withKubectl) throws Exception {
        Path manifestFile = Files.createTempFile(dir, "manifest", ".yaml");
        Files.writeString(manifestFile, manifest);
        try (SimCluster sim = SimCluster.start()) {
            sim.load(objects.toArray(ObjectNode[]::new));
            awaitBound(sim);
            Path kubeconfig = Files.createTempFile(dir, "kubeconfig", "");
            sim.writeKubeconfig(kubeconfig);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            // the row names: "<build> plan", "<build> first screen", "kubectl get"
            Map<String, List<String>> commands = new LinkedHashMap<>();
            // the launcher's options for plan on this machine, as users run it
            List<String> options = dev.stsresize.launcher.LauncherOptions.forCommand("plan");
            for (Build b : builds) {
                List<String> jvm = new ArrayList<>(List.of(java));
                jvm.addAll(options);
                jvm.addAll(List.of("-Xshare:auto", "-cp", b.classPath()));
                List<String> plan = new ArrayList<>(jvm);
                plan.addAll(List.of("dev.stsresize.Main", "plan", "-A", "-f", manifestFile.toString(), "--kubeconfig",
                        kubeconfig.toString(), "-o", "json"));
                commands.put(b.name() + " plan", plan);
                List<String> screen = new ArrayList<>(jvm);
                screen.addAll(List.of(FirstScreen.class.getName(), kubeconfig.toString(), manifestFile.toString()));
                commands.put(b.name() + " first screen", screen);
            }
            String only = System.getProperty("bench.rows", "");
            commands.keySet().removeIf(name -> !only.isEmpty() && !name.matches(".*(" + only + ").*"));
            if (withKubectl && (only.isEmpty() || "kubectl get".matches(".*(" + only + ").*"))) {
                commands.put("kubectl get", List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "get", "sts,pvc,sc", "-A", "-o", "json"));
            }
            // warm the simulator's JIT and answer caches before anything is timed
            for (List<String> c : commands.values()) {
                run(c);
            }
            Map<String, List<Run>> results = new TreeMap<>();
            Map<String, List<RecordedRequest>> requests = new TreeMap<>();
            List<String> names = new ArrayList<>(commands.keySet());
            for (int r = 0; r < runs; r++) {
                for (int li = 0; li < latencies.size(); li++) {
                    // the order turns each round, so that no row always follows the same one
                    long latency = latencies.get((li + r) % latencies.size());
                    sim.faults().clear();
                    if (latency > 0) {
                        sim.faults().add(FaultRule.on(null, null, null, Fault.latency(latency)));
                    }
                    for (int k = 0; k < names.size(); k++) {
                        String name = names.get((k + r) % names.size());
                        int from = sim.requests().size();
                        Run run = run(commands.get(name));
                        results.computeIfAbsent(name + " @" + latency, x -> new ArrayList<>()).add(run);
                        if (run.proved() != null) {
                            results.computeIfAbsent(proofsRow(name) + " @" + latency, x -> new ArrayList<>()).add(run.proved());
                        }
                        requests.put(name + " @" + latency, List.copyOf(sim.requests().subList(from, sim.requests().size())));
                    }
                }
            }
            sim.faults().clear();
            System.out.printf("%n%s: medians of %d interleaved runs (wall s / peak RSS MiB)%n", title, runs);
            List<String> rows = new ArrayList<>();
            for (String name : names) {
                rows.add(name);
                if (results.containsKey(proofsRow(name) + " @" + latencies.get(0))) {
                    rows.add(proofsRow(name)); // the first screen's proofs in, from the same runs
                }
            }
            for (String name : rows) {
                Run base = median(results.get(name + " @0"));
                StringBuilder line = new StringBuilder(String.format("  %-24s", name));
                for (long latency : latencies) {
                    Run m = median(results.get(name + " @" + latency));
                    line.append(String.format("  L=%dms %.2f s / %d MiB", latency, m.seconds(), m.rssKiB() / 1024));
                    if (latency > 0 && base != null) {
                        line.append(String.format(" (+%.2f s = %.1f round trips)", m.seconds() - base.seconds(),
                                (m.seconds() - base.seconds()) * 1000 / latency));
                    }
                    if (m.calls() > 0) {
                        IntSummaryStatistics chains = results.get(name + " @" + latency).stream().mapToInt(Run::chain).summaryStatistics();
                        line.append(String.format(" [%d calls, %d-%d in sequence]", m.calls(), chains.getMin(), chains.getMax()));
                    }
                    if (m.exit() != 0 && m.exit() != 2 && m.exit() != 3) {
                        line.append(" exit ").append(m.exit()).append(": ").append(m.stderr().lines().limit(3).collect(Collectors.joining(" | ")));
                    }
                }
                System.out.println(line);
            }
            if (withKubectl && results.containsKey("kubectl get @0")) {
                for (Build b : builds) {
                    if (!results.containsKey(b.name() + " plan @0")) {
                        continue;
                    }
                    System.out.printf("  %s plan / kubectl get at L=0: %.2f%n", b.name(),
                            median(results.get(b.name() + " plan @0")).seconds() / median(results.get("kubectl get @0")).seconds());
                }
            }
            for (Build b : builds) {
                List<RecordedRequest> sent = requests.get(b.name() + " plan @" + latencies.get(0));
                if (sent == null) {
                    continue;
                }
                System.out.printf("  %s plan's requests: %d (%s)%n", b.name(), sent.size(), byKind(sent));
            }
        }
    }

    /** Until the volume binder has bound every claim (6,000 take a while on a busy machine): a Pending claim blocks its plan. */
    private static void awaitBound(SimCluster sim) throws InterruptedException {
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<ObjectNode> claims = sim.snapshot().stream().filter(o -> o.path("kind").asText().equals("PersistentVolumeClaim")).toList();
            long pending = claims.stream().filter(c -> !c.at("/status/phase").asText().equals("Bound")).count();
            if (pending == 0) {
                return;
            }
            Thread.sleep(1000);
        }
        System.out.println("  (not every claim was Bound after 5 minutes)");
    }

    /** The requests by kind: LISTs, rules reviews, access reviews, dry runs, kubelet summaries, others. */
    static String byKind(List<RecordedRequest> sent) {
        Map<String, Long> kinds = sent.stream().collect(Collectors.groupingBy(q -> {
            if (q.path().contains("selfsubjectrulesreviews")) {
                return "rules reviews";
            }
            if (q.path().contains("selfsubjectaccessreviews")) {
                return "access reviews";
            }
            if (q.dryRun()) {
                return "dry runs";
            }
            if (q.resource().equals("nodes/proxy")) {
                return "kubelet summaries";
            }
            if (q.verb().equals("list")) {
                return "LISTs";
            }
            return q.method() + " " + q.resource();
        }, TreeMap::new, Collectors.counting()));
        return kinds.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
    }

    /**
     * One run: wall seconds, peak RSS, exit code, stderr; for a first screen also its calls and the calls
     * in sequence up to the list drawn, and {@code proved}: the same up to its proofs in (null for others).
     */
    record Run(double seconds, long rssKiB, int exit, String stderr, int calls, int chain, Run proved) {}

    /** The row of a first screen's proofs, measured in the same runs as its list. */
    private static String proofsRow(String name) {
        return name.replace("first screen", "  proofs in");
    }

    static Run median(List<Run> runs) {
        if (runs == null || runs.isEmpty()) {
            return null;
        }
        List<Run> sorted = new ArrayList<>(runs);
        sorted.sort(java.util.Comparator.comparingDouble(Run::seconds));
        return sorted.get(sorted.size() / 2);
    }

    /**
     * One command's wall time: /usr/bin/time's for a command, or what {@link FirstScreen} prints
     * (from its connection to its decisions, without the JVM's start) when it prints it.
     */
    private Run run(List<String> command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(List.of("/usr/bin/time", "-f", "TIME %e %M"));
        full.addAll(command);
        Path err = Files.createTempFile(dir, "err", ".txt");
        Path out = Files.createTempFile(dir, "out", ".txt");
        Process p = new ProcessBuilder(full).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        int exit = p.waitFor();
        String text = Files.readString(err);
        String[] parts = text.lines().filter(l -> l.startsWith("TIME ")).reduce((a, b) -> b).orElse("TIME 0 0").split(" ");
        double seconds = Double.parseDouble(parts[1]);
        String screen = Files.readString(out).lines().filter(l -> l.startsWith("FIRST_SCREEN ")).findFirst().orElse("");
        int calls = 0;
        int chain = 0;
        Run proved = null;
        if (!screen.isEmpty()) {
            String[] f = screen.split(" ");
            seconds = Long.parseLong(f[1]) / 1000.0;
            calls = Integer.parseInt(f[3]);
            chain = Integer.parseInt(f[4]);
            if (f.length > 7) {
                proved = new Run(Long.parseLong(f[5]) / 1000.0, Long.parseLong(parts[2]), exit, text, Integer.parseInt(f[6]),
                        Integer.parseInt(f[7]), null);
            }
        }
        Files.delete(out);
        Files.delete(err);
        return new Run(seconds, Long.parseLong(parts[2]), exit, text, calls, chain, proved);
    }

    private static String testClasses() {
        return Path.of("target", "test-classes").toAbsolutePath().toString();
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
