package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.UserError;
import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.KubeClients;
import dev.stsresize.cluster.KubeCluster;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.cluster.ServerUnreachable;
import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.FakeApiServer.Recorded;
import dev.stsresize.cluster.fake.TestPki;
import dev.stsresize.cluster.fake.TestPki.KeyFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Issue 13 item 4: kubectl's connection flags, parsed by the real mixin and applied as client-go
 * applies them (clientcmd's getCluster/getAuthInfo overrides, transport's impersonation headers),
 * seen from the requests a fake API server receives.
 */
class ConnectionFlagsTest {
    static final String STS = "/apis/apps/v1/namespaces/default/statefulsets";
    static final String EMPTY = "{\"kind\":\"StatefulSetList\",\"apiVersion\":\"apps/v1\",\"metadata\":{},\"items\":[]}";

    static TestPki pki;
    /** Another CA: a kubeconfig naming it does not trust the fake server. */
    static TestPki stranger;

    @TempDir Path dir;

    @BeforeAll
    static void pki() throws Exception {
        pki = new TestPki();
        stranger = new TestPki();
    }

    @Command(name = "probe")
    static final class Probe implements Runnable {
        @Mixin ConnectionOptions connection;

        @Override
        public void run() {}
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private int files;

    Path kubeconfig(String cluster, String user) throws IOException {
        return Files.writeString(dir.resolve("kubeconfig-" + ++files), """
                current-context: c
                clusters: [{name: c, cluster: %s}]
                users: [{name: u, user: %s}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """.formatted(cluster, user));
    }

    /** Connects with these flags (and --kubeconfig when given) and lists StatefulSets once. */
    Recorded listWith(FakeApiServer server, Path kubeconfig, String... flags) {
        List<String> args = new ArrayList<>(List.of(flags));
        if (kubeconfig != null) {
            args.addAll(List.of("--kubeconfig", kubeconfig.toString()));
        }
        Probe probe = new Probe();
        new CommandLine(probe).parseArgs(args.toArray(String[]::new));
        int before = server.requests().size();
        // a home without ~/.kube/config and no service account: only the flags and the kubeconfig given count
        ClientEnvironment env = new ClientEnvironment(Map.of(), dir, dir.resolve("no-service-account"), false);
        new KubeCluster(KubeClients.connect(probe.connection.settings(), env, "1", new PrintWriter(new StringWriter())))
                .listStatefulSets(NamespaceScope.of("default"));
        assertThat(server.requests()).hasSize(before + 1);
        return server.last();
    }

    FakeApiServer tls(boolean clientAuth) throws Exception {
        return FakeApiServer.https(pki.serverContext(), clientAuth).on("GET", STS, Answer.json(200, EMPTY));
    }

    @Test
    void serverOverridesTheClustersServerAndClearsItsTlsServerName() throws Exception {
        try (FakeApiServer server = tls(false)) {
            Path config = kubeconfig("{server: \"https://127.0.0.1:1\", certificate-authority-data: " + b64(pki.caPem())
                    + ", tls-server-name: wrong.example}", "{token: kubeconfig-token}");
            assertThat(listWith(server, config, "--server", server.url()).header("Authorization"))
                    .isEqualTo("Bearer kubeconfig-token");
            assertThat(listWith(server, config, "-s", server.url())).isNotNull();
        }
    }

    @Test
    void serverAndTokenNeedNoKubeconfig() throws Exception {
        try (FakeApiServer server = tls(false)) {
            Path ca = Files.writeString(dir.resolve("ca.crt"), pki.caPem());
            Recorded r = listWith(server, null, "--server=" + server.url(), "--token=flag-token",
                    "--certificate-authority=" + ca);
            assertThat(r.header("Authorization")).isEqualTo("Bearer flag-token");
        }
    }

