package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.FakeApiServer.Recorded;
import dev.stsresize.cluster.fake.TestPki;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test against the real kubectl on PATH: for the same KUBECONFIG and flags, kubectl and
 * this layer must reach the same server, as the same user, in the same namespace. Skipped when
 * kubectl is not installed.
 */
@Tag("slow")
class KubectlParityTest {
    static final List<FakeApiServer> servers = new ArrayList<>();

    @TempDir static Path dir;

    static Path first;
    static Path second;
    static Path noCurrent;

    @BeforeAll
    static void start() throws Exception {
        TestPki pki = new TestPki();
        String ca = java.util.Base64.getEncoder().encodeToString(pki.caPem().getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 3; i++) {
            // TLS: over plain http neither kubectl nor this layer sends credentials, and the token names the user
            FakeApiServer s = FakeApiServer.https(pki.serverContext(), false);
            s.on("GET", "/api", Answer.json(200, "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],"
                    + "\"serverAddressByClientCIDRs\":[{\"clientCIDR\":\"0.0.0.0/0\",\"serverAddress\":\"127.0.0.1\"}]}"));
            s.on("GET", "/apis", Answer.json(200, "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}"));
            s.on("GET", "/api/v1", Answer.json(200, "{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\",\"resources\":"
                    + "[{\"name\":\"pods\",\"singularName\":\"pod\",\"namespaced\":true,\"kind\":\"Pod\","
                    + "\"verbs\":[\"get\",\"list\"]}]}"));
            s.onAnything(Answer.json(200, "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[]}"));
            servers.add(s);
        }
        first = kubeconfig("a/first.yaml", "alpha", List.of(cluster("shared", 0, ca), cluster("only-first", 1, ca)),
                List.of("{name: shared, user: {token: first-shared}}", "{name: ann, user: {token: first-ann}}"),
                List.of("{name: alpha, context: {cluster: shared, user: shared, namespace: alpha-ns}}",
                        "{name: shared, context: {cluster: only-first, user: ann}}"));
        second = kubeconfig("b/second.yaml", "beta", List.of(cluster("shared", 2, ca), cluster("only-second", 2, ca)),
                List.of("{name: shared, user: {token: second-shared}}", "{name: bob, user: {token: second-bob}}"),
                List.of("{name: shared, context: {cluster: only-second, user: bob, namespace: second-ns}}",
                        "{name: beta, context: {cluster: only-second, user: bob}}"));
        noCurrent = Kubeconfigs.write(dir, "c/none.yaml", "clusters: []\n");
    }

    /** A kubeconfig of this current-context and these entries, each a flow mapping, as kubectl reads it. */
    static Path kubeconfig(String file, String current, List<String> clusters, List<String> users, List<String> contexts)
            throws java.io.IOException {
        return Kubeconfigs.write(dir, file, "current-context: " + current + "\nclusters:\n" + entries(clusters) + "users:\n" + entries(users)
                + "contexts:\n" + entries(contexts));
    }

    static String entries(List<String> flowMappings) {
        return flowMappings.stream().map(m -> "- " + m + "\n").collect(java.util.stream.Collectors.joining());
    }

    /** A cluster entry for the fake server of this index, trusted through the CA. */
    static String cluster(String name, int server, String ca) {
        return "{name: " + name + ", cluster: {server: \"" + servers.get(server).url() + "\", certificate-authority-data: " + ca + "}}";
    }

