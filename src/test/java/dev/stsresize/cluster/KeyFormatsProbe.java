package dev.stsresize.cluster;

import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.ServerTls;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Security;

/**
 * Run by {@code ShadedJarKeysIT} in a JVM whose classpath is the shipped jar (plus the test
 * fixtures): a client certificate with each key format authenticates over TLS, and the BouncyCastle
 * JCA provider was never registered (the jar carries no provider service entry, so the JDK's
 * provider lookup cannot instantiate it: ~1 s of start-up). Prints one line per check.
 *
 * <p>The keys and certificates are made by the test beforehand, with BouncyCastle's full jars, and read
 * here from files ({@code args[0]}: {@code ca.pem}, {@code server.p12}, {@code trust.p12}, and
 * {@code <FORMAT>.crt}/{@code <FORMAT>.key} for each format in the other arguments): this JVM has only
 * what the jar ships, so a class the client needs and the jar lacks fails here.
 */
public final class KeyFormatsProbe {
    // not KubeClientsTest's: this JVM has no JUnit or AssertJ to load that class with
    private static final String STS = "/apis/apps/v1/namespaces/default/statefulsets";
    private static final String EMPTY_LIST = "{\"kind\":\"StatefulSetList\",\"apiVersion\":\"apps/v1\",\"metadata\":{},\"items\":[]}";

    private KeyFormatsProbe() {}

    public static void main(String[] args) throws Exception {
        Path pki = Path.of(args[0]);
        javax.net.ssl.SSLContext serverContext = ServerTls.context(store(pki.resolve("server.p12")), store(pki.resolve("trust.p12")));
        Path home = Files.createTempDirectory("probe");
        for (String format : java.util.Arrays.asList(args).subList(1, args.length)) {
            try (FakeApiServer server = FakeApiServer.https(serverContext, true)) {
                server.on("GET", STS, Answer.json(200, EMPTY_LIST));
                Path config = Kubeconfigs.clientCertificateConfig(home, "kubeconfig-" + format, server.url(),
                        Files.readString(pki.resolve("ca.pem")), Files.readString(pki.resolve(format + ".crt")),
                        Files.readString(pki.resolve(format + ".key")));
                int items = new KubeCluster(Kubeconfigs.connect(config, home))
                        .listStatefulSets(NamespaceScope.of("default")).items().size();
                System.out.println(format + " listed " + items + " over TLS in " + server.requests().size() + " request");
            }
        }
        System.out.println("BC provider registered: " + (Security.getProvider("BC") != null));
    }

    private static KeyStore store(Path file) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, ServerTls.PASSWORD);
        }
        return ks;
    }
}
