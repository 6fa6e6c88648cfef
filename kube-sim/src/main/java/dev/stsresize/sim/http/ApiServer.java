package dev.stsresize.sim.http;

import dev.stsresize.sim.request.RequestInfo;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.auth.Authorizer;
import dev.stsresize.sim.auth.Tokens;
import dev.stsresize.sim.auth.User;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.Faults;
import dev.stsresize.sim.registry.Registry;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Selector;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

/**
 * The HTTP face of the simulated cluster: the JDK's built-in server on 127.0.0.1 (nothing to add to
 * the product jar, and enough for chunked watch streams), one pipeline for every request — read,
 * authenticate, inject faults, authorise, dispatch, record — in the order kube-apiserver's filters
 * run (authentication, then authorization, then the handler).
 */
public final class ApiServer implements AutoCloseable {
    /** The largest request body the real server reads (apiserver's 3 MiB limit on an object, plus slack). */
    private static final int MAX_BODY = 3 * 1024 * 1024 + 64 * 1024;

    static {
        // the JDK server writes headers and body separately; without TCP_NODELAY, Nagle and delayed ACKs
        // cost ~40 ms per keep-alive request (read once by sun.net.httpserver.ServerConfig)
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final Registry registry;
    private final Tokens tokens;
    private final Authorizer authorizer;
    private final RequestLog log;
    private final Faults faults;
    private final Paths paths;
    private final Discovery discovery;
    private final OpenApi openApi;
    private final ResourceEndpoints endpoints;
    private final WatchStream watches;
    private final HttpServer server;
    private final ExecutorService pool;
    private volatile boolean stopping;
    private final boolean anonymousIsAdmin;

    public ApiServer(Registry registry, Tokens tokens, RequestLog log, Faults faults, int port, long bookmarkMillis,
            boolean anonymousIsAdmin) {
        this.anonymousIsAdmin = anonymousIsAdmin;
        this.registry = registry;
        this.tokens = tokens;
        this.authorizer = new Authorizer(registry.store(), registry.catalog());
        this.log = log;
        this.faults = faults;
        this.paths = new Paths(registry.catalog());
        this.discovery = new Discovery(registry.catalog());
        this.openApi = new OpenApi(registry.catalog());
        this.endpoints = new ResourceEndpoints(registry, authorizer, tokens);
        this.watches = new WatchStream(registry.store(), bookmarkMillis, () -> stopping);
        try {
            this.server = HttpServer.create(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "sim-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public Authorizer authorizer() {
        return authorizer;
    }

    @Override
    public void close() {
        stopping = true;
        server.stop(0);
        pool.shutdownNow();
    }

    private void handle(HttpExchange ex) {
        long started = System.nanoTime();
        String method = ex.getRequestMethod();
        String rawPath = ex.getRequestURI().getRawPath();
        String pathToken = tokenInPath(rawPath);
        String path = pathToken == null ? rawPath : rawPath.substring(TOKEN_PREFIX.length() + pathToken.length());
        if (path.isEmpty()) {
            path = "/";
        }
        Map<String, String> query = query(ex.getRequestURI().getRawQuery());
        String contentType = ex.getRequestHeaders().getFirst("Content-Type");
        RequestInfo info = paths.resolve(method, path, query);
        String userName = "";
        byte[] body = new byte[0];
        Response response;
        try {
            body = readBody(ex.getRequestBody());
            User user = authenticate(ex, info, pathToken);
            userName = user == null ? "" : user.name();
            Fault fault = faults.match(info);
            if (fault != null && fault.latencyMillis() > 0) {
                Thread.sleep(fault.latencyMillis());
            }
            if (fault != null && fault.dropConnection()) {
                record(method, path, query, contentType, body, 0, started, userName, info);
                ex.close(); // before any header: the JDK server closes the connection without an answer
                return;
            }
            if (fault != null && fault.error() != null) {
                if (fault.retryAfterSeconds() != null) {
                    ex.getResponseHeaders().set("Retry-After", Integer.toString(fault.retryAfterSeconds()));
                }
                response = Response.of(fault.error().code(), fault.error().status());
            } else {
                authorize(user, info);
                if (info.resourceRequest() && info.verb().equals("watch")) {
                    // recorded when the stream starts, so a test sees it while the watch is open
                    record(method, path, query, contentType, body, 200, started, userName, info);
                    watch(ex, info, query, fault);
                    return;
                }
                response = dispatch(ex, info, query, body, contentType, user);
            }
        } catch (ApiError e) {
            response = Response.of(e.code(), e.status());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ex.close();
            return;
        } catch (RuntimeException | IOException e) {
            // a bug or a missing piece (e.g. a patch type not yet implemented): a 500 Status, never silence
            response = Response.of(500, ApiError.of(500, "InternalError", "Internal error occurred: " + e, null).status());
        }
        // recorded before the answer leaves, so a client that got its answer finds its request in the log
        record(method, path, query, contentType, body, response.code(), started, userName, info);
        send(ex, response);
    }

    private void record(String method, String path, Map<String, String> query, String contentType, byte[] body, int status,
            long started, String userName, RequestInfo info) {
        long millis = (System.nanoTime() - started) / 1_000_000;
        log.add(new RecordedRequest(method, path, query, contentType == null ? "" : contentType,
                new String(body, StandardCharsets.UTF_8), status, millis, userName, info.verb(),
                info.resourceAndSub(), info.namespace(), info.name()));
    }

    /**
     * Who is asking: the bearer token's user; else the token in a {@code /sa-token/TOKEN} path prefix,
     * because kubectl sends no credentials at all over plain HTTP (clientcmd reads auth info only for
     * TLS connections, kubernetes/kubectl#744), so a kubeconfig context carries its identity in the
     * server URL; else, with no credentials, the admin, as kube-apiserver's former insecure port
     * (plain HTTP on localhost, removed in v1.20) granted everything — unless anonymous is refused.
     */
    private User authenticate(HttpExchange ex, RequestInfo info, String pathToken) {
        String header = ex.getRequestHeaders().getFirst("Authorization");
        String token = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : pathToken;
        if (token != null) {
            Optional<User> user = tokens.user(token);
            if (user.isPresent()) {
                return user.get();
            }
        } else if (anonymousIsAdmin) {
            return User.admin();
        }
        if (!info.resourceRequest() && isPublic(info.path())) {
            return null; // system:public-info-viewer lets anyone read the version and health
        }
        throw ApiError.of(401, "Unauthorized", "Unauthorized", null);
    }

    static final String TOKEN_PREFIX = "/sa-token/";

    private static String tokenInPath(String path) {
        if (!path.startsWith(TOKEN_PREFIX)) {
            return null;
        }
        int end = path.indexOf('/', TOKEN_PREFIX.length());
        return end < 0 ? path.substring(TOKEN_PREFIX.length()) : path.substring(TOKEN_PREFIX.length(), end);
    }

    private static boolean isPublic(String path) {
        return path.equals("/version") || path.equals("/healthz") || path.equals("/readyz") || path.equals("/livez");
    }

    private void authorize(User user, RequestInfo info) {
        if (user != null) {
            Authorizer.Decision d = authorizer.authorize(user, info);
            if (!d.allowed()) {
                throw Authorizer.forbidden(user, info, d.reason());
            }
        }
    }

    private void watch(HttpExchange ex, RequestInfo info, Map<String, String> query, Fault fault) throws IOException {
        ResourceType type = paths.type(info).orElseThrow(ResourceEndpoints::notFoundPath);
        long timeout = query.containsKey("timeoutSeconds") ? Long.parseLong(query.get("timeoutSeconds")) * 1000 : 30 * 60 * 1000L;
        Predicate<JsonNode> labels = Selector.labels(query.get("labelSelector"));
        Predicate<JsonNode> fields = Selector.fields(type, query.get("fieldSelector"));
        Predicate<JsonNode> byName = o -> info.name().isEmpty() || info.name().equals(o.path("metadata").path("name").asText());
        var params = new WatchStream.Params(type, info.namespace(), o -> labels.test(o) && fields.test(o) && byName.test(o),
                query.get("resourceVersion"), "true".equals(query.get("allowWatchBookmarks")),
                "true".equals(query.get("sendInitialEvents")), timeout, fault == null ? null : fault.cutWatchAfterEvents(),
                Tables.wanted(ex.getRequestHeaders().getFirst("Accept")));
        watches.serve(ex, params);
        ex.close();
    }

    private Response dispatch(HttpExchange ex, RequestInfo info, Map<String, String> query, byte[] body, String contentType,
            User user) {
        if (!info.resourceRequest()) {
            return nonResource(info.path(), ex.getRequestHeaders().getFirst("Host"));
        }
        ResourceType type = paths.type(info).orElseThrow(ResourceEndpoints::notFoundPath);
        var call = new ResourceEndpoints.Call(info, type, query, body, contentType, ex.getRequestHeaders().getFirst("Accept"),
                ex.getRequestHeaders().getFirst("User-Agent"), user);
        return endpoints.handle(call);
    }

    private Response nonResource(String path, String host) {
        String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        if (p.equals("/version")) {
            return Response.of(200, Discovery.version());
        }
        if (p.equals("/api")) {
            return Response.of(200, discovery.coreVersions(host == null ? "127.0.0.1:" + port() : host));
        }
        if (p.equals("/apis")) {
            return Response.of(200, discovery.groupList());
        }
        if (p.equals("/api/v1")) {
            return Response.of(200, discovery.resources("", "v1").orElseThrow());
        }
        if (p.startsWith("/apis/")) {
            String[] s = p.substring(6).split("/");
            if (s.length == 1) {
                return Response.of(200, discovery.group(s[0]).orElseThrow(ResourceEndpoints::notFoundPath));
            }
            if (s.length == 2) {
                return Response.of(200, discovery.resources(s[0], s[1]).orElseThrow(ResourceEndpoints::notFoundPath));
            }
        }
        if (p.equals("/openapi/v3")) {
            return Response.of(200, openApi.root());
        }
        if (p.startsWith("/openapi/v3/")) {
            return Response.of(200, openApi.document(p.substring("/openapi/v3/".length())).orElseThrow(ResourceEndpoints::notFoundPath));
        }
        if (p.equals("/healthz") || p.equals("/readyz") || p.equals("/livez")) {
            return Response.raw(200, "ok".getBytes(StandardCharsets.UTF_8));
        }
        throw ResourceEndpoints.notFoundPath();
    }

    private static int send(HttpExchange ex, Response r) {
        try {
            byte[] payload = r.payload();
            boolean text = r.body() == null && payload.length == 2 && payload[0] == 'o';
            ex.getResponseHeaders().set("Content-Type", text ? "text/plain; charset=utf-8" : "application/json");
            ex.getResponseHeaders().set("Cache-Control", "no-cache, private");
            ex.sendResponseHeaders(r.code(), payload.length == 0 ? -1 : payload.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(payload);
            }
        } catch (IOException clientGone) {
            // the client went away: nothing left to answer
        } finally {
            ex.close();
        }
        return r.code();
    }

    private static byte[] readBody(InputStream in) throws IOException {
        byte[] b = in.readNBytes(MAX_BODY + 1);
        if (b.length > MAX_BODY) {
            throw ApiError.of(413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728", null);
        }
        return b;
    }

    /** Decoded query parameters; a repeated key keeps its last value, except dryRun where any "All" wins. */
    static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return q;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (k.equals("dryRun") && "All".equals(q.get(k))) {
                continue;
            }
            q.put(k, v);
        }
        return q;
    }
}