    @AfterAll
    static void stop() {
        servers.forEach(FakeApiServer::close);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("current-context comes from the first file", "first:second", List.of()),
                Arguments.of("current-context from the first file that sets one", "none:second:first", List.of()),
                Arguments.of("the first file defining a context wins", "first:second", List.of("--context", "shared")),
                Arguments.of("the second file's context, with its namespace", "second:first", List.of("--context", "shared")),
                Arguments.of("a context without namespace means default", "first:second", List.of("--context", "beta")),
                Arguments.of("--cluster and --user override the context", "first:second",
                        List.of("--context", "beta", "--cluster", "only-first", "--user", "shared")),
                Arguments.of("-n overrides the context's namespace", "first:second", List.of("-n", "prod")),
                Arguments.of("--kubeconfig replaces KUBECONFIG", "first:second", List.of("--kubeconfig", "second")),
                // issue 13 item 4: the flags that override the kubeconfig's cluster and user
                Arguments.of("--token replaces the user's token", "first:second", List.of("--token", "flag-token")),
                Arguments.of("--server replaces the cluster's server", "first:second", List.of("--server", "server2")),
                Arguments.of("-s with --token and --insecure-skip-tls-verify", "first:second",
                        List.of("-s", "server1", "--token", "t", "--insecure-skip-tls-verify")),
                Arguments.of("--as, --as-group twice and --as-uid impersonate", "first:second",
                        List.of("--as", "jane", "--as-group", "devs", "--as-group", "ops", "--as-uid", "42")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reachesTheSameServerUserAndNamespaceAsKubectl(String rule, String kubeconfigVariable, List<String> flags)
            throws Exception {
        assumeTrue(kubectlInstalled(), "kubectl is not on PATH");
        String variable = paths(kubeconfigVariable);
        List<String> resolvedFlags = flags.stream().map(f -> switch (f) {
            case "second" -> second.toString();
            case "server1" -> servers.get(1).url();
            case "server2" -> servers.get(2).url();
            default -> f;
        }).toList();

        Optional<Seen> kubectl = seenAfter(() -> runKubectl(variable, resolvedFlags));
        Optional<Seen> ours = seenAfter(() -> {
            ClusterConnection c = KubeClients.connect(settings(resolvedFlags),
                    Kubeconfigs.env(dir, Map.of("KUBECONFIG", variable)), "1", new PrintWriter(new StringWriter()));
            new KubeCluster(c).listPods(c.defaultNamespace(), "");
        });

        assertThat(kubectl).as("kubectl reached a server as a user").get()
                .extracting(Seen::authorization).asString().startsWith("Bearer ");
        assertThat(ours).isEqualTo(kubectl);
    }

    /** Which fake, which token, which path, whom it impersonates: what a request reveals about the chosen context. */
    record Seen(int server, String authorization, String path, List<String> impersonation) {}

    interface Action {
        void run() throws Exception;
    }

    static Optional<Seen> seenAfter(Action action) throws Exception {
        Map<Integer, Integer> before = new HashMap<>();
        for (int i = 0; i < servers.size(); i++) {
            before.put(i, servers.get(i).requests().size());
        }
        action.run();
        for (int i = 0; i < servers.size(); i++) {
            List<Recorded> all = servers.get(i).requests();
            for (Recorded r : all.subList(before.get(i), all.size())) {
                if (r.path().endsWith("/pods")) {
                    List<String> impersonation = new ArrayList<>();
                    r.headers().forEach((name, values) -> {
                        if (name.toLowerCase(java.util.Locale.ROOT).startsWith("impersonate-")) {
                            values.forEach(v -> impersonation.add(name.toLowerCase(java.util.Locale.ROOT) + "=" + v));
                        }
                    });
                    impersonation.sort(null);
                    return Optional.of(new Seen(i, r.header("Authorization"), r.path(), impersonation));
                }
            }
        }
        return Optional.empty();
    }

    static String paths(String names) {
        return String.join(":", Stream.of(names.split(":")).map(n -> switch (n) {
            case "first" -> first.toString();
            case "second" -> second.toString();
            default -> noCurrent.toString();
        }).toList());
    }

    /** The flags as the real command line reads them. */
    static ConnectionSettings settings(List<String> flags) {
        Probe probe = new Probe();
        new picocli.CommandLine(probe).parseArgs(flags.toArray(String[]::new));
        return probe.connection.settings();
    }

    @picocli.CommandLine.Command(name = "probe")
    static final class Probe implements Runnable {
        @picocli.CommandLine.Mixin dev.stsresize.cli.ConnectionOptions connection;

        @Override
        public void run() {}
    }

    static void runKubectl(String kubeconfigVariable, List<String> flags) throws Exception {
        List<String> command = new ArrayList<>(List.of("kubectl", "get", "pods", "-o", "name",
                "--cache-dir", dir.resolve("kubectl-cache").toString()));
        command.addAll(flags);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("KUBECONFIG", kubeconfigVariable);
        pb.environment().put("HOME", dir.toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("kubectl " + command + " failed: " + output);
        }
    }

    static boolean kubectlInstalled() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, "kubectl"))) {
                return true;
            }
        }
        return false;
    }
}
