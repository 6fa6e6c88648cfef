package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cluster.ConnectionSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class ConnectionOptionsTest {
    @Command(name = "probe")
    static final class Probe implements Runnable {
        @Mixin ConnectionOptions connection;

        @Override
        public void run() {}
    }

    static ConnectionSettings parse(String... args) {
        Probe probe = new Probe();
        new CommandLine(probe).parseArgs(args);
        return probe.connection.settings();
    }

    @Test
    void withoutFlagsEverythingComesFromTheKubeconfig() {
        assertThat(parse()).isEqualTo(ConnectionSettings.defaults());
    }

    @Test
    void kubectlsConnectionFlagsAreRead() {
        ConnectionSettings s = parse("--kubeconfig", "/tmp/k", "--context", "prod", "--cluster", "c", "--user", "u",
                "-n", "shop", "-A", "--request-timeout", "1m", "-v", "6");

        assertThat(s).isEqualTo(new ConnectionSettings(Optional.of(Path.of("/tmp/k")), Optional.of("prod"),
                Optional.of("c"), Optional.of("u"), Optional.of("shop"), true, Duration.ofMinutes(1), 6));
    }

    @Test
    void longFormsAndEqualsSignsWorkAsInKubectl() {
        ConnectionSettings s = parse("--namespace=db", "--all-namespaces", "--request-timeout=30s", "--v=8");
        assertThat(s.namespace()).contains("db");
        assertThat(s.allNamespaces()).isTrue();
        assertThat(s.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.verbosity()).isEqualTo(8);
    }

    @Test
    void shortVerbosityTakesKubectlsSpellings() {
        assertThat(parse("-v=6").verbosity()).isEqualTo(6);
        assertThat(parse("-v6").verbosity()).isEqualTo(6);
        assertThat(parse("--v", "9").verbosity()).isEqualTo(9);
    }

    @Test
    void aBareNumberTimeoutIsSecondsAndZeroIsNone() {
        assertThat(parse("--request-timeout", "45").requestTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(parse("--request-timeout", "0").requestTimeout()).isZero();
    }

    @Test
    void connectingUsesTheFlagsKubeconfigAndNamespace(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path kubeconfig = java.nio.file.Files.writeString(dir.resolve("k"), """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://10.1.2.3:6443", insecure-skip-tls-verify: true}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: c, context: {cluster: c, user: u, namespace: ctx-ns}}]
                """);
        Probe probe = new Probe();
        new CommandLine(probe).parseArgs("--kubeconfig", kubeconfig.toString(), "-n", "flag-ns");

        var connection = probe.connection.connect(Environment.of(java.io.InputStream.nullInputStream(), java.util.Map.of(), false), new PrintWriter(new StringWriter()));

        assertThat(connection.server()).isEqualTo("https://10.1.2.3:6443");
        assertThat(connection.defaultNamespace()).isEqualTo("flag-ns");
        assertThat(connection.origin()).isEqualTo("context \"c\" of " + kubeconfig);
    }

    @Test
    void aBadTimeoutIsRefusedWithExamples() {
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new Probe());
        cl.setErr(new PrintWriter(err));

        int code = cl.execute("--request-timeout", "soon");

        assertThat(code).as("exit code; stderr: %s", err).isEqualTo(2);
        assertThat(err.toString()).contains("invalid duration \"soon\": use a number with a unit, like 30s, 1m, 1m30s or 2h (0 for none)");
    }

    @Test
    void kubectlsOverridingFlagsAreReadWithKubectlsSpellings() {
        ConnectionSettings s = parse("-s", "https://k:6443", "--token", "t", "--certificate-authority", "ca.crt",
                "--client-certificate", "me.crt", "--client-key", "me.key", "--insecure-skip-tls-verify",
                "--tls-server-name", "api.internal", "--as", "jane", "--as-group", "devs", "--as-group", "ops", "--as-uid", "42");

        assertThat(s.overrides()).isEqualTo(new dev.stsresize.cluster.KubeconfigOverrides(Optional.of("https://k:6443"),
                Optional.of("ca.crt"), true, Optional.of("api.internal"), Optional.of("t"), Optional.of("me.crt"),
                Optional.of("me.key"), Optional.of("jane"), java.util.List.of("devs", "ops"), Optional.of("42")));
        assertThat(parse("--server=https://x", "--insecure-skip-tls-verify=false").overrides().insecureSkipTlsVerify()).isFalse();
        assertThat(parse("--insecure-skip-tls-verify=true").overrides().insecureSkipTlsVerify()).isTrue();
        assertThat(parse().overrides()).isEqualTo(dev.stsresize.cluster.KubeconfigOverrides.NONE);
    }
}
