package dev.stsresize.usage;

import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.HttpAnswer;
import dev.stsresize.cluster.PlainHttp;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where {@code --prometheus URL} points, and how its {@code /api/v1/query} is reached:
 * <ul>
 * <li>an in-cluster name, {@code http://NAME.NAMESPACE.svc[.cluster.local][:PORT][/prefix]}, or the API
 *     server's own service proxy URL ({@code https://SERVER/api/v1/namespaces/NS/services/NAME:PORT/proxy}),
 *     go through the API server's service proxy with the kubeconfig's credentials ({@code services/proxy} get);
 * <li>any other URL is asked directly, with no credentials (they are the API server's only).
 * </ul>
 */
public abstract class PrometheusSource {
    private static final Pattern SVC_HOST = Pattern.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?)\\.([a-z0-9]([-a-z0-9]*[a-z0-9])?)"
            + "\\.svc(\\.cluster\\.local)?");
    private static final Pattern PROXY_PATH = Pattern.compile("/api/v1/namespaces/([^/]+)/services/([^/]+)/proxy(/.*)?");

    private final String shown;

    PrometheusSource(String shown) {
        this.shown = shown;
    }

    /** The URL as the operator gave it, for notes. */
    public String shown() {
        return shown;
    }

    /** GET {@code PATH} with {@code query}; every answer whatever its code. No answer: IOException with a short reason. */
    abstract HttpAnswer get(String path, Map<String, String> query) throws IOException;

    /**
     * @param apiServer the kubeconfig's server URL (its service proxy URLs are recognised by it); may be empty
     * @throws IllegalArgumentException naming the URL and the forms accepted
     */
    public static PrometheusSource of(String url, Optional<URI> apiServer, Cluster cluster, Duration timeout) {
        URI uri;
        try {
            uri = URI.create(url.trim());
        } catch (IllegalArgumentException e) {
            throw bad(url);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw bad(url);
        }
        String path = uri.getRawPath() == null ? "" : stripSlash(uri.getRawPath());
        Matcher svc = SVC_HOST.matcher(uri.getHost());
        if (svc.matches()) {
            String port = uri.getPort() > 0 ? ":" + uri.getPort() : "";
            String service = (scheme.equals("https") ? "https:" : "") + svc.group(1) + (port.isEmpty() && scheme.equals("https") ? ":" : port);
            return new ThroughApiServer(url, cluster, svc.group(3), service, path, timeout);
        }
        Matcher proxy = PROXY_PATH.matcher(path);
        if (proxy.matches() && apiServer.isPresent() && sameOrigin(uri, apiServer.get())) {
            return new ThroughApiServer(url, cluster, proxy.group(1), proxy.group(2),
                    proxy.group(3) == null ? "" : stripSlash(proxy.group(3)), timeout);
        }
        return new Direct(url, uri, timeout);
    }

    private static boolean sameOrigin(URI a, URI b) {
        return a.getScheme().equalsIgnoreCase(String.valueOf(b.getScheme())) && a.getHost().equalsIgnoreCase(String.valueOf(b.getHost()))
                && port(a) == port(b);
    }

    private static int port(URI u) {
        return u.getPort() > 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
    }

    private static String stripSlash(String p) {
        return p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    private static IllegalArgumentException bad(String url) {
        return new IllegalArgumentException("--prometheus " + url + " is not a Prometheus URL: give its base URL, e.g. "
                + "http://prometheus.example:9090, the in-cluster http://prometheus-k8s.monitoring.svc:9090 (reached through "
                + "the API server's service proxy with your kubeconfig), or the API server's "
                + "https://SERVER/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy");
    }

    /** Through the API server's service proxy, with the kubeconfig's credentials. */
    static final class ThroughApiServer extends PrometheusSource {
        private final Cluster cluster;
        private final String namespace;
        private final String service;
        private final String prefix;
        private final Duration timeout;

        ThroughApiServer(String shown, Cluster cluster, String namespace, String service, String prefix, Duration timeout) {
            super(shown);
            this.cluster = cluster;
            this.namespace = namespace;
            this.service = service;
            this.prefix = prefix;
            this.timeout = timeout;
        }

        @Override
        HttpAnswer get(String path, Map<String, String> query) throws IOException {
            try {
                return cluster.serviceProxyGet(namespace, service, prefix + path, query, timeout);
            } catch (RuntimeException e) {
                throw new IOException(e.getMessage(), e);
            }
        }

        @Override
        public String toString() {
            return "services/proxy " + namespace + "/" + service + prefix;
        }
    }

    /** A Prometheus reachable from here, asked without credentials. */
    static final class Direct extends PrometheusSource {
        private final URI base;
        private final PlainHttp http;

        Direct(String shown, URI base, Duration timeout) {
            super(shown);
            this.base = base;
            this.http = new PlainHttp(timeout, "https".equalsIgnoreCase(base.getScheme()));
        }

        @Override
        HttpAnswer get(String path, Map<String, String> query) throws IOException {
            return http.get(base, path, query);
        }

        @Override
        public String toString() {
            return base.toString();
        }
    }
}
