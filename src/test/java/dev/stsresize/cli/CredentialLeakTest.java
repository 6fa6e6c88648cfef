package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 13 item 4: no error shows credential material — not in its message, not in a cause that
 * {@code --debug} prints. Each case puts a secret-looking marker where a token, a key or a password
 * goes, breaks something next to it, and runs the real command line with {@code --debug}.
 */
class CredentialLeakTest {
    static final String MARKER = "s3cr3tMARKERq7Zx";

    @TempDir Path dir;

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    static String kubeconfig(String cluster, String user) {
        return """
                current-context: c
                clusters:
                - name: c
                  cluster: %s
                users:
                - name: u
                  user: %s
                contexts:
                - name: c
                  context: {cluster: c, user: u}
                """.formatted(cluster, user);
    }

    static String exec(String script) {
        return "{exec: {apiVersion: client.authentication.k8s.io/v1, command: ./plugin.sh, interactiveMode: Never}}";
    }

    static Stream<Arguments> cases() {
        String tls = "{server: \"https://127.0.0.1:1\", insecure-skip-tls-verify: true}";
        String credential = "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":%s}";
        return Stream.of(
                Arguments.of("an exec plugin printing a bare token", kubeconfig(tls, exec("")), MARKER + "\n",
                        List.of(), "printed 17 bytes that are not an ExecCredential JSON object"),
                Arguments.of("an exec plugin printing broken JSON around a token", kubeconfig(tls, exec("")),
                        "{\"status\":{\"token\":\"" + MARKER + "\"", List.of(), "that are not an ExecCredential JSON object"),
                Arguments.of("an exec plugin printing another kind", kubeconfig(tls, exec("")),
                        "{\"kind\":\"Secret\",\"token\":\"" + MARKER + "\"}", List.of(), "whose kind is not ExecCredential"),
                Arguments.of("an exec plugin printing the token as apiVersion", kubeconfig(tls, exec("")),
                        "{\"apiVersion\":\"" + MARKER + "\",\"kind\":\"ExecCredential\"}", List.of(), "an apiVersion other than"),
                Arguments.of("an exec plugin with no token field", kubeconfig(tls, exec("")),
                        credential.formatted("{\"tokn\":\"" + MARKER + "\"}"), List.of(), "holds neither status.token"),
                Arguments.of("an exec plugin with a bad expirationTimestamp", kubeconfig(tls, exec("")),
                        credential.formatted("{\"token\":\"" + MARKER + "\",\"expirationTimestamp\":\"" + MARKER + "\"}"),
                        List.of(), "status.expirationTimestamp (16 characters) is not an RFC 3339 time"),
                Arguments.of("a client key that is not a key", kubeconfig(tls, "{client-certificate-data: " + b64(CERT)
                        + ", client-key-data: " + b64("-----BEGIN EC PRIVATE KEY-----\n" + MARKER + "\n-----END EC PRIVATE KEY-----\n")
                        + "}"), "", List.of(), "is not a PEM private key"),
                Arguments.of("client-key-data that is not base64", kubeconfig(tls, "{client-certificate-data: " + b64(CERT)
                        + ", client-key-data: \"" + MARKER + "-!!\"}"), "", List.of(), "client key of kubeconfig user"),
                Arguments.of("a kubeconfig YAML error next to a token", kubeconfig(tls, "{token: \"" + MARKER + "}"), "",
                        List.of(), "is not valid YAML"),
                Arguments.of("a proxy URL with a password that is not a URL", kubeconfig(
                        "{server: \"https://127.0.0.1:1\", proxy-url: \"http://me:" + MARKER + "@bad host:3128\"}",
                        "{token: t}"), "", List.of(), "(http://me:xxxxx@bad host:3128) is not a proxy URL"),
                Arguments.of("--token with a line break", kubeconfig(tls, "{}"), "", List.of("--token", MARKER + "\nx"),
                        "(or --token) holds a line break"),
                Arguments.of("an exec plugin's token with a line break", kubeconfig(tls, exec("")),
                        credential.formatted("{\"token\":\"" + MARKER + "\\n\"}"), List.of(), "its status.token holds a line break"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void noSecretInAnyMessageEvenWithDebug(String what, String kubeconfigYaml, String pluginPrints, List<String> flags,
            String said) throws IOException {
        Path config = Files.writeString(dir.resolve("kubeconfig"), kubeconfigYaml);
        Path plugin = Files.writeString(dir.resolve("plugin.sh"), "#!/bin/sh\ncat \"$(dirname \"$0\")/out\"\n");
        Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwx------"));
        Files.writeString(dir.resolve("out"), pluginPrints);
        Path manifest = Files.writeString(dir.resolve("m.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
        List<String> args = new ArrayList<>(List.of("plan", "-f", manifest.toString(), "--kubeconfig", config.toString(),
                "--request-timeout", "2s", "--debug"));
        args.addAll(flags);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = new Cli(new PrintWriter(out), new PrintWriter(err), InputStream.nullInputStream(), Map.of(), false)
                .run(args.toArray(String[]::new));

        assertThat(code).as(err.toString()).isNotZero();
        assertThat(out + "" + err).as("the secret is never shown").doesNotContain(MARKER).doesNotContain(MARKER.substring(0, 8));
        assertThat(err.toString()).as("what went wrong is said").contains(said);
    }

    /** A real certificate: the key next to it is what is broken. */
    static final String CERT = certificate();

    static String certificate() {
        try {
            return new dev.stsresize.cluster.fake.TestPki().client("u", dev.stsresize.cluster.fake.TestPki.KeyFormat.EC_SEC1)
                    .certificatePem();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
