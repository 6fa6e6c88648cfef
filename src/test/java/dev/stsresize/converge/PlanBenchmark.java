package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.launcher.LauncherOptions;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.http.RecordedRequest;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a timed test: prints {@code plan}'s wall time and peak RSS (a separate JVM with the launcher's
 * options, under /usr/bin/time) at 2,000 StatefulSets / 6,000 claims, next to the same plan with one
 * request in flight at a time and to {@code kubectl get sts,pvc,sc -A -o json} against the same
 * simulated server in the same run (medians of {@code -Dbench.runs}, default 3, interleaved; {@code
 * -Dbench.before=<a build's target/kubectl-stsresize.jar>} adds that build's plan to the same run, and this build's
 * then runs on that jar's dependencies; {@code -Dbench.jar=target/kubectl-stsresize.jar} runs this build's shaded
 * jar; {@code -Dbench.cds=true} gives each jar a class-data archive, as the launcher does; {@code
 * -Dbench.oneAtATime=false} leaves out the one-at-a-time row); and
 * checks the request count (4 LISTs + one dry run per StatefulSet to recreate + one rules review per namespace with work). Run with
 * {@code mvn -B test -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=PlanBenchmark}.
 */
@Tag("bench")
class PlanBenchmark {
    static final int SETS = 2000;
    static final int GROWING = 20;

    @TempDir Path dir;

    @Test
    void plan_against_two_thousand_statefulsets_next_to_kubectl_get() throws Exception {
        Scale scale = scale();
        List<ObjectNode> objects = scale.objects();
        String manifest = scale.manifest();
        Path manifestFile = dir.resolve("manifest.yaml");
        Files.writeString(manifestFile, manifest);
        try (SimCluster sim = SimCluster.start()) {
            sim.load(objects.toArray(ObjectNode[]::new));
            Path kubeconfig = dir.resolve("kubeconfig");
            sim.writeKubeconfig(kubeconfig);

            long hold = Long.getLong("bench.hold", 0);
            if (hold > 0) {
                // -Dbench.hold=SECONDS: the server stays up that long for commands run by hand (a profiler's), nothing timed
                System.out.printf("%nserving for %d s: --kubeconfig %s -f %s%n", hold, kubeconfig, manifestFile);
                Files.writeString(Path.of(System.getProperty("java.io.tmpdir"), "plan-benchmark-hold.txt"),
                        "--kubeconfig " + kubeconfig + " -f " + manifestFile + "\n");
                Thread.sleep(hold * 1000);
                return;
            }
            // the launcher's options for plan on this machine (LauncherOptions), and a class-data archive as it uses one
            List<String> jvm = jvm(LauncherOptions.forCommand("plan"));
            List<String> args = new ArrayList<>(List.of("dev.stsresize.Main", "plan", "-A",
                    "-f", manifestFile.toString(), "--kubeconfig", kubeconfig.toString(), "-o", "json", "--exit-code"));
            String verbosity = System.getProperty("bench.v", "");
            if (!verbosity.isEmpty()) {
                // -Dbench.v=6: the plan's request log (each request's time to its answer) printed below
                args.add("-v=" + verbosity);
            }
            // With a build to compare (-Dbench.before=<its target/kubectl-stsresize.jar>), this build's classes run on
            // that jar for their dependencies, so both load them alike: from one shaded jar as the launcher does, not
            // from the test class path (whose signed bcprov jar alone costs a verification of every entry).
            // -Dbench.jar=target/kubectl-stsresize.jar (after mvn package) runs this build's shaded jar instead.
            String before = System.getProperty("bench.before", "");
            String jar = System.getProperty("bench.jar", "");
            String sep = File.pathSeparator;
            String classPath = !jar.isEmpty() ? jar : before.isEmpty() ? System.getProperty("java.class.path")
                    : Path.of("target", "classes").toAbsolutePath() + sep + before;
            // -Dbench.cds=true: each jar's plan with a class-data archive of the classes it loads, as the launcher
            // runs every command (the archive trained once by an untimed run; the launcher trains its own on its
            // first command); a class path with folders cannot be archived
            boolean cds = Boolean.parseBoolean(System.getProperty("bench.cds", "false"));
            List<String> nowFlags = cds ? archive(jvm, classPath, args, "now") : List.of();
            Map<String, List<String>> commands = new LinkedHashMap<>();
            commands.put("plan -A", command(jvm, classPath, nowFlags, args));
            if (Boolean.parseBoolean(System.getProperty("bench.oneAtATime", "true"))) {
                // the same plan with one request in flight at a time, as before the proofs went in parallel
                List<String> flags = new ArrayList<>(nowFlags);
                flags.add("-D" + Together.IN_FLIGHT_PROPERTY + "=1");
                commands.put("plan -A, one request in flight at a time", command(jvm, classPath, flags, args));
            }
            if (!before.isEmpty()) {
                commands.put("plan -A, before (" + before + ")",
                        // that build's own launcher's options where its launcher is beside the jar
                        beforeCommand(jvm(LauncherOptions.besideJar(Path.of(before), "plan")), before, cds, args));
            }
            commands.put("kubectl get sts,pvc,sc -A -o json",
                    List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "get", "sts,pvc,sc", "-A", "-o", "json"));

            // interleaved, so that the machine's noise falls on all alike; medians of bench.runs
            int runs = Integer.getInteger("bench.runs", 3);
            List<String> names = new ArrayList<>(commands.keySet());
            Map<String, List<Timed>> timings = new LinkedHashMap<>();
            names.forEach(n -> timings.put(n, new ArrayList<>()));
            List<RecordedRequest> planRequests = List.of();
            System.out.printf("%nload average before: %s%n", loadAverage());
            timed(commands.get(names.get(names.size() - 1))); // the simulated server warms up (its JIT) before anything is timed
            for (int r = 0; r < runs; r++) {
                // the order turns each round, so that none is always first after the previous one
                for (int k = 0; k < names.size(); k++) {
                    String name = names.get((r + k) % names.size());
                    int sent = sim.requests().size();
                    timings.get(name).add(timed(commands.get(name)));
                    if (name.equals("plan -A")) {
                        planRequests = List.copyOf(sim.requests().subList(sent, sim.requests().size()));
                    }
                }
            }
            Timed plan = median(timings.get("plan -A"));
            Timed kubectl = median(timings.get(names.get(names.size() - 1)));
            if (!verbosity.isEmpty()) {
                System.out.println(plan.stderr);
            }
            System.out.printf("load average after: %s%n", loadAverage());
            System.out.printf("medians of %d interleaved runs against one simulated server, %d StatefulSets, %d claims, %d to grow%n",
                    runs, SETS, SETS * 3, GROWING);
            for (String name : names) {
                List<Timed> all = timings.get(name);
                Timed m = median(all);
                System.out.printf("%s: %.2f s wall, %.2f s CPU, %d MiB peak RSS (exit %d), %.2f x kubectl (wall), %.2f x kubectl (CPU)%n",
                        name, m.seconds, median(all, Timed::cpu), m.rssKiB / 1024, m.exit, m.seconds / kubectl.seconds,
                        median(all, Timed::cpu) / median(timings.get(names.get(names.size() - 1)), Timed::cpu));
            }
            System.out.println();
            assertThat(plan.exit).as(plan.stderr).isEqualTo(3);
            // the usage read beside the plan is counted by UsagePlanBenchmark; these objects run no pods
            planRequests = planRequests.stream().filter(q -> !PlanRequestsTest.usage(q)).toList();
            assertThat(planRequests.stream().filter(q -> q.method().equals("GET"))).hasSize(4);
            assertThat(planRequests.stream().filter(q -> q.method().equals("PATCH") && q.dryRun())).hasSize(GROWING);
            long reviews = planRequests.stream().filter(q -> q.path().contains("selfsubjectrulesreviews")).count();
            assertThat(reviews).as("rules reviews: one per namespace with work, not per StatefulSet or verb")
                    .isEqualTo(planRequests.stream().filter(q -> q.dryRun()).map(q -> q.path().split("/")[5]).distinct().count());
            assertThat(planRequests).hasSize(4 + GROWING + (int) reviews);
        }
    }

    /** The cluster and manifest measured: {@link #SETS} StatefulSets of 3 claims in 20 namespaces, {@link #GROWING} of them to grow. */
    record Scale(List<ObjectNode> objects, String manifest) {}

    static Scale scale() throws IOException {
        ObjectNode liveSts = null;
        ObjectNode liveClaim = null;
        ObjectNode declaredSts = null;
        List<ObjectNode> objects = new ArrayList<>();
        for (ObjectNode o : DemoScenario.cluster()) {
            // the classes and the CSIDrivers that serve them: without its CSIDriver a class has no resizer (refused)
            if (o.path("kind").asText().equals("StorageClass") || o.path("kind").asText().equals("CSIDriver")) {
                objects.add(o);
            }
            if (o.path("kind").asText().equals("StatefulSet") && o.at("/metadata/name").asText().equals("postgres")) {
                liveSts = o;
            }
            if (o.path("kind").asText().equals("PersistentVolumeClaim") && o.at("/metadata/name").asText().equals("data-postgres-0")) {
                liveClaim = o;
            }
        }
        declaredSts = Demo.declared("postgres");
        StringBuilder manifest = new StringBuilder();
        for (int i = 0; i < SETS; i++) {
            String ns = "ns-" + (i % 20);
            String name = "pg-" + i;
            ObjectNode s = liveSts.deepCopy();
            ObjectNode meta = (ObjectNode) s.path("metadata");
            meta.put("name", name).put("namespace", ns).remove(List.of("uid", "resourceVersion"));
            objects.add(s);
            for (int o = 0; o < 3; o++) {
                ObjectNode c = liveClaim.deepCopy();
                ((ObjectNode) c.path("metadata")).put("name", "data-" + name + "-" + o).put("namespace", ns).remove(List.of("uid", "resourceVersion"));
                ((ObjectNode) c.path("spec")).remove("volumeName");
                objects.add(c);
            }
            ObjectNode d = declaredSts.deepCopy();
            ((ObjectNode) d.path("metadata")).put("name", name).put("namespace", ns);
            if (i >= GROWING) {
                ((ObjectNode) d.at("/spec/volumeClaimTemplates/0/spec/resources/requests")).put("storage", "10Gi");
            }
            manifest.append("---\n").append(Harness.YAML.writeValueAsString(d).replaceFirst("^---\n", ""));
        }
        return new Scale(objects, manifest.toString());
    }

    static double median(List<Timed> runs, java.util.function.ToDoubleFunction<Timed> f) {
        double[] v = runs.stream().mapToDouble(f).sorted().toArray();
        return v[v.length / 2];
    }

    static Timed median(List<Timed> runs) {
        List<Timed> sorted = new ArrayList<>(runs);
        sorted.sort(java.util.Comparator.comparingDouble(Timed::seconds));
        return sorted.get(sorted.size() / 2);
    }

    /** The flags that map a class-data archive of {@code classPath}'s plan, trained now by one untimed run. */
    private List<String> archive(List<String> jvm, String classPath, List<String> args, String name) throws IOException, InterruptedException {
        Path archive = dir.resolve(name + ".jsa");
        Timed training = timed(command(jvm, classPath, List.of("-XX:ArchiveClassesAtExit=" + archive), args));
        assertThat(archive).as(training.stderr).exists();
        return List.of("-XX:SharedArchiveFile=" + archive);
    }

    private List<String> beforeCommand(List<String> jvm, String before, boolean cds, List<String> args) throws IOException, InterruptedException {
        return command(jvm, before, cds ? archive(jvm, before, args, "before") : List.of(), args);
    }

    /** This test's java with the launcher's {@code options}, a class-data archive's switch and, with -Dbench.jfr, a profile. */
    private static List<String> jvm(List<String> options) {
        List<String> jvm = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        jvm.addAll(options);
        jvm.add("-Xshare:auto");
        String jfr = System.getProperty("bench.jfr", "");
        if (!jfr.isEmpty()) {
            // a profile of the plan's JVM: -Dbench.jfr=/tmp/plan.jfr
            jvm.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile");
        }
        return jvm;
    }

    private static List<String> command(List<String> jvm, String classPath, List<String> properties, List<String> args) {
        List<String> command = new ArrayList<>(jvm);
        command.addAll(properties);
        command.add("-cp");
        command.add(classPath);
        command.addAll(args);
        return command;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    record Timed(double seconds, double cpu, long rssKiB, int exit, String stderr) {}

    Timed timed(List<String> command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(List.of("/usr/bin/time", "-f", "TIME %e %M %U %S"));
        full.addAll(command);
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(full).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
        int exit = p.waitFor();
        String text = Files.readString(err);
        String line = text.lines().filter(l -> l.startsWith("TIME ")).reduce((a, b) -> b).orElse("TIME 0 0 0 0");
        String[] parts = line.split(" ");
        return new Timed(Double.parseDouble(parts[1]), Double.parseDouble(parts[3]) + Double.parseDouble(parts[4]),
                Long.parseLong(parts[2]), exit, text);
    }
}
