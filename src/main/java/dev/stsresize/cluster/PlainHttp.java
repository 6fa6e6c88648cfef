package dev.stsresize.cluster;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionSpec;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * A GET to a server that is not the API server (a Prometheus given by URL), with NO credentials: the
 * kubeconfig's are for the API server only. The JDK's trust store decides TLS.
 */
public final class PlainHttp {
    private final Duration timeout;
    private final boolean tls;
    private OkHttpClient client;

    /** For an {@code https} server when {@code tls}; cleartext only otherwise. Nothing is built before the first request. */
    public PlainHttp(Duration timeout, boolean tls) {
        this.timeout = timeout;
        this.tls = tls;
    }

    /**
     * The client, made at the first request: flag checks make a source without asking anything, and OkHttp's default
     * TLS set-up reads the JDK's whole trust store. An {@code http} server gets cleartext only, so none is made at all.
     */
    synchronized OkHttpClient client() {
        if (client == null) {
            OkHttpClient.Builder b = new OkHttpClient.Builder().callTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .followRedirects(false).connectionPool(IdleConnections.newPool(5));
            if (!tls) {
                b.connectionSpecs(List.of(ConnectionSpec.CLEARTEXT));
            }
            client = b.build();
        }
        return client;
    }

    /** The answer whatever its code; no answer is a one-line {@link IOException} message for the caller's note. */
    public HttpAnswer get(URI base, String path, Map<String, String> query) throws IOException {
        HttpUrl url = HttpUrl.get(base.toString());
        HttpUrl.Builder b = url.newBuilder();
        String prefix = url.encodedPath().endsWith("/") ? url.encodedPath().substring(0, url.encodedPath().length() - 1)
                : url.encodedPath();
        b.encodedPath(prefix + path);
        query.forEach(b::addQueryParameter);
        try (Response r = client().newCall(new Request.Builder().url(b.build()).get().build()).execute()) {
            ResponseBody body = r.body();
            return new HttpAnswer(r.code(), r.header("Content-Type", ""), body == null ? "" : body.string());
        } catch (ConnectException e) {
            throw new IOException("connection refused", e);
        } catch (UnknownHostException e) {
            throw new IOException("unknown host " + e.getMessage(), e);
        } catch (java.io.InterruptedIOException e) {
            throw new IOException("no answer in time", e);
        }
    }
}
