package dev.stsresize.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cluster.fake.ServerTls;
import dev.stsresize.cluster.fake.TestPki;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped jar leaves BouncyCastle's JCA provider service entries out (the JDK's provider lookup
 * instantiated both BC providers through them: about 1 s of a live command's start), and client
 * certificates with EC, RSA PKCS#1 and PKCS#8 keys still authenticate with that jar alone. Unit
 * tests cannot show it: their classpath has bcprov's own jar, entries and all.
 */
class ShadedJarKeysIT {
    static final Path JAR = Paths.get(System.getProperty("stsresize.launcher", "target/kubectl-stsresize"))
            .toAbsolutePath().resolveSibling("kubectl-stsresize.jar");

    @Test
    void theJarRegistersNoSecurityProvider() throws Exception {
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            assertThat(zip.getEntry("META-INF/services/java.security.Provider")).isNull();
        }
    }

    /** jetty-http-spi (the simulator's HTTP/2) registers itself as the JVM's HttpServer provider: left out. */
    @Test
    void theJarRegistersNoHttpServerProvider() throws Exception {
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            assertThat(zip.getEntry("org/eclipse/jetty/http/spi/JettyHttpServerProvider.class")).as("jetty-http-spi shaded in").isNotNull();
            assertThat(zip.getEntry("META-INF/services/com.sun.net.httpserver.spi.HttpServerProvider")).isNull();
        }
    }

    @Test
    void everyClientKeyFormatAuthenticatesWithTheShippedJarAndBcIsNeverRegistered(@TempDir Path tmp) throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Path testClasses = Paths.get("target/test-classes").toAbsolutePath();
        // the keys are made here, where BouncyCastle's full jars are on the classpath; the probe's JVM has only the shipped jar
        TestPki pki = new TestPki();
        Files.writeString(tmp.resolve("ca.pem"), pki.caPem());
        try (OutputStream server = Files.newOutputStream(tmp.resolve("server.p12")); OutputStream trust = Files.newOutputStream(tmp.resolve("trust.p12"))) {
            pki.serverKeyStore().store(server, ServerTls.PASSWORD);
            pki.trustStore().store(trust, ServerTls.PASSWORD);
        }
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", JAR + ":" + testClasses, "dev.stsresize.cluster.KeyFormatsProbe", tmp.toString()));
        for (TestPki.KeyFormat format : TestPki.KeyFormat.values()) {
            TestPki.Issued me = pki.client("admin", format);
            Files.writeString(tmp.resolve(format + ".crt"), me.certificatePem());
            Files.writeString(tmp.resolve(format + ".key"), me.keyPem());
            cmd.add(format.name());
        }
        DistributionIT.Run r = DistributionIT.run(Map.of(), tmp, cmd.toArray(new String[0]));
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.out()).as(r.describe())
                .contains("EC_SEC1 listed 0 over TLS in 1 request")
                .contains("RSA_PKCS1 listed 0 over TLS in 1 request")
                .contains("RSA_PKCS8 listed 0 over TLS in 1 request")
                .contains("EC_PKCS8 listed 0 over TLS in 1 request")
                .contains("BC provider registered: false");
    }
}
