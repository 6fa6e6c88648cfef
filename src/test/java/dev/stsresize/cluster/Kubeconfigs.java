package dev.stsresize.cluster;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** TEST-ONLY: writes kubeconfig files and connects through them, as the product does. */
final class Kubeconfigs {
    private Kubeconfigs() {}

    static Path write(Path dir, String fileName, String yaml) throws IOException {
        Path file = dir.resolve(fileName);
        Files.createDirectories(file.getParent());
        Files.writeString(file, yaml);
        return file;
    }

    /** A kubeconfig with one context "fake" pointing at {@code server} with a bearer token. */
    static Path tokenConfig(Path dir, String server, String token) throws IOException {
        return write(dir, "kubeconfig", """
                apiVersion: v1
                kind: Config
                current-context: fake
                clusters:
                - name: fake
                  cluster: {server: "%s"}
                users:
                - name: me
                  user: {token: "%s"}
                contexts:
                - name: fake
                  context: {cluster: fake, user: me, namespace: shop}
                """.formatted(server, token));
    }

    /** The same over TLS: the cluster trusts {@code caPem}. */
    static Path tokenConfig(Path dir, String server, String token, String caPem) throws IOException {
        String ca = base64(caPem);
        return write(dir, "kubeconfig", Files.readString(tokenConfig(dir, server, token))
                .replace("cluster: {server: \"" + server + "\"}",
                        "cluster: {server: \"" + server + "\", certificate-authority-data: " + ca + "}"));
    }

    /** A kubeconfig whose one context "c" joins cluster "c" and user "u", each of the given flow-style fields. */
    static Path oneContext(Path dir, String fileName, String clusterFields, String userFields) throws IOException {
        return write(dir, fileName, """
                current-context: c
                clusters:
                - name: c
                  cluster: {%s}
                users:
                - name: u
                  user: {%s}
                contexts:
                - name: c
                  context: {cluster: c, user: u}
                """.formatted(clusterFields, userFields));
    }

    /** A kubeconfig with one context "tls" pointing at {@code server}, which is trusted by {@code caPem}, as the user of a client certificate. */
    static Path clientCertificateConfig(Path dir, String fileName, String server, String caPem, String certificatePem, String keyPem)
            throws IOException {
        return write(dir, fileName, """
                current-context: tls
                clusters:
                - name: tls
                  cluster: {server: "%s", certificate-authority-data: %s}
                users:
                - name: admin
                  user: {client-certificate-data: %s, client-key-data: %s}
                contexts:
                - name: tls
                  context: {cluster: tls, user: admin}
                """.formatted(server, base64(caPem), base64(certificatePem), base64(keyPem)));
    }

    private static String base64(String s) {
        return java.util.Base64.getEncoder().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** An environment with no variables, the given home, and no service account. */
    static ClientEnvironment env(Path home) {
        return env(home, Map.of());
    }

    static ClientEnvironment env(Path home, Map<String, String> variables) {
        return new ClientEnvironment(variables, home, home.resolve("no-service-account"), false);
    }

    /** The port over a connection as {@link #tokenConfig(Path, String, String)} configures it. */
    static KubeCluster tokenCluster(Path home, String server, String token) throws IOException {
        return new KubeCluster(connect(tokenConfig(home, server, token), home));
    }

    static ClusterConnection connect(Path kubeconfig, Path home) {
        return KubeClients.connect(ConnectionSettings.defaults().withKubeconfig(kubeconfig), env(home), "1.2.3",
                new PrintWriter(new StringWriter()));
    }
}
