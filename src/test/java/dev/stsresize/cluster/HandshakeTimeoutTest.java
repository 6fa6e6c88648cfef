package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stsresize.cluster.fake.SilentServer;
import dev.stsresize.sim.SimCluster;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS handshake gives up as kubectl's does (client-go's TLSHandshakeTimeout), and only the handshake: what the
 * connection streams afterwards (a watch silent between events) keeps OkHttp's own timeouts.
 */
class HandshakeTimeoutTest {
    @TempDir Path home;

    @Test
    void theProductsClientTimesItsHandshakesAsKubectl() throws Exception {
        try (SimCluster sim = SimCluster.start()) {
            OkHttpClient http = productClient(sim);
            assertThat(http.sslSocketFactory()).isInstanceOf(HandshakeTimeout.class);
            assertThat(HandshakeTimeout.KUBECTL_MILLIS).isEqualTo(10_000);
        }
    }

    @Test
    void aServerThatNeverAnswersTheHandshakeIsGivenUpOn() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            String url = silent.url();
            SSLSocketFactory jdk = SSLContext.getDefault().getSocketFactory();

            Throwable timed = call(url, new HandshakeTimeout(jdk, 300));
            assertThat(timed).as("with the handshake's timeout").isInstanceOf(SocketTimeoutException.class);
            // and the user is told it was the handshake, which --request-timeout cannot lengthen
            String said = new Failures("https://10.0.0.1:6443", "context \"prod\"")
                    .unreachable((IOException) timed, "LIST statefulsets").getMessage();
            assertThat(said).contains("the TLS handshake did not finish in 10 s").doesNotContain("--request-timeout");

            // the control: the same handshake without it waits until the whole call's time is up
            Throwable untimed = call(url, jdk);
            assertThat(untimed).as("without it").isInstanceOf(InterruptedIOException.class)
                    .isNotInstanceOf(SocketTimeoutException.class).hasMessage("timeout");
            assertThat(new Failures("https://10.0.0.1:6443", "context \"prod\"")
                    .unreachable((IOException) untimed, "LIST statefulsets").getMessage())
                    .contains("no answer in time").contains("--request-timeout");
        }
    }

    /** The HTTP client the product makes from the simulated cluster's kubeconfig. */
    private OkHttpClient productClient(SimCluster sim) {
        Path kubeconfig = home.resolve("kubeconfig");
        sim.writeKubeconfig(kubeconfig);
        return Kubeconfigs.connect(kubeconfig, home).client().getHttpClient();
    }

    private static Throwable call(String url, SSLSocketFactory factory) {
        OkHttpClient client = new OkHttpClient.Builder().readTimeout(0, TimeUnit.MILLISECONDS)
                .callTimeout(3, TimeUnit.SECONDS).sslSocketFactory(factory, trustAll()).build();
        return catchThrowable(() -> client.newCall(new Request.Builder().url(url).build()).execute().close());
    }

    private static javax.net.ssl.X509TrustManager trustAll() {
        return new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {}

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        };
    }

    @Test
    void anHttp2StreamSilentLongerThanTheHandshakeTimeoutStaysOpen() throws Exception {
        try (SimCluster sim = SimCluster.start()) {
            OkHttpClient product = productClient(sim);
            // the product's factory, its handshakes now timed at 300 ms: a socket still timed so after its handshake
            // would cut this watch, silent for a second, at 300 ms
            OkHttpClient http = product.newBuilder()
                    .sslSocketFactory(new HandshakeTimeout(product.sslSocketFactory(), 300), product.x509TrustManager())
                    .build();
            long start = System.nanoTime();
            try (Response r = http.newCall(new Request.Builder()
                    .url(sim.url() + "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1").build()).execute()) {
                assertThat(r.protocol()).isEqualTo(Protocol.HTTP_2);
                assertThat(r.code()).isEqualTo(200);
                r.body().string(); // to the end of the watch
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("the watch ran its second")
                    .isGreaterThanOrEqualTo(900);
        }
    }
}
