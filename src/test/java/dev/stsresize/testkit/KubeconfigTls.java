package dev.stsresize.testkit;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A JDK HTTP client that trusts the CA a kubeconfig names (certificate-authority-data), for tests that speak raw HTTPS.
 * In the plugin's own test classes, not kube-sim's test jar: the architecture tests import every dev.stsresize class
 * outside test-classes folders, and the product may not hand-roll HTTP (ClusterArchitectureTest).
 */
public final class KubeconfigTls {
    private KubeconfigTls() {}

    /** The first bearer token of the kubeconfig's users (the simulated cluster's: the admin's, user admin-token). */
    public static String firstToken(Path kubeconfig) {
        try {
            return Files.readAllLines(kubeconfig).stream().map(String::trim).filter(l -> l.startsWith("token:")).findFirst()
                    .orElseThrow(() -> new IllegalStateException(kubeconfig + " has no token")).substring("token:".length()).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static HttpClient httpClient(Path kubeconfig) {
        try {
            String data = Files.readAllLines(kubeconfig).stream().map(String::trim).filter(l -> l.startsWith("certificate-authority-data:"))
                    .findFirst().orElseThrow(() -> new IllegalStateException(kubeconfig + " has no certificate-authority-data"))
                    .substring("certificate-authority-data:".length()).trim();
            KeyStore ts = KeyStore.getInstance("PKCS12");
            ts.load(null, null);
            ts.setCertificateEntry("ca", CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(data))));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ts);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return HttpClient.newBuilder().sslContext(ctx).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
