package dev.stsresize.sim.http;

import dev.stsresize.sim.request.RequestInfo;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.node.ContainerLogs;
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
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The HTTPS face of the simulated cluster: HTTP/2 and HTTP/1.1 on 127.0.0.1 ({@link SecureServing}, as
 * kube-apiserver's listener) with the cluster CA's serving certificate, asking for a client certificate.
 * Every request is read, passed through the {@link Filter} chain in the order of kube-apiserver's
 * DefaultBuildHandlerChain — authentication, impersonation, faults, authorization, the backend's faults —
 * to the handler ({@link #serve}: watch, proxy, discovery or a resource), recorded, then answered.
 */
public final class ApiServer implements AutoCloseable {
    /** The largest request body the real server reads (apiserver's 3 MiB limit on an object, plus slack). */
    private static final int MAX_BODY = 3 * 1024 * 1024 + 64 * 1024;

    private final Authorizer authorizer;
    private final RequestLog log;
    private final Paths paths;
    private final Discovery discovery;
    private final OpenApi openApi;
    private final ResourceEndpoints endpoints;
    private final WatchStream watches;
    private final Proxies proxies;
    private final SecureServing server;
    private final Filter.Next chain;
    private volatile boolean stopping;

    /**
     * @param ca signs the serving certificate and is the client CA the x509 authenticator trusts
     * @param anonymousAuth kube-apiserver's --anonymous-auth: a request without credentials is system:anonymous
     */
    public ApiServer(Registry registry, Tokens tokens, RequestLog log, Faults faults, int port, long bookmarkMillis,
            CertificateAuthority ca, boolean anonymousAuth, VolumeUsage usage, Map<String, ServiceBackend> services,
            ContainerLogs containerLogs) {
        this.authorizer = new Authorizer(registry.store(), registry.catalog());
        this.log = log;
        this.paths = new Paths(registry.catalog());
        this.discovery = new Discovery(registry.catalog());
        this.openApi = new OpenApi(registry.catalog());
        this.endpoints = new ResourceEndpoints(registry, authorizer, tokens, new PodLogs(containerLogs));
        this.watches = new WatchStream(registry.store(), bookmarkMillis, () -> stopping);
        MountedVolumes mounted = new MountedVolumes(registry.store(), registry.catalog());
        this.proxies = new Proxies(registry, mounted, new KubeletSummary(mounted, usage), services);
        this.chain = Filter.chain(List.of(
                new AuthenticationFilter(new Authenticator(ca, tokens, anonymousAuth)),
                new ImpersonationFilter(new Impersonation(authorizer)),
                new FaultFilter(faults),
                new AuthorizationFilter(authorizer),
                new BackendFaultFilter(proxies)), this::serve);
        this.server = new SecureServing(ca.serverContext(ca.issueServer("kube-apiserver")), port, this::handle);
    }

    public String url() {
        return "https://127.0.0.1:" + server.port();
    }

    /** The TLS connections clients opened so far: each cost the server a handshake. */
    public long tlsConnections() {
        return server.tlsConnections();
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
        ServedRequest r = new ServedRequest(ex, paths, log);
        Response response;
        try {
            r.body = readBody(ex.getRequestBody());
            response = chain.serve(r);
            if (response == null) {
                return; // a filter or the watch answered on the connection itself
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
        } catch (VirtualMachineError e) {
            throw e; // out of memory or stack: fatal to the Go runtime too, nothing a handler recovers
        } catch (Error e) {
            response = panicked(r, e);
        }
        // recorded before the answer leaves, so a client that got its answer finds its request in the log
        r.record(response.code());
        send(ex, response);
    }

    /**
     * An Error (a class missing from a jar, a failed assertion) is what a panic is to a Go handler. Let out,
     * it would reach Jetty's http-spi handler, which ends the exchange with a 200 and no body, and the request
     * would go unrecorded. kube-apiserver's WithPanicRecovery (staging/src/k8s.io/apiserver/pkg/server/filters/wrap.go) answers http.Error's 500
     * text and logs the panic with its stack: here on stderr, the simulator's log.
     */
    private static Response panicked(ServedRequest r, Error e) {
        String rawQuery = r.exchange.getRequestURI().getRawQuery(); // req.RequestURI: the target, never an absolute URI
        System.err.println("apiserver panic'd on " + r.exchange.getRequestMethod() + " " + r.path + (rawQuery == null ? "" : "?" + rawQuery));
        e.printStackTrace();
        r.exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        return Response.typed(500, "text/plain; charset=utf-8",
                "This request caused apiserver to panic. Look in the logs for details.\n".getBytes(StandardCharsets.UTF_8));
    }

    /** The handler at the end of the chain: a watch streams on the connection itself (answering null). */
    private Response serve(ServedRequest r) throws IOException {
        if (r.info.resourceRequest() && r.info.verb().equals("watch")) {
            // recorded when the stream starts, so a test sees it while the watch is open
            r.record(200);
            watch(r.exchange, r.info, r.query, r.fault);
            return null;
        }
        return dispatch(r.exchange, r.info, r.query, r.body, r.contentType, r.user);
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
