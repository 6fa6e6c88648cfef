package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.UserError;
import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.TestPki;
import dev.stsresize.cluster.fake.TestPki.KeyFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class KubeClientsTest {
    /** A cluster no test reaches: the kubeconfigs that fail before any request name it. */
    static final String UNREACHABLE = "server: \"https://127.0.0.1:1\"";
    static final String EMPTY_LIST = "{\"kind\":\"StatefulSetList\",\"apiVersion\":\"apps/v1\",\"metadata\":{},\"items\":[]}";
    static final String STS = "/apis/apps/v1/namespaces/default/statefulsets";

    static TestPki pki;

    @TempDir Path home;

    @BeforeAll
    static void makePki() throws Exception {
        pki = new TestPki();
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    Cluster connect(Path kubeconfig) {
        return new KubeCluster(Kubeconfigs.connect(kubeconfig, home));
    }

    @ParameterizedTest(name = "a client certificate with a {0} key authenticates over TLS")
    @EnumSource(KeyFormat.class)
    void clientCertificatesWorkWithEveryKeyFormat(KeyFormat format) throws Exception {
        TestPki.Issued me = pki.client("admin", format);
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), true)) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            Path config = Kubeconfigs.clientCertificateConfig(home, "kubeconfig", server.url(), pki.caPem(), me.certificatePem(), me.keyPem());

            assertThat(connect(config).listStatefulSets(NamespaceScope.of("default")).items()).isEmpty();
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void certificateAndKeyFilesAreReadRelativeToTheKubeconfig() throws Exception {
        TestPki.Issued me = pki.client("admin", KeyFormat.RSA_PKCS1);
        Kubeconfigs.write(home, "conf/pki/ca.crt", pki.caPem());
        Kubeconfigs.write(home, "conf/pki/me.crt", me.certificatePem());
        Kubeconfigs.write(home, "conf/pki/me.key", me.keyPem());
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), true)) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            Path config = Kubeconfigs.write(home, "conf/kubeconfig", """
                    current-context: tls
                    clusters:
                    - name: tls
                      cluster: {server: "%s", certificate-authority: pki/ca.crt}
                    users:
                    - name: admin
                      user: {client-certificate: pki/me.crt, client-key: pki/me.key}
                    contexts:
                    - name: tls
                      context: {cluster: tls, user: admin}
                    """.formatted(server.url()));

            assertThat(connect(config).listStatefulSets(NamespaceScope.of("default")).items()).isEmpty();
        }
    }

    @Test
    void withoutTheClusterCaTheServerIsNotTrusted() throws Exception {
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            Path config = Kubeconfigs.tokenConfig(home, server.url(), "t");
            assertThatThrownBy(() -> connect(config).listStatefulSets(NamespaceScope.of("default")))
                    .isInstanceOf(ServerUnreachable.class)
                    .hasMessageContaining("TLS handshake failed")
                    .hasMessageContaining("Check the cluster's certificate-authority")
                    .isInstanceOfSatisfying(ServerUnreachable.class, e -> assertThat(e.worthRetrying()).isFalse());
            assertThat(server.requests()).isEmpty();
        }
    }

    @Test
    void insecureSkipTlsVerifyTrustsAnyServer() throws Exception {
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            Path config = Kubeconfigs.oneContext(home, "kubeconfig", "server: \"" + server.url() + "\", insecure-skip-tls-verify: true",
                    "token: abc");

            connect(config).listStatefulSets(NamespaceScope.of("default"));
            assertThat(server.last().header("Authorization")).isEqualTo("Bearer abc");
        }
    }

    @Test
    void anUnreadableKeyIsOneSentenceNamingTheUser() throws Exception {
        TestPki.Issued me = pki.client("admin", KeyFormat.EC_SEC1);
        Path config = Kubeconfigs.oneContext(home, "kubeconfig", UNREACHABLE, "client-certificate-data: " + b64(me.certificatePem())
                + ", client-key-data: " + b64("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n"));

        assertThatThrownBy(() -> connect(config))
                .isInstanceOf(UserError.class)
                .hasMessage("the client key of kubeconfig user \"u\" in " + config + " is not a PEM private key that"
                        + " can be read (EC, RSA PKCS#1 or PKCS#8, unencrypted); fix it (kubectl config view --raw shows it),"
                        + " or pick another --context.");
    }

    @Test
    void aLegacyAuthProviderIsRefusedWithTheExecPluginToUseInstead() throws IOException {
        Path config = Kubeconfigs.oneContext(home, "kubeconfig", UNREACHABLE,
                "auth-provider: {name: oidc, config: {idp-issuer-url: \"https://id.example\"}}");
        assertThatThrownBy(() -> connect(config))
                .isInstanceOf(UserError.class)
                .hasMessage("kubeconfig user \"u\" uses the auth-provider \"oidc\", which kubectl-stsresize does not"
                        + " support; switch it to an exec credential plugin (kubelogin for OIDC, gke-gcloud-auth-plugin for GKE).");
    }

    @Test
    void aMissingCertificateFileNamesTheFileAndTheUser() throws IOException {
        Path config = Kubeconfigs.oneContext(home, "kubeconfig", UNREACHABLE, "client-certificate: gone.crt, client-key: gone.key");
        assertThatThrownBy(() -> connect(config))
                .isInstanceOf(UserError.class)
                .hasMessage("the client-certificate file " + home.resolve("gone.crt") + " of kubeconfig user \"u\" in "
                        + config + " does not exist; fix the path in the kubeconfig, or pick another --context.");
    }

    @Test
    void aTokenFileIsReadRelativeToTheKubeconfig() throws Exception {
        Kubeconfigs.write(home, "token", "token-from-file\n");
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            Path config = Kubeconfigs.write(home, "kubeconfig", Files.readString(Kubeconfigs.tokenConfig(home,
                    server.url(), "unused", pki.caPem())).replace("user: {token: \"unused\"}", "user: {tokenFile: token}"));

            connect(config).listStatefulSets(NamespaceScope.of("default"));

            assertThat(server.last().header("Authorization")).isEqualTo("Bearer token-from-file");
        }
    }

    @Test
    void overPlainHttpNoCredentialIsSentAndNoPluginRunsAsWithKubectl() throws IOException {
        Path marker = home.resolve("plugin-ran");
        script("bin/token-plugin", "#!/bin/sh\ntouch " + marker + "\nexit 1\n");
        try (FakeApiServer server = FakeApiServer.http()) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            Path config = Kubeconfigs.write(home, "kubeconfig", execConfig(server.url(), "bin/token-plugin"));

            connect(config).listStatefulSets(NamespaceScope.of("default"));

            assertThat(server.last().header("Authorization")).isNull();
            assertThat(marker).doesNotExist();
        }
    }

    @Test
    void anUnhandledServerErrorIsAUserErrorCarryingOnlyTheServersSentence() throws IOException {
        try (FakeApiServer server = FakeApiServer.http()) {
            String message = "statefulsets.apps is forbidden: User \"dev\" cannot list resource \"statefulsets\" in API group \"apps\" in the namespace \"default\"";
            server.on("GET", STS, KubeClusterTest.forbidden(message));
            Cluster cluster = Kubeconfigs.connect(Kubeconfigs.tokenConfig(home, server.url(), "t"), home).cluster();

            assertThatThrownBy(() -> cluster.listStatefulSets(NamespaceScope.of("default")))
                    .isInstanceOfSatisfying(UserError.class, e -> assertThat(e.exitCode()).isEqualTo(1))
                    .hasMessage(message);
            assertThat(server.requests()).as("a 403 is not retried").hasSize(1);
        }
    }

    @Test
    void anExecPluginsTokenIsSentAsBearer() throws Exception {
        Path plugin = script("bin/token-plugin", """
                #!/bin/sh
                [ "$1" = "--cluster" ] || exit 3
                echo "{\\"apiVersion\\":\\"client.authentication.k8s.io/v1\\",\\"kind\\":\\"ExecCredential\\",\\"status\\":{\\"token\\":\\"from-plugin-$MY_SUFFIX\\"}}"
                """);
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            Path config = Kubeconfigs.write(home, "kubeconfig", execConfig(server.url(), "bin/token-plugin")
                    .replace("server: \"" + server.url() + "\"",
                            "server: \"" + server.url() + "\", certificate-authority-data: " + b64(pki.caPem())));

            connect(config).listStatefulSets(NamespaceScope.of("default"));

            assertThat(plugin).exists();
            assertThat(server.last().header("Authorization")).isEqualTo("Bearer from-plugin-7");
        }
    }

    /** A plugin that counts its runs, saves the KUBERNETES_EXEC_INFO it got, and prints token "tok-N". */
    Path countingPlugin(String expiration) throws IOException {
        return script("bin/counting", """
                #!/bin/sh
                d="$(dirname "$0")"
                n=$(( $(cat "$d/count" 2>/dev/null || echo 0) + 1 ))
                echo $n > "$d/count"
                printf '%s' "$KUBERNETES_EXEC_INFO" > "$d/info-$n.json"
                echo "{\\"apiVersion\\":\\"client.authentication.k8s.io/v1\\",\\"kind\\":\\"ExecCredential\\",\\"status\\":{\\"token\\":\\"tok-$n\\"EXP}}"
                """.replace("EXP", expiration.isEmpty() ? "" : ",\\\"expirationTimestamp\\\":\\\"" + expiration + "\\\""));
    }

    Cluster execCluster(FakeApiServer server, String extraExecYaml) throws IOException {
        String yaml = execConfig(server.url(), "bin/counting")
                .replace("server: \"" + server.url() + "\"",
                        "server: \"" + server.url() + "\", certificate-authority-data: " + uncheckedCa())
                .replace("      args:", extraExecYaml + "      args:");
        return connect(Kubeconfigs.write(home, "kubeconfig", yaml));
    }

    static String uncheckedCa() {
        try {
            return b64(pki.caPem());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRejectedExecTokenIsReplacedOnceAndTheRequestSentAgain() throws Exception {
        countingPlugin("");
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            server.on("GET", STS, r -> "Bearer tok-1".equals(r.header("Authorization"))
                    ? Answer.json(401, "{\"kind\":\"Status\",\"status\":\"Failure\",\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}")
                    : Answer.json(200, EMPTY_LIST));
            Cluster cluster = execCluster(server, "");

            cluster.listStatefulSets(NamespaceScope.of("default"));
            cluster.listStatefulSets(NamespaceScope.of("default"));

            assertThat(server.requests()).extracting(r -> r.header("Authorization"))
                    .containsExactly("Bearer tok-1", "Bearer tok-2", "Bearer tok-2");
        }
    }

    @Test
    void anExecTokenIsReusedUntilItExpires() throws Exception {
        // each token came already expired: every request asked the plugin again
        assertThat(bearersOfTwoListsWithTokensExpiring("2000-01-01T00:00:00Z")).containsExactly("Bearer tok-2", "Bearer tok-3");
    }

    @Test
    void anUnexpiredExecTokenIsNotFetchedAgain() throws Exception {
        assertThat(bearersOfTwoListsWithTokensExpiring("2999-01-01T00:00:00Z")).containsExactly("Bearer tok-1", "Bearer tok-1");
        assertThat(Files.readString(home.resolve("bin/count")).strip()).isEqualTo("1");
    }

    /** The Authorization header of each request of two LISTs through the counting plugin, whose tokens expire at {@code expiration}. */
    private List<String> bearersOfTwoListsWithTokensExpiring(String expiration) throws Exception {
        countingPlugin(expiration);
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            Cluster cluster = execCluster(server, "");

            cluster.listStatefulSets(NamespaceScope.of("default"));
            cluster.listStatefulSets(NamespaceScope.of("default"));

            return server.requests().stream().map(r -> r.header("Authorization")).toList();
        }
    }

    @Test
    void aPluginAskingForClusterInfoGetsServerAndCaNonInteractively() throws Exception {
        countingPlugin("");
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            execCluster(server, "      provideClusterInfo: true\n      interactiveMode: IfAvailable\n");

            var info = TreeMapper.MAPPER.readTree(home.resolve("bin/info-1.json").toFile());
            assertThat(info.path("kind").asText()).isEqualTo("ExecCredential");
            assertThat(info.at("/spec/interactive").asBoolean(true)).isFalse();
            assertThat(info.at("/spec/cluster/server").asText()).isEqualTo(server.url());
            assertThat(new String(Base64.getDecoder().decode(info.at("/spec/cluster/certificate-authority-data").asText()),
                    StandardCharsets.UTF_8)).isEqualTo(pki.caPem());
        }
    }

    @Test
    void aPluginThatMustBeInteractiveNeedsATerminal() throws Exception {
        countingPlugin("");
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            assertThatThrownBy(() -> execCluster(server, "      interactiveMode: Always\n"))
                    .isInstanceOf(UserError.class)
                    .hasMessage("the credential plugin \"" + home.resolve("bin/counting") + "\" of kubeconfig user \"robot\""
                            + " failed: its interactiveMode is Always and there is no terminal to lend it;"
                            + " run from a terminal, or log in beforehand so it needs no input.");
        }
    }

    @Test
    void anExecPluginsClientCertificateAuthenticatesOverTls() throws Exception {
        TestPki.Issued me = pki.client("exec-admin", KeyFormat.EC_SEC1);
        Kubeconfigs.write(home, "bin/cred.json", TreeMapper.MAPPER.writeValueAsString(TreeMapper.MAPPER.createObjectNode()
                .put("apiVersion", "client.authentication.k8s.io/v1").put("kind", "ExecCredential")
                .set("status", TreeMapper.MAPPER.createObjectNode()
                        .put("clientCertificateData", me.certificatePem()).put("clientKeyData", me.keyPem()))));
        script("bin/cert-plugin", "#!/bin/sh\ncat \"$(dirname \"$0\")/cred.json\"\n");
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), true)) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            String yaml = execConfig(server.url(), "bin/cert-plugin")
                    .replace("server: \"" + server.url() + "\"",
                            "server: \"" + server.url() + "\", certificate-authority-data: " + b64(pki.caPem()));
            Path config = Kubeconfigs.write(home, "kubeconfig", yaml);

            assertThat(connect(config).listStatefulSets(NamespaceScope.of("default")).items()).isEmpty();
        }
    }

    @Test
    void aFailingExecPluginIsOneSentenceNamingItAndTheUser() throws IOException {
        script("bin/broken", "#!/bin/sh\nexit 42\n");
        Path config = Kubeconfigs.write(home, "kubeconfig", execConfig("https://127.0.0.1:1", "bin/broken"));
        assertThatThrownBy(() -> connect(config))
                .isInstanceOf(UserError.class)
                .hasMessage("the credential plugin \"" + home.resolve("bin/broken") + "\" of kubeconfig user \"robot\""
                        + " failed: it exited with code 42; run it by hand to see why.");
    }

    @Test
    void aMissingExecPluginShowsItsInstallHint() throws IOException {
        Path config = Kubeconfigs.write(home, "kubeconfig",
                execConfig("https://127.0.0.1:1", "no-such-plugin-anywhere").replace("args:",
                        "installHint: \"install it with: brew install no-such-plugin\"\n      args:"));
        assertThatThrownBy(() -> connect(config))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("the credential plugin \"no-such-plugin-anywhere\" of kubeconfig user \"robot\" failed:"
                        + " it could not be run (")
                .hasMessageEndingWith("install it with: brew install no-such-plugin.");
    }

    @Test
    void insideAPodWithoutKubeconfigTheServiceAccountIsUsed() throws IOException {
        Path sa = home.resolve("sa");
        Kubeconfigs.write(sa, "token", "pod-token\n");
        Kubeconfigs.write(sa, "namespace", "team-a");
        try (FakeApiServer server = FakeApiServer.http()) {
            ClientEnvironment env = new ClientEnvironment(
                    Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1", "KUBERNETES_SERVICE_PORT", "6443"), home, sa, false);

            ClusterConnection c = KubeClients.connect(ConnectionSettings.defaults(), env, "1", new PrintWriter(new StringWriter()));

            assertThat(c.server()).isEqualTo("https://127.0.0.1:6443");
            assertThat(c.defaultNamespace()).isEqualTo("team-a");
            assertThat(c.origin()).contains("service account");
        }
    }

    @Test
    void insideAPodRequestsGoOverTlsWithTheServiceAccountTokenAndCa() throws Exception {
        Path sa = home.resolve("sa");
        Kubeconfigs.write(sa, "token", "pod-token\n");
        Kubeconfigs.write(sa, "ca.crt", pki.caPem());
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            String port = server.url().replaceAll(".*:", "");
            ClientEnvironment env = new ClientEnvironment(
                    Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1", "KUBERNETES_SERVICE_PORT", port), home, sa, false);

            KubeClients.connect(ConnectionSettings.defaults(), env, "1", new PrintWriter(new StringWriter()))
                    .cluster().listStatefulSets(NamespaceScope.of("default"));

            assertThat(server.last().header("Authorization")).isEqualTo("Bearer pod-token");
        }
    }

    @Test
    void aKubeconfigWinsOverThePodsServiceAccount() throws IOException {
        Path sa = home.resolve("sa");
        Kubeconfigs.write(sa, "token", "pod-token");
        Kubeconfigs.write(home, ".kube/config", Files.readString(Kubeconfigs.tokenConfig(home, "http://10.0.0.1", "t")));
        ClientEnvironment env = new ClientEnvironment(
                Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1", "KUBERNETES_SERVICE_PORT", "6443"), home, sa, false);

        ClusterConnection c = KubeClients.connect(ConnectionSettings.defaults(), env, "1", new PrintWriter(new StringWriter()));

        assertThat(c.server()).isEqualTo("http://10.0.0.1");
        assertThat(c.defaultNamespace()).isEqualTo("shop");
    }

    @Test
    void verbosity6LogsEachRequestsMethodUrlStatusAndLatencyToTheGivenWriterOnly() throws IOException {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            StringWriter log = new StringWriter();
            Cluster cluster = new KubeCluster(KubeClients.connect(withVerbosity(server, 6), Kubeconfigs.env(home), "1",
                    new PrintWriter(log)));

            cluster.listStatefulSets(NamespaceScope.of("default"));

            assertThat(log.toString()).matches("GET " + server.url() + STS + " 200 OK in \\d+ milliseconds\\R");
        }
    }

    @Test
    void verbosity8AddsBodiesAndMasksTheToken() throws Exception {
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            server.on("PATCH", "/api/v1/namespaces/default/persistentvolumeclaims/data-db-0", Answer.json(200, "{\"kind\":\"PersistentVolumeClaim\"}"));
            StringWriter log = new StringWriter();
            ConnectionSettings settings = withVerbosity(server, 8)
                    .withKubeconfig(Kubeconfigs.tokenConfig(home, server.url(), "s3cret", pki.caPem()));
            Cluster cluster = new KubeCluster(KubeClients.connect(settings, Kubeconfigs.env(home), "1",
                    new PrintWriter(log)));

            cluster.patchClaimStorage("default", "data-db-0", "2Gi", false);

            assertThat(log.toString())
                    .containsIgnoringCase("Request Header: Authorization: Bearer <masked>")
                    .doesNotContain("s3cret")
                    .contains("Request Body: {\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}")
                    .contains("Response Body: {\"kind\":\"PersistentVolumeClaim\"}");
        }
    }

    @Test
    void belowVerbosity6NothingIsLogged() throws IOException {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.on("GET", STS, Answer.json(200, EMPTY_LIST));
            StringWriter log = new StringWriter();
            new KubeCluster(KubeClients.connect(withVerbosity(server, 5), Kubeconfigs.env(home), "1", new PrintWriter(log)))
                    .listStatefulSets(NamespaceScope.of("default"));
            assertThat(log.toString()).isEmpty();
        }
    }

    @Test
    void theRequestTimeoutBoundsEveryCall() throws IOException {
        try (FakeApiServer server = FakeApiServer.http()) {
            ConnectionSettings s = new ConnectionSettings(Optional.of(Kubeconfigs.tokenConfig(home, server.url(), "t")),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false, Duration.ofSeconds(7), 0);
            ClusterConnection c = KubeClients.connect(s, Kubeconfigs.env(home), "1", new PrintWriter(new StringWriter()));
            assertThat(c.client().getHttpClient().callTimeoutMillis()).isEqualTo(7000);
        }
    }

    @Test
    void aServerWithoutSchemeIsHttpsAsInKubectl() {
        assertThat(KubeClients.withScheme("10.0.0.1:6443")).isEqualTo("https://10.0.0.1:6443");
        assertThat(KubeClients.withScheme("http://10.0.0.1:8080")).isEqualTo("http://10.0.0.1:8080");
    }

    ConnectionSettings withVerbosity(FakeApiServer server, int v) throws IOException {
        return new ConnectionSettings(Optional.of(Kubeconfigs.tokenConfig(home, server.url(), "s3cret")), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), false, Duration.ZERO, v);
    }

    String execConfig(String server, String command) {
        return """
                current-context: c
                clusters:
                - name: c
                  cluster: {server: "%s"}
                users:
                - name: robot
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: %s
                      env: [{name: MY_SUFFIX, value: "7"}]
                      args: [--cluster, c]
                contexts:
                - name: c
                  context: {cluster: c, user: robot}
                """.formatted(server, command);
    }

    Path script(String relative, String body) throws IOException {
        Path p = Kubeconfigs.write(home, relative, body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }
}
