package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.testkit.TwoContexts;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code __complete} answers in cobra's format, from the command tree and the kubeconfig. */
class CompletionTest {
    /**
     * The first completion of a JVM pays for the TLS handshake and a cold JIT, which on a loaded machine can
     * exceed the completion's time budget (an empty answer, by design); a second try then measures what this
     * test is about, the words offered, not the machine's load.
     */
    static List<String> warm(Map<String, String> env, String... words) {
        List<String> answer = complete(env, words);
        for (int retry = 0; retry < 2 && answer.size() <= 1; retry++) {
            answer = complete(env, words);
        }
        return answer;
    }

    static List<String> complete(Map<String, String> env, String... words) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = new String[words.length + 1];
        args[0] = "__complete";
        System.arraycopy(words, 0, args, 1, words.length);
        int code = new Cli(new PrintWriter(out), new PrintWriter(err), new ByteArrayInputStream(new byte[0]), env, false).run(args);
        assertThat(code).isZero();
        assertThat(err.toString()).isEmpty();
        return Arrays.asList(out.toString().split("\n"));
    }

    @Test
    void subcommandsWithDescriptionsAndTheDirectiveLast() {
        List<String> lines = complete(Map.of(), "");
        assertThat(lines).last().isEqualTo(":4");
        assertThat(lines).anyMatch(l -> l.startsWith("plan\tShow what converging"))
                .anyMatch(l -> l.startsWith("version\t")).anyMatch(l -> l.startsWith("set-size\tRaise the size")).anyMatch(l -> l.startsWith("completion\t"))
                .noneMatch(l -> l.startsWith("__complete"));
        assertThat(complete(Map.of(), "pl")).containsExactly(lines.stream().filter(l -> l.startsWith("plan\t")).findFirst().get(), ":4");
    }

    @Test
    void flagsOfTheSubcommandAndTheirValues() {
        assertThat(complete(Map.of(), "plan", "--col")).hasSize(2).first().asString().startsWith("--color\t");
        // plan takes kubectl's connection flags too
        assertThat(complete(Map.of(), "plan", "--co")).anySatisfy(c -> assertThat(c).startsWith("--context\t"))
                .anySatisfy(c -> assertThat(c).startsWith("--color\t")).last().isEqualTo(":4");
        assertThat(complete(Map.of(), "plan", "-o", "")).containsExactly("table", "json", "yaml", ":4");
        assertThat(complete(Map.of(), "plan", "--output=j")).containsExactly("--output=json", ":4");
        assertThat(complete(Map.of(), "plan", "--color", "")).containsExactly("auto", "always", "never", ":4");
        assertThat(complete(Map.of(), "plan", "-o", "yaml", "--ex")).first().asString().startsWith("--exit-code\t");
        // a file argument: the shell completes files (directive 0)
        assertThat(complete(Map.of(), "plan", "-f", "")).containsExactly(":0");
        assertThat(complete(Map.of(), "completion", "")).containsExactly("bash", "zsh", "fish", ":4");
        // kubectl's overriding connection flags complete on every command that connects
        for (String command : List.of("plan", "apply", "resume", "ui")) {
            assertThat(complete(Map.of(), command, "--ins")).first().asString().startsWith("--insecure-skip-tls-verify\t");
            assertThat(complete(Map.of(), command, "--as")).extracting(c -> c.split("\t")[0])
                    .containsExactly("--as", "--as-group", "--as-uid", ":4");
            assertThat(complete(Map.of(), command, "--to")).first().asString().startsWith("--token\t");
            assertThat(complete(Map.of(), command, "--certificate-authority", "")).as("a file").containsExactly(":0");
        }
    }

    @Command(name = "kubectl stsresize")
    static final class Root {}

    @Command(name = "apply")
    static final class WithConnection {
        @Mixin ConnectionOptions connection;
    }

    private static List<String> completeConnection(ClientEnvironment env, String... words) {
        CommandLine root = new CommandLine(new Root()).addSubcommand(new WithConnection());
        StringWriter out = new StringWriter();
        new Completion(root, env).run(List.of(words), new PrintWriter(out));
        return Arrays.asList(out.toString().split("\n"));
    }

    @Test
    void contextsClustersAndUsersFromTheKubeconfigAsKubectlLoadsIt(@TempDir Path tmp) throws IOException {
        Path config = Files.writeString(tmp.resolve("config"), TwoContexts.KUBECONFIG);
        ClientEnvironment env = new ClientEnvironment(Map.of("KUBECONFIG", config.toString()), tmp, tmp, false);
        assertThat(completeConnection(env, "apply", "--context", "")).containsExactly("prod", "staging", ":4");
        assertThat(completeConnection(env, "apply", "--context", "st")).containsExactly("staging", ":4");
        assertThat(completeConnection(env, "apply", "--context=p")).containsExactly("--context=prod", ":4");
        assertThat(completeConnection(env, "apply", "--cluster", "")).containsExactly("c1", "c2", ":4");
        assertThat(completeConnection(env, "apply", "--user", "")).containsExactly("u1", ":4");
        // --kubeconfig on the line wins over KUBECONFIG, as for kubectl
        Path other = Files.writeString(tmp.resolve("other"), TwoContexts.KUBECONFIG.replace("staging", "dev"));
        assertThat(completeConnection(env, "apply", "--kubeconfig", other.toString(), "--context", ""))
                .containsExactly("prod", "dev", ":4");
    }

    @Test
    void aBrokenOrMissingKubeconfigOffersNothingAndSaysNothing(@TempDir Path tmp) throws IOException {
        Path broken = Files.writeString(tmp.resolve("config"), "contexts: [: nope");
        ClientEnvironment env = new ClientEnvironment(Map.of("KUBECONFIG", broken.toString()), tmp, tmp, false);
        assertThat(completeConnection(env, "apply", "--context", "")).containsExactly(":4");
        ClientEnvironment none = new ClientEnvironment(Map.of("KUBECONFIG", tmp.resolve("missing").toString()), tmp, tmp, false);
        assertThat(completeConnection(none, "apply", "--context", "")).containsExactly(":4");
    }

    @Test
    void copyClassCompletesTheClustersStorageClasses(@TempDir Path tmp) throws IOException {
        try (SimCluster sim = demoCluster()) {
            Map<String, String> env = Map.of("KUBECONFIG", Files.writeString(tmp.resolve("config"), sim.kubeconfig()).toString());
            List<String> classes = demoNames("StorageClass", o -> o.path("metadata").path("name").asText());
            assertThat(classes).hasSizeGreaterThan(1);
            assertThat(warm(env, "plan", "--copy", "--copy-class", "")).containsExactlyElementsOf(concat(classes, ":4"));
            assertThat(complete(env, "apply", "--copy", "--copy-class=fast")).containsExactly("--copy-class=fast-online", ":4");
        }
    }

    @Test
    void resumeCompletesStatefulSetsAndDashNNamespacesFromTheCluster(@TempDir Path tmp) throws IOException {
        try (SimCluster sim = demoCluster()) {
            Path config = Files.writeString(tmp.resolve("config"), sim.kubeconfig());
            Map<String, String> env = Map.of("KUBECONFIG", config.toString());
            List<String> all = demoNames("StatefulSet", o -> o.path("metadata").path("namespace").asText() + "/" + o.path("metadata").path("name").asText());
            assertThat(all).hasSizeGreaterThan(3);
            assertThat(warm(env, "resume", "")).containsExactlyElementsOf(concat(all, ":4"));
            String ns = all.get(0).substring(0, all.get(0).indexOf('/'));
            List<String> inNs = all.stream().filter(n -> n.startsWith(ns + "/")).toList();
            assertThat(complete(env, "resume", "-n", ns, "")).containsExactlyElementsOf(concat(inNs, ":4"));
            assertThat(complete(env, "resume", "--namespace=" + ns, inNs.get(0).substring(0, ns.length() + 2)))
                    .containsExactlyElementsOf(concat(inNs.stream().filter(n -> n.startsWith(inNs.get(0).substring(0, ns.length() + 2))).toList(), ":4"));
            assertThat(complete(env, "resume", "shop/", "")).as("one per word").containsAll(all);
            // --kubeconfig on the line, as kubectl reads it
            assertThat(complete(Map.of(), "--kubeconfig", config.toString(), "resume", "")).containsExactlyElementsOf(concat(all, ":4"));

            List<String> namespaces = all.stream().map(n -> n.substring(0, n.indexOf('/'))).distinct().toList();
            assertThat(complete(env, "plan", "-n", "")).containsExactlyElementsOf(concat(namespaces, ":4"));
            assertThat(complete(env, "apply", "--namespace=" + ns.charAt(0)))
                    .containsExactlyElementsOf(concat(namespaces.stream().filter(n -> n.startsWith(ns.substring(0, 1)))
                            .map(n -> "--namespace=" + n).toList(), ":4"));
            // a context the kubeconfig lacks: nothing, silently
            assertThat(complete(env, "resume", "--context", "nope", "")).containsExactly(":4");
            // --server on the line: the cluster the command would reach, not the kubeconfig's
            Path elsewhere = Files.writeString(tmp.resolve("elsewhere"), TwoContexts.KUBECONFIG.replace("https://127.0.0.1:1", "http://127.0.0.1:1"));
            Map<String, String> elsewhereEnv = Map.of("KUBECONFIG", elsewhere.toString());
            assertThat(complete(elsewhereEnv, "resume", "")).containsExactly(":4");
            // (the simulated cluster speaks TLS with its own CA and knows no token "t": both on the line, as kubectl takes them)
            Path ca = Files.writeString(tmp.resolve("ca.crt"), sim.caCertificatePem());
            assertThat(complete(elsewhereEnv, "resume", "--server", sim.url(), "--certificate-authority", ca.toString(),
                    "--token", sim.adminToken(), "")).containsExactlyElementsOf(concat(all, ":4"));
            assertThat(complete(elsewhereEnv, "resume", "-s", sim.url(), "--certificate-authority", ca.toString(), "--token", sim.adminToken(),
                    "--as", "someone", "--as-group", "system:masters", "")).containsExactlyElementsOf(concat(all, ":4"));
            assertThat(complete(elsewhereEnv, "resume", "-s", sim.url(), "--certificate-authority", ca.toString(), "--token", sim.adminToken(),
                    "--as", "someone", "")).as("impersonated without rights: nothing").containsExactly(":4");
            // a namespace that would change the request's path: nothing is asked
            assertThat(complete(env, "resume", "-n", "..", "")).containsExactly(":4");
        }
    }

    @Test
    void anUnreachableOrHangingClusterOffersNothingWithinItsBudget(@TempDir Path tmp) throws IOException {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.on("GET", "/apis/apps/v1/statefulsets", FakeApiServer.Answer.hanging("{\"kind\":"));
            Path hanging = Files.writeString(tmp.resolve("hanging"), sim(server.url()));
            long start = System.nanoTime();
            assertThat(complete(Map.of("KUBECONFIG", hanging.toString()), "resume", "")).containsExactly(":4");
            assertThat(complete(Map.of("KUBECONFIG", hanging.toString()), "plan", "-n", "")).containsExactly(":4");
            // each completion gives up within its backstop, whatever the server does
            assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isLessThan(Completion.CLUSTER_BACKSTOP.multipliedBy(2));
        }
        Path closed = Files.writeString(tmp.resolve("closed"), sim("http://127.0.0.1:1"));
        assertThat(complete(Map.of("KUBECONFIG", closed.toString()), "resume", "")).containsExactly(":4");
        assertThat(complete(Map.of("KUBECONFIG", tmp.resolve("missing").toString()), "resume", "")).containsExactly(":4");
    }

    /** A simulated cluster holding the demo's objects. */
    private static SimCluster demoCluster() {
        SimCluster sim = SimCluster.start();
        sim.load(DemoScenario.cluster().toArray(new ObjectNode[0]));
        return sim;
    }

    /** The demo's objects of {@code kind}, each as {@code name} names it, sorted. */
    private static List<String> demoNames(String kind, java.util.function.Function<ObjectNode, String> name) {
        return DemoScenario.cluster().stream().filter(o -> o.path("kind").asText().equals(kind)).map(name).sorted().toList();
    }

    private static String sim(String server) {
        return TwoContexts.KUBECONFIG.replace("https://127.0.0.1:1", server);
    }

    private static List<String> concat(List<String> items, String last) {
        List<String> all = new java.util.ArrayList<>(items);
        all.add(last);
        return all;
    }

    @Test
    void completionPrintsEachShellsScriptAndVersionPrintsTheVersion() {
        for (String shell : List.of("bash", "zsh", "fish")) {
            StringWriter out = new StringWriter();
            int code = new Cli(new PrintWriter(out), new PrintWriter(new StringWriter()), Environment.of(java.io.InputStream.nullInputStream(), java.util.Map.of(), false)).run("completion", shell);
            assertThat(code).isZero();
            assertThat(out.toString()).contains("__complete").contains("kubectl-stsresize");
        }
        StringWriter out = new StringWriter();
        assertThat(new Cli(new PrintWriter(out), new PrintWriter(new StringWriter()), Environment.of(java.io.InputStream.nullInputStream(), java.util.Map.of(), false)).run("version")).isZero();
        assertThat(out.toString()).isEqualTo(Version.line() + "\n");
    }
}
