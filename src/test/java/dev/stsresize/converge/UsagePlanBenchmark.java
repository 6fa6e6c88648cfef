package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.http.RecordedRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a timed test: prints what reading the usage costs {@code plan -A} at 2,000 StatefulSets (6,000 Running pods
 * with a Bound claim each) on 200 nodes — the wall time of the same plan with the usage, without it
 * ({@code --no-usage}), and with Prometheus too, medians of {@code -Dbench.runs} (default 3) interleaved, each in a
 * JVM of its own with the launcher's options — and checks the usage's requests: one pods LIST, one ResourceQuota
 * LIST, one summary per node. Goal: at most 0.5 s more. The simulator's own CPU per run is printed beside each:
 * it shares the two cores with the plan. {@code -Dbench.otherPods=N} adds N pods of no StatefulSet. Run with
 * {@code mvn -B test -pl plugin -am -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=UsagePlanBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("bench")
class UsagePlanBenchmark {
    static final int SETS = 2000;
    static final int NODES = 200;
    static final int REPLICAS = 3;

    @TempDir Path dir;

    @Test
    void what_usage_costs_plan_at_two_thousand_statefulsets_on_two_hundred_nodes() throws Exception {
        List<ObjectNode> objects = new ArrayList<>();
        String manifest = build(objects);
        Path manifestFile = dir.resolve("manifest.yaml");
        Files.writeString(manifestFile, manifest);
        try (SimCluster sim = SimCluster.start()) {
            sim.load(objects.toArray(ObjectNode[]::new));
            run(sim, manifestFile);
        }
    }

    /** The objects (into {@code objects}) and the manifest, every StatefulSet up to date. */
    static String build(List<ObjectNode> objects) throws IOException {
        ObjectNode liveSts = null;
        ObjectNode liveClaim = null;
        ObjectNode livePod = null;
        for (ObjectNode o : DemoScenario.cluster()) {
            String kind = o.path("kind").asText();
            String name = o.at("/metadata/name").asText();
            if (kind.equals("StorageClass")) {
                objects.add(o);
            }
            if (kind.equals("StatefulSet") && name.equals("postgres")) {
                liveSts = o;
            }
            if (kind.equals("PersistentVolumeClaim") && name.equals("data-postgres-0")) {
                liveClaim = o;
            }
            if (kind.equals("Pod") && name.equals("postgres-0")) {
                livePod = o;
            }
        }
        StringBuilder manifest = new StringBuilder();
        ObjectNode declared = Demo.declared("postgres");
        int podIndex = 0;
        for (int i = 0; i < SETS; i++) {
            String ns = "ns-" + (i % 20);
            String name = "pg-" + i;
            ObjectNode s = liveSts.deepCopy();
            ((ObjectNode) s.path("metadata")).put("name", name).put("namespace", ns).remove(List.of("uid", "resourceVersion"));
            objects.add(s);
            for (int o = 0; o < REPLICAS; o++) {
                ObjectNode c = liveClaim.deepCopy();
                ((ObjectNode) c.path("metadata")).put("name", "data-" + name + "-" + o).put("namespace", ns).remove(List.of("uid", "resourceVersion"));
                ((ObjectNode) c.path("spec")).remove("volumeName");
                objects.add(c);
                ObjectNode p = livePod.deepCopy();
                ObjectNode meta = (ObjectNode) p.path("metadata");
                meta.put("name", name + "-" + o).put("namespace", ns).remove(List.of("uid", "resourceVersion"));
                ((ObjectNode) meta.path("ownerReferences").get(0)).put("name", name);
                ((ObjectNode) p.path("spec")).put("nodeName", "node-" + (podIndex++ % NODES)).put("hostname", name + "-" + o);
                ((ObjectNode) p.at("/spec/volumes/0/persistentVolumeClaim")).put("claimName", "data-" + name + "-" + o);
                objects.add(p);
            }
            ObjectNode d = declared.deepCopy();
            ((ObjectNode) d.path("metadata")).put("name", name).put("namespace", ns);
            ((ObjectNode) d.at("/spec/volumeClaimTemplates/0/spec/resources/requests")).put("storage", "10Gi");
            manifest.append("---\n").append(Harness.YAML.writeValueAsString(d).replaceFirst("^---\n", ""));
        }
        // -Dbench.otherPods=N: pods of no StatefulSet beside them (a Deployment's), which the usage's pod LIST leaves out
        for (int i = 0; i < Integer.getInteger("bench.otherPods", 0); i++) {
            ObjectNode p = livePod.deepCopy();
            ObjectNode meta = (ObjectNode) p.path("metadata");
            meta.put("name", "web-" + i).put("namespace", "ns-" + (i % 20)).remove(List.of("uid", "resourceVersion", "ownerReferences"));
            meta.putObject("labels").put("app", "web").put("pod-template-hash", "5d9c7b8f4");
            ObjectNode spec = (ObjectNode) p.path("spec");
            spec.put("nodeName", "node-" + (i % NODES)).remove(List.of("hostname", "subdomain", "volumes"));
            for (com.fasterxml.jackson.databind.JsonNode container : spec.path("containers")) {
                ((ObjectNode) container).remove("volumeMounts");
            }
            objects.add(p);
        }
        return manifest.toString();
    }

    void run(SimCluster sim, Path manifestFile) throws Exception {
        {
            Path kubeconfig = dir.resolve("kubeconfig");
            sim.writeKubeconfig(kubeconfig);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            // the launcher's options for plan on this machine, as users run it
            List<String> base = new ArrayList<>(List.of(java));
            base.addAll(dev.stsresize.launcher.LauncherOptions.forCommand("plan"));
            base.addAll(List.of("-Xshare:auto",
                    "-cp", System.getProperty("java.class.path"), "dev.stsresize.Main", "plan", "-A",
                    "-f", manifestFile.toString(), "--kubeconfig", kubeconfig.toString(), "-o", "json"));
            List<String> withUsage = new ArrayList<>(base);
            List<String> without = new ArrayList<>(base);
            without.add("--no-usage");
            List<String> withPrometheus = new ArrayList<>(base);
            withPrometheus.addAll(List.of("--prometheus", sim.prometheusUrl()));

            int runs = Integer.getInteger("bench.runs", 3);
            List<PlanBenchmark.Timed> a = new ArrayList<>();
            List<PlanBenchmark.Timed> b = new ArrayList<>();
            List<PlanBenchmark.Timed> c = new ArrayList<>();
            List<Double> simA = new ArrayList<>();
            List<Double> simB = new ArrayList<>();
            List<Double> simC = new ArrayList<>();
            List<RecordedRequest> usageRequests = List.of();
            // the simulated server warms up before anything is timed: a real kube-apiserver and its kubelets are
            // long-running compiled processes on other machines, while the simulator's JIT runs on the same two cores
            // as the plan it serves (after 3 plans it still took 0.59 s of CPU per plan with usage, after 12 0.28 s)
            int warmup = Integer.getInteger("bench.warmup", 10);
            for (int w = 0; w < warmup; w++) {
                timed(withUsage);
            }
            timed(without);
            timed(withPrometheus);
            for (int r = 0; r < runs; r++) {
                for (int k = 0; k < 3; k++) {
                    switch ((r + k) % 3) {
                        case 0 -> {
                            int before = sim.requests().size();
                            a.add(timed(withUsage));
                            simA.add(lastSimCpu);
                            usageRequests = sim.requests().subList(before, sim.requests().size()).stream()
                                    .filter(PlanRequestsTest::usage).toList();
                        }
                        case 1 -> {
                            b.add(timed(without));
                            simB.add(lastSimCpu);
                        }
                        default -> {
                            c.add(timed(withPrometheus));
                            simC.add(lastSimCpu);
                        }
                    }
                }
            }
            PlanBenchmark.Timed on = PlanBenchmark.median(a);
            PlanBenchmark.Timed off = PlanBenchmark.median(b);
            PlanBenchmark.Timed prom = PlanBenchmark.median(c);
            System.out.printf("%nplan -A, %d StatefulSets, %d Running pods (and %d of no StatefulSet) on %d nodes; medians of %d"
                    + " interleaved runs, the simulator warmed by %d plans with usage first%n", SETS, SETS * REPLICAS,
                    Integer.getInteger("bench.otherPods", 0), NODES, runs, warmup);
            // the simulated API server and kubelets answer from this JVM, on the same cores as the plan they serve
            System.out.printf("without usage (--no-usage):     %.2f s wall, %.2f s CPU, %d MiB peak RSS; simulator %.2f s CPU%n", off.seconds(),
                    PlanBenchmark.median(b, PlanBenchmark.Timed::cpu), off.rssKiB() / 1024, median(simB));
            System.out.printf("with usage (200 summaries):     %.2f s wall, %.2f s CPU, %d MiB peak RSS; simulator %.2f s CPU%n", on.seconds(),
                    PlanBenchmark.median(a, PlanBenchmark.Timed::cpu), on.rssKiB() / 1024, median(simA));
            System.out.printf("with usage and --prometheus:    %.2f s wall, %.2f s CPU, %d MiB peak RSS; simulator %.2f s CPU%n", prom.seconds(),
                    PlanBenchmark.median(c, PlanBenchmark.Timed::cpu), prom.rssKiB() / 1024, median(simC));
            System.out.printf("usage costs %+.2f s (ratio %.2f); with Prometheus %+.2f s (ratio %.2f); goal: at most +0.5 s%n%n",
                    on.seconds() - off.seconds(), on.seconds() / off.seconds(), prom.seconds() - off.seconds(), prom.seconds() / off.seconds());
            assertThat(on.exit()).as(on.stderr()).isEqualTo(off.exit());
            assertThat(on.stderr()).as("no note: every node answered").doesNotContain("note: usage");
            assertThat(usageRequests.stream().filter(q -> q.resource().equals("pods"))).as("one pod LIST for -A").hasSize(1);
            assertThat(usageRequests.stream().filter(q -> q.resource().equals("resourcequotas"))).hasSize(1);
            assertThat(usageRequests.stream().filter(q -> q.resource().equals("nodes/proxy"))).as("one summary per node").hasSize(NODES);
        }
    }

    /** The simulator's CPU seconds (this JVM's) during the last {@link #timed} run. */
    double lastSimCpu;

    static double median(List<Double> xs) {
        List<Double> sorted = xs.stream().sorted().toList();
        return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
    }

    PlanBenchmark.Timed timed(List<String> command) throws IOException, InterruptedException {
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long simBefore = os.getProcessCpuTime();
        List<String> full = new ArrayList<>(List.of("/usr/bin/time", "-f", "TIME %e %M %U %S"));
        full.addAll(command);
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(full).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
        int exit = p.waitFor();
        lastSimCpu = (os.getProcessCpuTime() - simBefore) / 1e9;
        String text = Files.readString(err);
        String line = text.lines().filter(l -> l.startsWith("TIME ")).reduce((x, y) -> y).orElse("TIME 0 0 0 0");
        String[] parts = line.split(" ");
        return new PlanBenchmark.Timed(Double.parseDouble(parts[1]), Double.parseDouble(parts[3]) + Double.parseDouble(parts[4]),
                Long.parseLong(parts[2]), exit, text);
    }
}
