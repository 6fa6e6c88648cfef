package dev.stsresize.sim.http;

import com.sun.net.httpserver.HttpExchange;
import dev.stsresize.sim.auth.User;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.request.RequestInfo;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One request on its way through the {@link Filter}s, as the request context carries it in kube-apiserver:
 * what was read of it, who asks (set by authentication, replaced by impersonation) and the fault injected
 * into it. It records itself in the request log once, with the status it was answered with.
 */
final class ServedRequest {
    final HttpExchange exchange;
    final long started;
    final String method;
    final String path;
    final Map<String, String> query;
    final String contentType;
    final RequestInfo info;
    private final RequestLog log;
    byte[] body = new byte[0];
    /** Who asks: the authenticated user, then the impersonated one. */
    User user;
    /** The name the request log shows: empty until impersonation has decided who the request runs as. */
    String userName = "";
    /** The fault that applies to this request, or null. */
    Fault fault;

    ServedRequest(HttpExchange exchange, Paths paths, RequestLog log) {
        this.started = System.nanoTime();
        this.exchange = exchange;
        this.log = log;
        this.method = exchange.getRequestMethod();
        String raw = exchange.getRequestURI().getRawPath();
        this.path = raw == null || raw.isEmpty() ? "/" : raw;
        this.query = ApiServer.query(exchange.getRequestURI().getRawQuery());
        this.contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        this.info = paths.resolve(method, path, query);
    }

    String header(String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }

    /** Adds the request to the log, with the status answered (0: none, the connection was dropped or hangs). */
    void record(int status) {
        long millis = (System.nanoTime() - started) / 1_000_000;
        log.add(new RecordedRequest(method, path, query, contentType == null ? "" : contentType,
                new String(body, StandardCharsets.UTF_8), status, millis, userName, info.verb(),
                info.resourceAndSub(), info.namespace(), info.name()));
    }
}
