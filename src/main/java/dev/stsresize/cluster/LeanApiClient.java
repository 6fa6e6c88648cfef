package dev.stsresize.cluster;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.ClientBuilder;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.ConnectionPool;
import okhttp3.ConnectionSpec;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.internal.tls.OkHostnameVerifier;

/**
 * client-java's {@link ApiClient} without the start-up work this plugin never uses, most of a
 * cold live {@code plan}'s start (docs/performance.md has the figures):
 * <ul>
 *   <li>no {@link JSON} at construction: its static initialiser loads and registers a Gson type
 *       adapter for each of client-java's ~770 models (~900 classes). Requests here carry raw
 *       {@code byte[]} bodies and answers are read by Jackson, so nothing needs it; {@link #getJSON()}
 *       still makes one for whoever asks.</li>
 *   <li>one TLS context, made once every setting is known, instead of one per setter
 *       ({@code setVerifyingSsl}, {@code setSslCaCert}, {@code setKeyManagers}, {@code setTlsServerName}
 *       each rebuild it in ApiClient) plus OkHttp's own default one (which reads the JDK's whole
 *       {@code cacerts} even when the kubeconfig names the cluster's CA);</li>
 *   <li>none at all for a plain-http server (OkHttp's connection specs are cleartext only there).</li>
 * </ul>
 * The TLS settings are applied exactly as {@code ApiClient.applySslSettings} of client-java 27
 * applies them: trust-all with {@code insecure-skip-tls-verify}, else the cluster's CA (or the
 * system's), the hostname checked against {@code tls-server-name} when set, the client key managers.
 * Built only by {@link Builder}, a drop-in {@link ClientBuilder}.
 */
final class LeanApiClient extends ApiClient {
    /** Until {@link #finishTls} runs, setters only record their values. */
    private boolean settled;

    private LeanApiClient() {
        super();
    }

    @Override
    protected void init() {
        // ApiClient.init() without `json = new JSON()`
        verifyingSsl = true;
        setUserAgent("kubectl-stsresize");
        authentications = new HashMap<>();
    }

    @Override
    protected void initHttpClient(List<Interceptor> interceptors) {
        // cleartext until finishTls knows the scheme: OkHttp builds no TLS context for such a client
        OkHttpClient.Builder builder = new OkHttpClient.Builder()
                .connectionSpecs(List.of(ConnectionSpec.CLEARTEXT))
                .addNetworkInterceptor(getProgressInterceptor());
        interceptors.forEach(builder::addInterceptor);
        httpClient = builder.build();
    }

    @Override
    public JSON getJSON() {
        if (json == null) {
            json = new JSON();
        }
        return json;
    }

    @Override
    protected void applySslSettings() {
        if (settled) {
            applyTls();
        }
    }

    /** After the last setting: a TLS context for an https server, none for a plain-http one. */
    void finishTls(boolean tls) {
        settled = true;
        if (tls) {
            applyTls();
        }
    }

    private void applyTls() {
        try {
            TrustManager[] trustManagers;
            HostnameVerifier hostnameVerifier;
            if (!verifyingSsl) {
                trustManagers = new TrustManager[] {TRUST_ALL};
                hostnameVerifier = (hostname, session) -> true;
            } else {
                TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                factory.init(sslCaCert == null ? null : caKeyStore(sslCaCert));
                trustManagers = factory.getTrustManagers();
                String serverName = tlsServerName;
                hostnameVerifier = serverName == null || serverName.isEmpty() ? OkHostnameVerifier.INSTANCE
                        : (hostname, session) -> OkHostnameVerifier.INSTANCE.verify(serverName, session);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers, trustManagers, new SecureRandom());
            httpClient = httpClient.newBuilder()
                    .connectionSpecs(List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT)) // OkHttp's default
                    .sslSocketFactory(new HandshakeTimeout(context.getSocketFactory(), HandshakeTimeout.KUBECTL_MILLIS),
                            (X509TrustManager) trustManagers[0])
                    .hostnameVerifier(hostnameVerifier)
                    .build();
        } catch (GeneralSecurityException e) {
            throw new RuntimeException(e);
        }
    }

    private KeyStore caKeyStore(InputStream pem) throws GeneralSecurityException {
        Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509").generateCertificates(pem);
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException("expected non-empty set of trusted certificates");
        }
        KeyStore store = newEmptyKeyStore(null);
        int index = 0;
        for (Certificate certificate : certificates) {
            store.setCertificateEntry("ca" + index++, certificate);
        }
        return store;
    }

    private static final X509TrustManager TRUST_ALL = new X509TrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };

    /** {@link ClientBuilder} whose {@code build()} makes a {@link LeanApiClient}, otherwise as client-java's. */
    static final class Builder extends ClientBuilder {
        private byte[] certificateAuthority;

        @Override
        public Builder setBasePath(String basePath) {
            super.setBasePath(basePath);
            return this;
        }

        @Override
        public Builder setCertificateAuthority(byte[] certificateAuthority) {
            this.certificateAuthority = certificateAuthority;
            super.setCertificateAuthority(certificateAuthority);
            return this;
        }

        /** ClientBuilder.build() of client-java 27, on a LeanApiClient, with TLS set up once at the end. */
        @Override
        public ApiClient build() {
            LeanApiClient client = new LeanApiClient();
            ConnectionPool pool = IdleConnections.newPool(32);
            OneConnectionFirst oneConnection = new OneConnectionFirst(pool);
            OkHttpClient.Builder http = client.getHttpClient().newBuilder();
            // first, so that every interceptor added later (credentials, the request log) runs after the wait
            http.interceptors().add(0, oneConnection.beforeConnecting());
            client.setHttpClient(http
                    .addNetworkInterceptor(oneConnection.whenConnected())
                    .protocols(getProtocols())
                    .readTimeout(getReadTimeout())
                    .pingInterval(getPingInterval())
                    // as many idle connections as requests the product sends at once (usage reads 32 kubelet
                    // summaries at a time): OkHttp's default keeps 5, and every other one would cost a new TLS handshake
                    .connectionPool(pool)
                    .build());
            String base = getBasePath();
            if (base != null) {
                client.setBasePath(base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
            }
            client.setVerifyingSsl(isVerifyingSsl());
            String serverName = getTlsServerName();
            if (serverName != null && !serverName.isEmpty()) {
                client.setTlsServerName(serverName);
            }
            if (getAuthentication() != null) {
                getAuthentication().provide(client);
            }
            if (certificateAuthority != null) {
                client.setSslCaCert(new java.io.ByteArrayInputStream(certificateAuthority));
            }
            client.finishTls(base != null && base.regionMatches(true, 0, "https://", 0, 8));
            return client;
        }
    }
}
