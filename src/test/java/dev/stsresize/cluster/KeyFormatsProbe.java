package dev.stsresize.cluster;

import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.TestPki;
import dev.stsresize.cluster.fake.TestPki.KeyFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;

/**
 * Run by {@code ShadedJarKeysIT} in a JVM whose classpath is the shipped jar (plus the test
 * fixtures): a client certificate with each key format authenticates over TLS, and the BouncyCastle
 * JCA provider was never registered (the jar carries no provider service entry, so the JDK's
 * provider lookup cannot instantiate it: ~1 s of start-up). Prints one line per check.
 */
public final class KeyFormatsProbe {
    // not KubeClientsTest's: this JVM has no JUnit or AssertJ to load that class with
    private static final String STS = "/apis/apps/v1/namespaces/default/statefulsets";
    private static final String EMPTY_LIST = "{\"kind\":\"StatefulSetList\",\"apiVersion\":\"apps/v1\",\"metadata\":{},\"items\":[]}";

    private KeyFormatsProbe() {}

    private static String b64(String s) {
        return java.util.Base64.getEncoder().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public static void main(String[] args) throws Exception {
        TestPki pki = new TestPki();
        Path home = Files.createTempDirectory("probe");
        for (KeyFormat format : KeyFormat.values()) {
            TestPki.Issued me = pki.client("admin", format);
            try (FakeApiServer server = FakeApiServer.https(pki.serverContext(), true)) {
                server.on("GET", STS, Answer.json(200, EMPTY_LIST));
                Path config = Kubeconfigs.write(home, "kubeconfig-" + format, """
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
                        """.formatted(server.url(), b64(pki.caPem()), b64(me.certificatePem()),
                        b64(me.keyPem())));
                int items = new KubeCluster(Kubeconfigs.connect(config, home))
                        .listStatefulSets(NamespaceScope.of("default")).items().size();
                System.out.println(format + " listed " + items + " over TLS in " + server.requests().size() + " request");
            }
        }
        System.out.println("BC provider registered: " + (Security.getProvider("BC") != null));
    }
}
