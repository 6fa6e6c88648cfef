package dev.stsresize;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.cli.Cli;
import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ConnectionSettings;
import dev.stsresize.cluster.KubeClients;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Journal;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.controller.Speed;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.tui.source.ClusterDecisions;
import dev.stsresize.tui.source.ClusterSteps;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.tui.Effect;
import dev.stsresize.tui.terminal.EffectRunner;
import dev.stsresize.tui.Key;
import dev.stsresize.tui.Transition;
import dev.stsresize.tui.UiEvent;
import dev.stsresize.tui.UiState;
import dev.stsresize.tui.Update;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wizard, {@code apply --yes} and {@code resume} after an interruption send the same requests for
 * the same run (issue 16): each run converges the demo's shop/postgres on a fresh simulated cluster,
 * and every request it sends that is not a read is compared, in order, with the golden file recorded
 * before the converge was cut into steps, and with the other entry points.
 *
 * <p>Reads (GET, LIST, WATCH) are left out of the comparison: how often a claim or a watch is read
 * while a resizer works depends on the controllers' pace, not on the product. Everything else is
 * compared with method, path, query, body and status; values that differ from run to run (UIDs,
 * resourceVersions, times, the operator's pid and process, the compressed record) are replaced by placeholders.
 */
class SameRequestsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir Path home;

    @Test
    void the_wizard_apply_and_resume_send_the_requests_recorded_before_the_converge_became_steps() throws Exception {
        List<String> apply = run("apply", this::applyYes);
        List<String> interrupted = run("resume", this::applyCrashedThenResume);
        List<String> wizard = run("wizard", this::wizard);

        Golden.assertMatches("requests/apply.txt", String.join("\n", apply) + "\n");
        Golden.assertMatches("requests/resume.txt", String.join("\n", interrupted) + "\n");
        Golden.assertMatches("requests/wizard.txt", String.join("\n", wizard) + "\n");

        // with each other: the same writes to the StatefulSet and its claims, in the same order
        assertThat(objectWrites(wizard)).as("the wizard's writes to the StatefulSet and claims are apply's").isEqualTo(objectWrites(apply));
        assertThat(objectWrites(interrupted)).as("an interrupted apply and its resume write what one apply writes")
                .isEqualTo(objectWrites(apply));
    }

    /** The writes that change the StatefulSet or its claims (no dry run, no Lease, Secret, Event or access review). */
    private static List<String> objectWrites(List<String> requests) {
        return requests.stream().filter(r -> !r.contains("dryRun=All") && !r.contains("\"dryRun\":[\"All\"]"))
                .filter(r -> r.contains("/statefulsets") || r.contains("/persistentvolumeclaims"))
                .filter(r -> !r.startsWith("POST /apis/authorization")).toList();
    }

    // ---- the three entry points -------------------------------------------------------------------

    private interface Scenario {
        void run(Sim sim) throws Exception;
    }

    private List<String> run(String name, Scenario scenario) throws Exception {
        try (Sim sim = new Sim(home.resolve(name))) {
            int before = sim.sim.requests().size();
            scenario.run(sim);
            List<RecordedRequest> sent = List.copyOf(sim.sim.requests().subList(before, sim.sim.requests().size()));
            return normalised(sent);
        }
    }

    private void applyYes(Sim sim) {
        Run r = sim.cli(Checkpoint.NONE, "apply", "-f", sim.manifest.toString(), "--yes", "--timeout", "60s");
        assertThat(r.code()).as(r.describe()).isZero();
    }

    /** apply stopped right after the orphan delete (lock, three claim patches, delete), then `resume --yes`. */
    private void applyCrashedThenResume(Sim sim) {
        AtomicInteger writes = new AtomicInteger();
        Checkpoint crash = w -> {
            if (writes.incrementAndGet() == 5) {
                throw new IllegalStateException("crashed right after: " + w);
            }
        };
        Run first = sim.cli(crash, "apply", "-f", sim.manifest.toString(), "--yes", "--timeout", "60s");
        assertThat(first.code()).as(first.describe()).isNotZero();
        Run r = sim.cli(Checkpoint.NONE, "resume", "--yes", "--timeout", "60s");
        assertThat(r.code()).as(r.describe()).isZero();
    }

    /** The wizard as the UI drives it: keys through Update, its effects run by the EffectRunner, events back. */
    private void wizard(Sim sim) throws Exception {
        Journal journal = new Journal(sim.home.resolve("state").resolve("kubectl-stsresize"));
        ClusterDecisions source = new ClusterDecisions(sim.cluster, new ByteArrayInputStream(new byte[0]),
                List.of(sim.manifest.toString()), false, "default", false, false, "sim", sim.sim.url(), journal);
        ClusterSteps steps = new ClusterSteps(sim.cluster, Clock.systemUTC(), journal, "alice@laptop 1", sim.sim.url(),
                source::declared, ConvergeOptions.defaults().withTimeout(DEADLINE), Checkpoint.NONE, new StopRequest());
        BlockingQueue<UiEvent> events = new LinkedBlockingQueue<>();
        List<Key> keys = new ArrayList<>(List.of(Key.of(Key.Kind.ENTER), Key.of(Key.Kind.ENTER), Key.ch('y')));
        "postgres".chars().forEach(c -> keys.add(Key.ch((char) c)));
        keys.add(Key.of(Key.Kind.ENTER));
        Iterator<Key> typed = keys.iterator();
        try (EffectRunner effects = new EffectRunner(source, steps, events::add)) {
            UiState state = Update.apply(UiState.initial(100, 30), new UiEvent.DecisionsLoaded(source.load())).state();
            int running = 0;
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (true) {
                assertThat(System.nanoTime()).as("the wizard finishes in time").isLessThan(deadline);
                UiEvent e = running > 0 || !events.isEmpty() ? events.poll(100, TimeUnit.MILLISECONDS) : null;
                if (e == null && running == 0) {
                    if (!typed.hasNext()) {
                        break;
                    }
                    e = new UiEvent.Pressed(typed.next());
                }
                if (e == null) {
                    continue;
                }
                if (e instanceof UiEvent.StepFinished f) {
                    running--;
                    assertThat(f.ok()).as(f.step() + ": " + f.message()).isTrue();
                }
                Transition t = Update.apply(state, e);
                state = t.state();
                for (Effect effect : t.effects()) {
                    if (effect instanceof Effect.RunStep) {
                        running++;
                    }
                    if (!(effect instanceof Effect.Quit)) {
                        effects.run(effect);
                    }
                }
            }
            assertThat(state.wizard()).as("the wizard is open").isNotNull();
            assertThat(state.wizard().finished()).as("the wizard finished: " + state.wizard()).isTrue();
        } finally {
            steps.close();
        }
    }

    // ---- normalising ------------------------------------------------------------------------------

    private static List<String> normalised(List<RecordedRequest> sent) {
        List<String> out = new ArrayList<>();
        for (RecordedRequest r : sent) {
            if (r.method().equals("GET")) {
                continue;
            }
            Map<String, String> query = new TreeMap<>(r.query());
            StringBuilder b = new StringBuilder(r.method()).append(' ').append(r.path());
            if (!query.isEmpty()) {
                b.append('?');
                query.forEach((k, v) -> b.append(k).append('=').append(v).append('&'));
                b.setLength(b.length() - 1);
            }
            b.append(' ').append(body(r.body())).append(" -> ").append(r.status());
            out.add(b.toString());
        }
        return canonical(out);
    }

    /**
     * The requests a run sends together, in one order: what arrives first of them is the network's choice.
     * The Events go beside the run's requests, one after another on their own thread: listed after the
     * rest, in their own order. The claims' patches go together, and so do their dry runs: sorted within each run of them. The phase
     * "reapplying" is recorded beside the re-apply's dry run (and answered before the re-apply): listed
     * before it.
     */
    static List<String> canonical(List<String> lines) {
        List<String> events = lines.stream().filter(SameRequestsTest::isEvent).toList();
        List<String> rest = new ArrayList<>(lines.stream().filter(l -> !isEvent(l)).toList());
        for (int i = 0; i < rest.size(); i++) {
            int j = i;
            while (j < rest.size() && isClaimPatch(rest.get(j))) {
                j++;
            }
            if (j - i > 1) {
                rest.subList(i, j).sort(null);
            }
        }
        for (int i = 1; i < rest.size(); i++) {
            if (rest.get(i).startsWith("PUT /apis/coordination.k8s.io/") && rest.get(i).contains("\"stsresize.dev/phase\":\"reapplying\"")
                    && rest.get(i - 1).startsWith("PATCH /apis/apps/v1/") && rest.get(i - 1).contains("dryRun=All")) {
                java.util.Collections.swap(rest, i, i - 1);
            }
        }
        rest.addAll(events);
        return rest;
    }

    private static boolean isEvent(String line) {
        return line.startsWith("POST ") && line.contains("/events ");
    }

    private static boolean isClaimPatch(String line) {
        return line.startsWith("PATCH /api/v1/") && line.contains("/persistentvolumeclaims/");
    }

    private static String body(String body) {
        if (body == null || body.isBlank()) {
            return "-";
        }
        try {
            JsonNode tree = JSON.readTree(body);
            mask(tree);
            return JSON.writeValueAsString(tree).replaceAll("alice@laptop \\d+", "alice@laptop <pid>");
        } catch (IOException e) {
            return body.replaceAll("alice@laptop \\d+", "alice@laptop <pid>");
        }
    }

    /** Values that differ from run to run: placeholders instead. */
    private static void mask(JsonNode node) {
        if (node instanceof ObjectNode o) {
            Iterator<Map.Entry<String, JsonNode>> fields = o.fields();
            List<String> names = new ArrayList<>();
            fields.forEachRemaining(f -> names.add(f.getKey()));
            for (String name : names) {
                JsonNode v = o.get(name);
                if (v.isTextual() && masked(name, v.asText())) {
                    o.set(name, TextNode.valueOf("<" + name + ">"));
                } else if (name.equals("data") && o.path("kind").asText().equals("Secret")) {
                    o.set(name, TextNode.valueOf("<record>"));
                } else {
                    mask(v);
                }
            }
        } else if (node != null && node.isArray()) {
            node.forEach(SameRequestsTest::mask);
        }
    }

    private static boolean masked(String name, String value) {
        return switch (name) {
            case "uid", "resourceVersion", "creationTimestamp", "acquireTime", "renewTime", "eventTime", "time", "startedAt",
                    "stsresize.dev/record-sha256", "stsresize.dev/holder-process" -> true;
            default -> value.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z")
                    || value.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        };
    }

    private record Run(int code, String out, String err) {
        String describe() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    // ---- one simulated cluster per run ------------------------------------------------------------

    private static final class Sim implements AutoCloseable {
        final SimCluster sim;
        final ControllerManager controllers;
        final Path home;
        final Path kubeconfig;
        final Path manifest;
        final Cluster cluster;

        Sim(Path home) throws Exception {
            this.home = home;
            Files.createDirectories(home);
            sim = SimCluster.start();
            sim.load(DemoScenario.cluster().toArray(ObjectNode[]::new));
            controllers = ControllerManager.start(sim, Speed.fast);
            controllers.awaitIdle(DEADLINE);
            kubeconfig = home.resolve("kubeconfig");
            sim.writeKubeconfig(kubeconfig);
            manifest = home.resolve("postgres.yaml");
            for (ObjectNode o : DemoScenario.manifest()) {
                if (o.at("/metadata/name").asText().equals("postgres")) {
                    Files.writeString(manifest, YAML.writeValueAsString(o));
                }
            }
            cluster = KubeClients.connect(ConnectionSettings.defaults().withKubeconfig(kubeconfig),
                    new ClientEnvironment(Map.of(), home, home.resolve("no-sa"), false), "test", new PrintWriter(new StringWriter()))
                    .cluster();
        }

        Map<String, String> env() {
            return Map.of("HOME", home.toString(), "XDG_STATE_HOME", home.resolve("state").toString(),
                    "KUBECONFIG", kubeconfig.toString(), "USER", "alice", "HOSTNAME", "laptop");
        }

        Run cli(Checkpoint checkpoint, String... args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = new Cli(new PrintWriter(out), new PrintWriter(err), new ByteArrayInputStream(new byte[0]), env(), false,
                    Optional::empty, checkpoint).run(withKubeconfig(args));
            return new Run(code, out.toString(), err.toString());
        }

        private String[] withKubeconfig(String... args) {
            List<String> all = new ArrayList<>(List.of(args));
            all.add("--kubeconfig");
            all.add(kubeconfig.toString());
            return all.toArray(String[]::new);
        }

        @Override
        public void close() {
            controllers.close();
            sim.close();
        }
    }
}
