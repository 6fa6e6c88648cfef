package dev.stsresize.cluster.fake;

import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** TEST-ONLY: a throwaway CA, a server certificate for 127.0.0.1, and client certificates, made at test time. */
public final class TestPki {
    public enum KeyFormat {
        /** "BEGIN EC PRIVATE KEY" (SEC1), what kubeadm and kind write for EC keys. */
        EC_SEC1,
        /** "BEGIN RSA PRIVATE KEY" (PKCS#1). */
        RSA_PKCS1,
        /** "BEGIN PRIVATE KEY" (PKCS#8), here with an RSA key. */
        RSA_PKCS8,
        /** "BEGIN PRIVATE KEY" (PKCS#8) with an EC key. */
        EC_PKCS8
    }

    /** A certificate and its key, both PEM. */
    public record Issued(String certificatePem, String keyPem) {}

    private static final SecureRandom RANDOM = new SecureRandom();

    private final KeyPair caKeys;
    private final X509Certificate ca;
    private final KeyPair serverKeys;
    private final X509Certificate server;

    public TestPki() throws Exception {
        caKeys = ec();
        ca = sign(new X500Name("CN=test-ca"), caKeys, new X500Name("CN=test-ca"), caKeys.getPrivate(), true, false);
        serverKeys = ec();
        server = sign(new X500Name("CN=kube-apiserver"), serverKeys, new X500Name("CN=test-ca"), caKeys.getPrivate(),
                false, true);
    }

    public String caPem() throws Exception {
        return pem(ca);
    }

    /** A client certificate for {@code CN=name}, its key written in the given format. */
    public Issued client(String name, KeyFormat format) throws Exception {
        KeyPair keys = switch (format) {
            case EC_SEC1, EC_PKCS8 -> ec();
            case RSA_PKCS1, RSA_PKCS8 -> rsaKeys();
        };
        X509Certificate cert = sign(new X500Name("CN=" + name), keys, new X500Name("CN=test-ca"), caKeys.getPrivate(),
                false, false);
        String key = switch (format) {
            case EC_SEC1 -> sec1(keys);
            case RSA_PKCS1 -> pem(keys); // BouncyCastle writes an RSA KeyPair as PKCS#1
            case RSA_PKCS8, EC_PKCS8 -> pkcs8(keys.getPrivate());
        };
        return new Issued(pem(cert), key);
    }

    /** The server side: its certificate, and trust in the CA for client certificates. */
    public SSLContext serverContext() throws Exception {
        return ServerTls.context(serverKeyStore(), trustStore());
    }

    /** The server's key and certificate chain, protected by {@link ServerTls#PASSWORD}. */
    public KeyStore serverKeyStore() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("server", serverKeys.getPrivate(), ServerTls.PASSWORD, new java.security.cert.Certificate[] {server, ca});
        return ks;
    }

    /** The CA, as the server trusts it for client certificates. */
    public KeyStore trustStore() throws Exception {
        KeyStore ts = KeyStore.getInstance("PKCS12");
        ts.load(null, null);
        ts.setCertificateEntry("ca", ca);
        return ts;
    }


    private static KeyPair ec() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return g.generateKeyPair();
    }

    private KeyPair rsaKeys;

    /** One RSA pair for both RSA formats: generating 2048-bit keys is the slow part of these tests. */
    private synchronized KeyPair rsaKeys() throws Exception {
        if (rsaKeys == null) {
            rsaKeys = rsa();
        }
        return rsaKeys;
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048, RANDOM);
        return g.generateKeyPair();
    }

    private static X509Certificate sign(X500Name subject, KeyPair keys, X500Name issuer, PrivateKey issuerKey,
            boolean isCa, boolean serverName) throws Exception {
        Instant now = Instant.now();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, RANDOM),
                Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.DAYS)), subject,
                keys.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
        if (serverName) {
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, InetAddress.getLoopbackAddress().getHostAddress()),
                new GeneralName(GeneralName.dNSName, "localhost")
            }));
        }
        String alg = issuerKey.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder(alg).build(issuerKey)));
    }

    private static String pem(Object o) throws Exception {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter p = new JcaPEMWriter(w)) {
            p.writeObject(o);
        }
        return w.toString();
    }

    /**
     * SEC1 with the public key included, as openssl and Go's x509.MarshalECPrivateKey write it
     * (BouncyCastle's own writer leaves the public key out, which real tools never do).
     */
    private static String sec1(KeyPair keys) throws Exception {
        org.bouncycastle.asn1.pkcs.PrivateKeyInfo info =
                org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(keys.getPrivate().getEncoded());
        org.bouncycastle.asn1.DERBitString publicKey = new org.bouncycastle.asn1.DERBitString(
                org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded())
                        .getPublicKeyData().getOctets());
        org.bouncycastle.asn1.sec.ECPrivateKey sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(256,
                ((java.security.interfaces.ECPrivateKey) keys.getPrivate()).getS(), publicKey,
                info.getPrivateKeyAlgorithm().getParameters());
        return "-----BEGIN EC PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(sec1.getEncoded())
                + "\n-----END EC PRIVATE KEY-----\n";
    }

    private static String pkcs8(PrivateKey key) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }
}
