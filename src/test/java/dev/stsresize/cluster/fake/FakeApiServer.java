package dev.stsresize.cluster.fake;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * TEST-ONLY: a tiny HTTP(S) server on 127.0.0.1 that answers canned JSON by method and path and
 * records every request (method, path, query, headers, body). Not a Kubernetes: the simulated
 * cluster of the sim package is; this one pins the exact bytes the client sends and reads.
 */
public final class FakeApiServer implements AutoCloseable {
    /** One recorded request. */
    public record Recorded(String method, String path, String query, Map<String, List<String>> headers, String body,
            String rawPath) {
        public String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    /** A canned answer; {@code chunks} are written and flushed one by one, as a watch stream is. */
    public record Answer(int code, List<String> chunks, Map<String, String> headers) {
        public static Answer json(int code, String body) {
            return new Answer(code, List.of(body), Map.of());
        }

        /** A watch stream: one JSON event per line, then the server ends it (its watch timeout). */
        public static Answer stream(String... lines) {
            List<String> chunks = new ArrayList<>();
            for (String line : lines) {
                chunks.add(line + "\n");
            }
            return new Answer(200, chunks, Map.of());
        }

        /** A watch that sends these lines and then nothing more, until the client gives up or the server closes. */
        public static Answer hanging(String... lines) {
            return stream(lines).withHeader(HANG, "true");
        }

        public Answer withHeader(String name, String value) {
            Map<String, String> h = new java.util.HashMap<>(headers);
            h.put(name, value);
            return new Answer(code, chunks, h);
        }
    }

    private static final String HANG = "X-Fake-Hang";

    private record Route(String method, String path, Function<Recorded, Answer> answer) {}

    private final HttpServer server;
    private final List<Route> routes = new CopyOnWriteArrayList<>();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();

    private final java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool();
    private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);

    private FakeApiServer(HttpServer server) {
        this.server = server;
        server.createContext("/", this::handle);
        server.setExecutor(threads); // a hanging watch must not block the other requests
        server.start();
    }

    public static FakeApiServer http() throws IOException {
        return new FakeApiServer(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
    }

    /** HTTPS with the given context; {@code needClientAuth} makes the TLS handshake demand a client certificate. */
    public static FakeApiServer https(SSLContext context, boolean needClientAuth) throws IOException {
        HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = context.getDefaultSSLParameters();
                p.setNeedClientAuth(needClientAuth);
                params.setSSLParameters(p);
            }
        });
        return new FakeApiServer(s);
    }

    public String url() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return scheme + "://127.0.0.1:" + server.getAddress().getPort();
    }

    public FakeApiServer on(String method, String path, Answer answer) {
        return on(method, path, r -> answer);
    }

    /** Later routes win, so a test can override a default. */
    public FakeApiServer on(String method, String path, Function<Recorded, Answer> answer) {
        routes.add(0, new Route(method, path, answer));
        return this;
    }

    /** Answers every request no other route matches. */
    public FakeApiServer onAnything(Answer answer) {
        routes.add(new Route("*", "*", r -> answer));
        return this;
    }

    public List<Recorded> requests() {
        return List.copyOf(requests);
    }

    public Recorded last() {
        return requests.get(requests.size() - 1);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            URI uri = exchange.getRequestURI();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Recorded r = new Recorded(exchange.getRequestMethod(), uri.getPath(), uri.getRawQuery(),
                    Map.copyOf(exchange.getRequestHeaders()), body, uri.getRawPath());
            requests.add(r);
            Answer answer = routes.stream()
                    .filter(route -> route.method.equals("*")
                            || route.method.equals(r.method()) && route.path.equals(r.path()))
                    .findFirst()
                    .map(route -> route.answer.apply(r))
                    .orElse(Answer.json(404, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                            + "\"status\":\"Failure\",\"message\":\"the server could not find the requested resource\","
                            + "\"reason\":\"NotFound\",\"code\":404}"));
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            answer.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
            boolean hang = answer.headers().containsKey(HANG);
            boolean streaming = answer.chunks().size() > 1 || hang;
            byte[] whole = String.join("", answer.chunks()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.code(), streaming ? 0 : (whole.length == 0 ? -1 : whole.length));
            OutputStream out = exchange.getResponseBody();
            for (String chunk : answer.chunks()) {
                out.write(chunk.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            if (hang) {
                try {
                    closed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
