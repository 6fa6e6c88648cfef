package dev.stsresize.sim.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The cluster's CA, made at start as kubeadm's {@code certs} phase makes one: it signs the serving
 * certificate (127.0.0.1 and localhost) and client certificates whose subject is the identity kube-apiserver's
 * x509 authenticator reads (CN the user, each O a group). ECDSA P-256 keys: generated in well under a
 * millisecond, where RSA-2048 takes tens, and every test starts a cluster. BouncyCastle's certificate
 * builder is the one client-java already brings (bcpkix); the keys and signatures are the JDK's own.
 */
public final class CertificateAuthority {
    private static final Duration VALIDITY = Duration.ofDays(365);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KeyPair keys;
    private final X509Certificate certificate;

    /** A certificate and its private key. */
    public record Issued(X509Certificate certificate, PrivateKey key) {
        public String certificatePem() {
            return pem("CERTIFICATE", encoded(certificate));
        }

        /** PKCS#8 ("BEGIN PRIVATE KEY"), which kubectl, client-go and client-java all read. */
        public String keyPem() {
            return pem("PRIVATE KEY", key.getEncoded());
        }
    }

    private CertificateAuthority(KeyPair keys, X509Certificate certificate) {
        this.keys = keys;
        this.certificate = certificate;
    }

    public static CertificateAuthority create(String commonName) {
        KeyPair keys = newKeys();
        X500Name name = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
        X509Certificate cert = sign(name, name, keys.getPublic(), keys.getPrivate(), b -> {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature | KeyUsage.cRLSign));
        });
        return new CertificateAuthority(keys, cert);
    }

    public X509Certificate certificate() {
        return certificate;
    }

    public String certificatePem() {
        return pem("CERTIFICATE", encoded(certificate));
    }

    /** The serving certificate: SANs IP 127.0.0.1 and DNS localhost, as the server is reached. */
    public Issued issueServer(String commonName) {
        return issue(new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build(), b -> {
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        });
    }

    /** A client certificate for user {@code user} in {@code groups} (subject O=group…, CN=user). */
    public Issued issueClient(String user, List<String> groups) {
        X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE);
        for (String g : groups) {
            subject.addRDN(BCStyle.O, g);
        }
        subject.addRDN(BCStyle.CN, user);
        return issue(subject.build(), b ->
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth)));
    }

    /**
     * The server's TLS context: its certificate, and a client-certificate request that accepts whatever the
     * client sends, as Go's {@code tls.RequestClientCert} does for kube-apiserver: the chain is checked by
     * the x509 authenticator afterwards, so a foreign certificate is a 401, not a failed handshake.
     */
    public SSLContext serverContext(Issued server) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            char[] pass = "sim".toCharArray();
            ks.setKeyEntry("server", server.key(), pass, new Certificate[] {server.certificate(), certificate});
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, pass);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), new TrustManager[] {new RequestAnyClientCertificate(certificate)}, RANDOM);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot set up the simulated cluster's TLS", e);
        }
    }

    /** A client's TLS context that trusts this CA only (for Java clients in tests and tools). */
    public SSLContext clientContext() {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {trustManager()}, RANDOM);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public javax.net.ssl.X509TrustManager trustManager() {
        try {
            KeyStore ts = KeyStore.getInstance("PKCS12");
            ts.load(null, null);
            ts.setCertificateEntry("ca", certificate);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ts);
            return (javax.net.ssl.X509TrustManager) tmf.getTrustManagers()[0];
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code cert} was signed by this CA, is within its validity and may authenticate a client. */
    public boolean verifiesClient(X509Certificate cert) {
        try {
            cert.verify(keys.getPublic());
            cert.checkValidity();
            List<String> usages = cert.getExtendedKeyUsage();
            return usages == null || usages.contains(KeyPurposeId.id_kp_clientAuth.getId());
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private Issued issue(X500Name subject, Extensions extensions) {
        KeyPair k = newKeys();
        X500Name issuer = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
        return new Issued(sign(issuer, subject, k.getPublic(), keys.getPrivate(), b -> {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            extensions.add(b);
        }), k.getPrivate());
    }

    private interface Extensions {
        void add(X509v3CertificateBuilder b) throws IOException;
    }

    private static X509Certificate sign(X500Name issuer, X500Name subject, java.security.PublicKey key, PrivateKey signer,
            Extensions extensions) {
        Instant now = Instant.now();
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, RANDOM).add(BigInteger.ONE),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(VALIDITY)), subject, key);
            extensions.add(b);
            return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot sign a certificate for the simulated cluster", e);
        }
    }

    private static KeyPair newKeys() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] encoded(X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** Asks for a client certificate naming this CA, and accepts any: the authenticator decides. */
    private static final class RequestAnyClientCertificate extends X509ExtendedTrustManager {
        private final X509Certificate ca;

        RequestAnyClientCertificate(X509Certificate ca) {
            this.ca = ca;
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws java.security.cert.CertificateException {
            throw new java.security.cert.CertificateException("a server does not check servers");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws java.security.cert.CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws java.security.cert.CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[] {ca};
        }
    }
}
