package dev.stsresize.sim.http;

import dev.stsresize.sim.request.RequestInfo;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.auth.Authenticator;
import dev.stsresize.sim.auth.Authorizer;
import dev.stsresize.sim.auth.Impersonation;
import dev.stsresize.sim.auth.Tokens;
import dev.stsresize.sim.auth.User;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.Faults;
import dev.stsresize.sim.registry.Registry;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Selector;
import dev.stsresize.sim.tls.CertificateAuthority;
import dev.stsresize.sim.request.ServiceBackend;
import dev.stsresize.sim.usage.KubeletSummary;
import dev.stsresize.sim.usage.MountedVolumes;
import dev.stsresize.sim.usage.VolumeUsage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The HTTPS face of the simulated cluster: HTTP/2 and HTTP/1.1 on 127.0.0.1 ({@link SecureServing}, as
 * kube-apiserver's listener) with the cluster CA's serving certificate, asking for a client certificate;
 * one pipeline for every request — read, authenticate, impersonate, inject faults, authorise, dispatch,
 * record — in the order kube-apiserver's filters run (authentication, impersonation, then authorization,
 * then the handler).
 */
public final class ApiServer implements AutoCloseable {
    /** The largest request body the real server reads (apiserver's 3 MiB limit on an object, plus slack). */
    private static final int MAX_BODY = 3 * 1024 * 1024 + 64 * 1024;
    /** How long a hanging fault holds a request at most (a client gives up long before). */
    private static final long HANG_MILLIS = 15 * 60 * 1000L;

    private final Registry registry;
    private final Authenticator authenticator;
    private final Impersonation impersonation;
    private final Authorizer authorizer;
    private final RequestLog log;
    private final Faults faults;
    private final Paths paths;
    private final Discovery discovery;
    private final OpenApi openApi;
    private final ResourceEndpoints endpoints;
    private final WatchStream watches;
    private final Proxies proxies;
    private final SecureServing server;
    private volatile boolean stopping;

    /**
     * @param ca signs the serving certificate and is the client CA the x509 authenticator trusts
     * @param anonymousAuth kube-apiserver's --anonymous-auth: a request without credentials is system:anonymous
     */
    public ApiServer(Registry registry, Tokens tokens, RequestLog log, Faults faults, int port, long bookmarkMillis,
            CertificateAuthority ca, boolean anonymousAuth, VolumeUsage usage, Map<String, ServiceBackend> services) {
        this.registry = registry;
        this.authenticator = new Authenticator(ca, tokens, anonymousAuth);
        this.authorizer = new Authorizer(registry.store(), registry.catalog());
        this.impersonation = new Impersonation(authorizer);
        this.log = log;
        this.faults = faults;
        this.paths = new Paths(registry.catalog());
        this.discovery = new Discovery(registry.catalog());
        this.openApi = new OpenApi(registry.catalog());
        this.endpoints = new ResourceEndpoints(registry, authorizer, tokens);
        this.watches = new WatchStream(registry.store(), bookmarkMillis, () -> stopping);
        MountedVolumes mounted = new MountedVolumes(registry.store(), registry.catalog());
        this.proxies = new Proxies(registry, mounted, new KubeletSummary(mounted, usage), services);
        this.server = new SecureServing(ca.serverContext(ca.issueServer("kube-apiserver")), port, this::handle);
    }

    public String url() {
        return "https://127.0.0.1:" + server.port();
    }

    public int port() {
        return server.port();
    }

    public Authorizer authorizer() {
        return authorizer;
    }

    @Override
    public void close() {
        stopping = true;
        server.close();
    }