    @Test
    void tokenOverridesTheKubeconfigUsersAuthAndNoExecPluginRuns() throws Exception {
        Path ran = dir.resolve("plugin-ran");
        Path plugin = Files.writeString(dir.resolve("plugin.sh"), "#!/bin/sh\ntouch " + ran + "\nexit 1\n");
        Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwx------"));
        try (FakeApiServer server = tls(false)) {
            String cluster = "{server: \"" + server.url() + "\", certificate-authority-data: " + b64(pki.caPem()) + "}";
            assertThat(listWith(server, kubeconfig(cluster, "{token: old}"), "--token", "new").header("Authorization"))
                    .isEqualTo("Bearer new");
            Path execUser = kubeconfig(cluster, "{exec: {apiVersion: client.authentication.k8s.io/v1, command: "
                    + plugin + ", interactiveMode: Never}}");
            assertThat(listWith(server, execUser, "--token", "new").header("Authorization")).isEqualTo("Bearer new");
            assertThat(ran).as("client-go's exec authenticator stands aside for a token").doesNotExist();
        }
    }

    @Test
    void insecureSkipTlsVerifyTrustsAServerOfAnUnknownCaAndClearsTheKubeconfigsCa() throws Exception {
        try (FakeApiServer server = tls(false)) {
            Path config = kubeconfig("{server: \"" + server.url() + "\", certificate-authority-data: " + b64(stranger.caPem())
                    + "}", "{token: t}");
            assertThatThrownBy(() -> listWith(server, config)).isInstanceOf(ServerUnreachable.class)
                    .hasMessageContaining("TLS handshake failed");
            assertThat(listWith(server, config, "--insecure-skip-tls-verify").header("Authorization")).isEqualTo("Bearer t");
            assertThat(listWith(server, config, "--insecure-skip-tls-verify=true")).isNotNull();
            assertThatThrownBy(() -> listWith(server, config, "--insecure-skip-tls-verify=false"))
                    .isInstanceOf(ServerUnreachable.class);
        }
    }

    @Test
    void insecureWithACertificateAuthorityIsRefusedAsKubectlRefusesIt() throws Exception {
        try (FakeApiServer server = tls(false)) {
            Path ca = Files.writeString(dir.resolve("ca.crt"), pki.caPem());
            Path config = kubeconfig("{server: \"" + server.url() + "\"}", "{token: t}");
            assertThatThrownBy(() -> listWith(server, config, "--insecure-skip-tls-verify", "--certificate-authority", ca.toString()))
                    .isInstanceOf(UserError.class)
                    .hasMessageContaining("specifying a root certificates file with the insecure flag is not allowed");
            Path both = kubeconfig("{server: \"" + server.url() + "\", insecure-skip-tls-verify: true, certificate-authority-data: "
                    + b64(pki.caPem()) + "}", "{token: t}");
            assertThatThrownBy(() -> listWith(server, both)).isInstanceOf(UserError.class)
                    .hasMessageContaining("specifying a root certificates file with the insecure flag is not allowed");
            assertThat(server.requests()).isEmpty();
        }
    }

    @Test
    void certificateAuthorityReplacesTheKubeconfigsCa() throws Exception {
        try (FakeApiServer server = tls(false)) {
            Path ca = Files.writeString(dir.resolve("ca.crt"), pki.caPem());
            Path config = kubeconfig("{server: \"" + server.url() + "\", certificate-authority-data: " + b64(stranger.caPem())
                    + "}", "{token: t}");
            assertThat(listWith(server, config, "--certificate-authority", ca.toString())).isNotNull();
        }
    }

    @Test
    void tlsServerNameIsTheNameTheCertificateIsCheckedAgainst() throws Exception {
        try (FakeApiServer server = tls(false)) {
            Path config = kubeconfig("{server: \"" + server.url() + "\", certificate-authority-data: " + b64(pki.caPem())
                    + "}", "{token: t}");
            assertThat(listWith(server, config, "--tls-server-name", "localhost")).isNotNull();
            assertThatThrownBy(() -> listWith(server, config, "--tls-server-name", "wrong.example"))
                    .isInstanceOf(ServerUnreachable.class);
        }
    }

