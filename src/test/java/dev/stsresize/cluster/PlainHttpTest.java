package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/** The client for a Prometheus given by URL: made at its first request, and with no TLS at all for an http URL. */
class PlainHttpTest {
    @Test
    void anHttpServerIsAskedInCleartextWithNoTlsContextBuilt() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            server.on("GET", "/api/v1/query", Answer.json(200, "{\"status\":\"success\"}"));
            PlainHttp http = new PlainHttp(Duration.ofSeconds(5), false);
            HttpAnswer a = http.get(URI.create(server.url()), "/api/v1/query", Map.of("query", "up"));
            assertThat(a.code()).isEqualTo(200);
            assertThat(server.last().query()).isEqualTo("query=up");
            OkHttpClient client = http.client();
            assertThat(client.connectionSpecs()).containsExactly(ConnectionSpec.CLEARTEXT);
            // OkHttp made no socket factory (nor read the JDK's trust store) for a cleartext-only client
            assertThatThrownBy(client::sslSocketFactory).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void anHttpsServerKeepsOkHttpsDefaultTls() {
        // the negative control: an https URL gets TLS, checked by the JDK's trust store as before
        OkHttpClient client = new PlainHttp(Duration.ofSeconds(5), true).client();
        assertThat(client.connectionSpecs()).containsExactlyElementsOf(new OkHttpClient().connectionSpecs());
        assertThat(client.sslSocketFactory()).isNotNull();
    }

    @Test
    void nothingIsBuiltBeforeTheFirstRequest() throws Exception {
        PlainHttp http = new PlainHttp(Duration.ofSeconds(5), true);
        java.lang.reflect.Field f = PlainHttp.class.getDeclaredField("client");
        f.setAccessible(true);
        assertThat(f.get(http)).isNull();
        http.client();
        assertThat(f.get(http)).isNotNull();
    }
}
