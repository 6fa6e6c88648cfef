package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.TestPki;
import java.nio.file.Path;
import java.util.Base64;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ApiClient without client-java's start-up work (docs/performance.md): TLS set up once and only
 * for https, and every TLS setting of the kubeconfig still honoured. The auth paths (client
 * certificates of every key format, exec plugins, tokens, the service account) are in
 * {@link KubeClientsTest}; this adds what only the lean client changes.
 */
class LeanApiClientTest {
    static TestPki pki;

    @TempDir Path home;

    @BeforeAll
    static void makePki() throws Exception {
        pki = new TestPki();
    }

    @Test
    void aPlainHttpServerGetsNoTlsContextAtAll() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.on("GET", KubeClientsTest.STS, Answer.json(200, KubeClientsTest.EMPTY_LIST));
            ClusterConnection c = Kubeconfigs.connect(Kubeconfigs.tokenConfig(home, server.url(), "t"), home);
            OkHttpClient http = c.client().getHttpClient();
            assertThat(http.connectionSpecs()).containsExactly(ConnectionSpec.CLEARTEXT);
            assertThat(c.cluster().listStatefulSets(NamespaceScope.of("default")).items()).isEmpty();
        }
    }

    @Test
    void anHttpsServerGetsOkHttpsDefaultConnectionSpecsAndTheClustersCa() throws Exception {
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            server.on("GET", KubeClientsTest.STS, Answer.json(200, KubeClientsTest.EMPTY_LIST));
            ClusterConnection c = Kubeconfigs.connect(Kubeconfigs.tokenConfig(home, server.url(), "t", pki.caPem()), home);
            assertThat(c.client().getHttpClient().connectionSpecs())
                    .containsExactlyElementsOf(new OkHttpClient().connectionSpecs());
            assertThat(c.cluster().listStatefulSets(NamespaceScope.of("default")).items()).isEmpty();
            assertThat(server.last().header("Authorization")).isEqualTo("Bearer t");
        }
    }

    @Test
    void tlsServerNameIsTheNameTheCertificateIsCheckedAgainst() throws Exception {
        // the server's certificate names 127.0.0.1 and localhost
        try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), false)) {
            server.on("GET", KubeClientsTest.STS, Answer.json(200, KubeClientsTest.EMPTY_LIST));
            assertThat(connect(server, "localhost").listStatefulSets(NamespaceScope.of("default")).items()).isEmpty();
            assertThatThrownBy(() -> connect(server, "api.elsewhere.example").listStatefulSets(NamespaceScope.of("default")))
                    .isInstanceOf(ServerUnreachable.class);
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void theJsonThatClientJavaBuildsEagerlyIsMadeOnlyWhenAskedFor() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            ClusterConnection c = Kubeconfigs.connect(Kubeconfigs.tokenConfig(home, server.url(), "t"), home);
            assertThat(c.client()).isInstanceOf(LeanApiClient.class);
            assertThat(c.client().getJSON()).isNotNull().isSameAs(c.client().getJSON());
        }
    }

    private Cluster connect(FakeApiServer server, String tlsServerName) throws Exception {
        String ca = Base64.getEncoder().encodeToString(pki.caPem().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Path config = Kubeconfigs.oneContext(home, "kubeconfig-" + tlsServerName,
                "server: \"%s\", certificate-authority-data: %s, tls-server-name: %s".formatted(server.url(), ca, tlsServerName), "token: abc");
        return new KubeCluster(Kubeconfigs.connect(config, home));
    }
}