    @Test
    void clientCertificateAndKeyFilesAuthenticate() throws Exception {
        TestPki.Issued me = pki.client("flag-user", KeyFormat.RSA_PKCS8);
        Path cert = Files.writeString(dir.resolve("me.crt"), me.certificatePem());
        Path key = Files.writeString(dir.resolve("me.key"), me.keyPem());
        try (FakeApiServer server = tls(true)) {
            Path config = kubeconfig("{server: \"" + server.url() + "\", certificate-authority-data: " + b64(pki.caPem())
                    + "}", "{}");
            assertThatThrownBy(() -> listWith(server, config)).isInstanceOf(ServerUnreachable.class);
            assertThat(listWith(server, config, "--client-certificate", cert.toString(), "--client-key", key.toString()))
                    .isNotNull();
            assertThatThrownBy(() -> listWith(server, config, "--client-certificate", cert.toString()))
                    .isInstanceOf(UserError.class).hasMessageContaining("client-key-data or client-key must be specified");
        }
    }

    @Test
    void impersonationFlagsAndKubeconfigFieldsBecomeClientGosHeaders() throws Exception {
        try (FakeApiServer server = FakeApiServer.http().on("GET", STS, Answer.json(200, EMPTY))) {
            Path config = kubeconfig("{server: \"" + server.url() + "\"}", "{}");
            Recorded r = listWith(server, config, "--as", "jane", "--as-group", "devs", "--as-group", "ops", "--as-uid", "42");
            assertThat(r.header("Impersonate-User")).isEqualTo("jane");
            assertThat(r.header("Impersonate-Uid")).isEqualTo("42");
            assertThat(r.headers().entrySet()).filteredOn(e -> e.getKey().equalsIgnoreCase("Impersonate-Group"))
                    .singleElement().satisfies(e -> assertThat(e.getValue()).containsExactly("devs", "ops"));

            Path fromKubeconfig = kubeconfig("{server: \"" + server.url() + "\"}",
                    "{as: bob, as-groups: [admins], as-uid: \"7\", as-user-extra: {\"reason/why\": [audit]}}");
            Recorded k = listWith(server, fromKubeconfig);
            assertThat(k.header("Impersonate-User")).isEqualTo("bob");
            assertThat(k.header("Impersonate-Group")).isEqualTo("admins");
            assertThat(k.header("Impersonate-Extra-reason%2Fwhy")).isEqualTo("audit");
            assertThat(listWith(server, fromKubeconfig, "--as", "carol").header("Impersonate-User")).isEqualTo("carol");

            Recorded none = listWith(server, config);
            assertThat(none.header("Impersonate-User")).isNull();
            int before = server.requests().size();
            assertThatThrownBy(() -> listWith(server, config, "--as-group", "devs")).isInstanceOf(UserError.class)
                    .hasMessageContaining("requesting uid, groups or user-extra for user \"u\" without impersonating a user");
            assertThat(server.requests()).hasSize(before);
        }
    }

    @Test
    void everyCommandThatConnectsTakesEveryFlag() {
        CommandLine root = new Cli(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                java.io.InputStream.nullInputStream(), Map.of(), false).commandLine();
        List<String> flags = List.of("--server", "-s", "--token", "--certificate-authority", "--client-certificate",
                "--client-key", "--insecure-skip-tls-verify", "--tls-server-name", "--as", "--as-group", "--as-uid",
                "--cluster", "--user", "--context", "--kubeconfig", "--request-timeout", "-n", "--namespace");
        for (String command : List.of("plan", "apply", "resume", "ui")) {
            var spec = root.getSubcommands().get(command).getCommandSpec();
            for (String flag : flags) {
                assertThat(spec.findOption(flag)).as(command + " " + flag).isNotNull();
            }
        }
    }
}