    private void handle(HttpExchange ex) {
        long started = System.nanoTime();
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getRawPath();
        if (path == null || path.isEmpty()) {
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
            User user = impersonation.apply(authenticate(ex), ex.getRequestHeaders());
            userName = user.name();
            Fault fault = faults.match(info);
            if (fault != null && fault.latencyMillis() > 0) {
                Thread.sleep(fault.latencyMillis());
            }
            if (fault != null && fault.dropConnection()) {
                record(method, path, query, contentType, body, 0, started, userName, info);
                SecureServing.dropConnection(ex); // before any header: no answer
                return;
            }
            if (fault != null && fault.hangs()) {
                authorize(user, info); // a backend that never answers is reached only after authorization
                record(method, path, query, contentType, body, 0, started, userName, info);
                Thread.sleep(HANG_MILLIS); // interrupted when the cluster closes
                ex.close();
                return;
            }
            if (fault != null && fault.backendUnreachable() && Proxies.isProxy(info)) {
                authorize(user, info); // the proxy dials only after authorization and the object's lookup
                throw proxies.unreachable(info);
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
        } catch (Impersonation.WithoutUser e) {
            // responsewriters.InternalError: http.Error's text/plain "Internal Server Error: %q: %v"
            // req.RequestURI: the request line's target (HTTP/2's :path), never an absolute URI
            String target = path + (ex.getRequestURI().getRawQuery() == null ? "" : "?" + ex.getRequestURI().getRawQuery());
            byte[] text = ("Internal Server Error: \"" + target + "\": " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8);
            record(method, path, query, contentType, body, 500, started, userName, info);
            sendPlainText(ex, 500, text);
            return;
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

    /** Who is asking: the client certificate's user, the bearer token's, or system:anonymous ({@link Authenticator}). */
    private User authenticate(HttpExchange ex) {
        return authenticator.authenticate(SecureServing.peerCertificates(ex), ex.getRequestHeaders().getFirst("Authorization"));
    }

    private void authorize(User user, RequestInfo info) {
        Authorizer.Decision d = authorizer.authorize(user, info);
        if (!d.allowed()) {
            throw Authorizer.forbidden(user, info, d.reason());
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
        if (Proxies.isProxy(info)) {
            return proxies.serve(info, ex.getRequestMethod(), query, body);
        }
        if (!info.resourceRequest()) {
            return nonResource(info.path(), ex.getRequestHeaders().getFirst("Host"), ex.getRequestHeaders().getFirst("Accept"));
        }
        ResourceType type = paths.type(info).orElseThrow(ResourceEndpoints::notFoundPath);
        var call = new ResourceEndpoints.Call(info, type, query, body, contentType, ex.getRequestHeaders().getFirst("Accept"),
                ex.getRequestHeaders().getFirst("User-Agent"), user);
        return endpoints.handle(call);
    }

    private Response nonResource(String path, String host, String accept) {
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
        if (p.equals("/openapi/v2")) {
            return switch (OpenApiV2Accept.negotiate(accept)) {
                case JSON -> Response.of(200, openApi.v2());
                case PROTOBUF -> Response.typed(200, OpenApiV2Accept.PROTOBUF_TYPE, openApi.v2Proto());
                // w.WriteHeader(406): no body
                case NONE -> Response.raw(406, new byte[0]);
            };
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
            ex.getResponseHeaders().set("Content-Type", r.contentType() != null ? r.contentType()
                    : text ? "text/plain; charset=utf-8" : "application/json");
            ex.getResponseHeaders().set("Cache-Control", "no-cache, private");
            for (String w : r.warnings()) {
                // warning.AddWarning: code 299, agent "-", the text quoted as net/http's headers carry it
                ex.getResponseHeaders().add("Warning", "299 - " + dev.stsresize.sim.patch.GoFormat.quote(w));
            }
            if (r.contentType() == null && payload.length > GZIP_THRESHOLD_BYTES && acceptsGzip(ex)) {
                payload = r.list() != null ? r.list().gzip() : gzip(payload);
                ex.getResponseHeaders().set("Content-Encoding", "gzip");
                ex.getResponseHeaders().set("Vary", "Accept-Encoding");
            }
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

    /**
     * As responsewriters/writers.go (APIResponseCompression, on by default): a serialised answer over
     * defaultGzipThresholdBytes (128 KiB) goes gzipped, at defaultGzipContentEncodingLevel (1, best speed), to a client
     * whose Accept-Encoding names gzip (negotiateContentEncoding). A proxied backend's answer is relayed as it came.
     */
    static final int GZIP_THRESHOLD_BYTES = 128 * 1024;

    static boolean acceptsGzip(HttpExchange ex) {
        java.util.List<String> headers = ex.getRequestHeaders().get("Accept-Encoding");
        for (String header : headers == null ? java.util.List.<String>of() : headers) {
            for (String token : header.split(",")) {
                if (token.trim().equals("gzip")) {
                    return true;
                }
            }
        }
        return false;
    }

    static byte[] gzip(byte[] payload) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(payload.length / 8);
        try (java.util.zip.GZIPOutputStream z = new java.util.zip.GZIPOutputStream(bytes, 64 * 1024) {
            {
                def.setLevel(java.util.zip.Deflater.BEST_SPEED);
            }
        }) {
            z.write(payload);
        }
        return bytes.toByteArray();
    }

    private static void sendPlainText(HttpExchange ex, int code, byte[] text) {
        try {
            ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            ex.sendResponseHeaders(code, text.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(text);
            }
        } catch (IOException clientGone) {
            // the client went away: nothing left to answer
        } finally {
            ex.close();
        }
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
