package dev.stsresize.cluster.fake;

import java.security.KeyStore;
import java.security.SecureRandom;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A test server's TLS from its key store and trust store, with the JDK's classes only: {@code KeyFormatsProbe}
 * calls it in a JVM that has the shipped jar and no BouncyCastle of its own ({@link TestPki} makes the stores).
 */
public final class ServerTls {
    /** The password of every store {@link TestPki} writes. */
    public static final char[] PASSWORD = "test-pki".toCharArray();

    private ServerTls() {}

    public static SSLContext context(KeyStore keys, KeyStore trust) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), new SecureRandom());
        return context;
    }
}
