package dev.stsresize.sim.prometheus;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stsresize.sim.request.ServiceBackend;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A backend on a plain-HTTP port of its own on 127.0.0.1, as a Prometheus outside the cluster is reached
 * ({@code --prometheus http://…}): no TLS, no credentials asked.
 */
public final class PrometheusServer implements AutoCloseable {
    static {
        // the JDK server writes headers and body separately; without TCP_NODELAY, Nagle and delayed ACKs
        // hold back each keep-alive request's answer (read once by sun.net.httpserver.ServerConfig)
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final HttpServer server;
    private final ExecutorService pool;

    public PrometheusServer(ServiceBackend backend) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "sim-prometheus");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext("/", ex -> serve(ex, backend));
        server.start();
    }

    /** http://127.0.0.1:PORT */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static void serve(HttpExchange ex, ServiceBackend backend) {
        try (ex) {
            byte[] body = ex.getRequestBody().readAllBytes();
            ServiceBackend.Answer a = backend.serve(ex.getRequestMethod(), ex.getRequestURI().getRawPath(),
                    query(ex.getRequestURI().getRawQuery()), body);
            ex.getResponseHeaders().set("Content-Type", a.contentType());
            ex.sendResponseHeaders(a.code(), a.body().length == 0 ? -1 : a.body().length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(a.body());
            }
        } catch (IOException clientGone) {
            // nothing left to answer
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return q;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            q.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
