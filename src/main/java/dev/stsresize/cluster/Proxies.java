package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The proxy kubectl would use: the cluster's {@code proxy-url} in the kubeconfig, else HTTPS_PROXY /
 * HTTP_PROXY from the environment minus NO_PROXY (Go's rules: localhost and loopback never, "*"
 * none, a host, a domain suffix, an IP or a CIDR). Java does not read these variables by itself.
 */
final class Proxies {
    private Proxies() {}

    /** The selector for this cluster, and the proxy URL's user info for a Basic Proxy-Authorization ("" if none). */
    record Choice(ProxySelector selector, String userInfo) {}

    static Choice choose(ObjectNode cluster, ClientEnvironment env, String clusterName) {
        String configured = cluster.path("proxy-url").asText("");
        if (!configured.isEmpty()) {
            URI proxy = parse(configured, "the proxy-url of kubeconfig cluster \"" + clusterName + "\"");
            return new Choice(fixed(toProxy(proxy)), nullToEmpty(proxy.getRawUserInfo()));
        }
        Optional<URI> https = variable(env, "HTTPS_PROXY");
        Optional<URI> http = variable(env, "HTTP_PROXY");
        if (https.isEmpty() && http.isEmpty()) {
            return new Choice(fixed(Proxy.NO_PROXY), "");
        }
        List<String> noProxy = List.of(env.variable("NO_PROXY").or(() -> env.variable("no_proxy")).orElse("")
                .toLowerCase(Locale.ROOT).split("\\s*,\\s*"));
        String userInfo = https.or(() -> http).map(URI::getRawUserInfo).orElse("");
        return new Choice(new ProxySelector() {
            @Override
            public List<Proxy> select(URI target) {
                Optional<URI> proxy = "https".equalsIgnoreCase(target.getScheme()) ? https : http;
                if (proxy.isEmpty() || bypass(target.getHost(), noProxy)) {
                    return List.of(Proxy.NO_PROXY);
                }
                return List.of(toProxy(proxy.get()));
            }

            @Override
            public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
                // OkHttp reports the failure to the caller; nothing to remember here
            }
        }, nullToEmpty(userInfo));
    }

    private static Optional<URI> variable(ClientEnvironment env, String name) {
        return env.variable(name).or(() -> env.variable(name.toLowerCase(Locale.ROOT)))
                .map(v -> parse(v.contains("://") ? v : "http://" + v, "the " + name + " variable"));
    }

    private static URI parse(String url, String what) {
        try {
            URI uri = new URI(url);
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("no host");
            }
            return uri;
        } catch (Exception e) {
            // no cause: URISyntaxException quotes the whole input, password included
            throw new UserError(what + " (" + redacted(url) + ") is not a proxy URL like http://proxy.example:3128;"
                    + " fix it or unset it.");
        }
    }

    /** The URL with its password shown as xxxxx, as Go's url.Redacted shows it (kubectl prints proxy URLs so). */
    static String redacted(String url) {
        int scheme = url.indexOf("://");
        int start = scheme < 0 ? 0 : scheme + 3;
        int slash = url.indexOf('/', start);
        int at = url.lastIndexOf('@', slash < 0 ? url.length() : slash);
        if (at < start) {
            return url;
        }
        int colon = url.indexOf(':', start);
        return colon >= 0 && colon < at ? url.substring(0, colon + 1) + "xxxxx" + url.substring(at) : url;
    }

    private static Proxy toProxy(URI proxy) {
        String scheme = proxy.getScheme().toLowerCase(Locale.ROOT);
        int port = proxy.getPort() != -1 ? proxy.getPort() : scheme.startsWith("socks") ? 1080 : scheme.equals("https") ? 443 : 80;
        Proxy.Type type = scheme.startsWith("socks") ? Proxy.Type.SOCKS : Proxy.Type.HTTP;
        return new Proxy(type, InetSocketAddress.createUnresolved(proxy.getHost(), port));
    }

    private static ProxySelector fixed(Proxy proxy) {
        return new ProxySelector() {
            @Override
            public List<Proxy> select(URI uri) {
                return List.of(proxy);
            }

            @Override
            public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
                // as above
            }
        };
    }

    /**
     * Go's net/http/httpproxy rules for NO_PROXY: localhost and loopback are never proxied; "*" means
     * none; "example.com" matches it and its subdomains; ".example.com" (or "*.example.com") only
     * subdomains; an IP matches itself, a CIDR its network. A port on an entry is ignored.
     */
    static boolean bypass(String host, List<String> noProxy) {
        String h = host.toLowerCase(Locale.ROOT).replaceAll("^\\[|\\]$", "");
        if (h.equals("localhost") || isLoopback(h)) {
            return true;
        }
        for (String entry : noProxy) {
            String e = withoutPort(entry);
            if (e.startsWith("*.")) {
                e = e.substring(1);
            }
            if (e.isEmpty()) {
                continue;
            }
            boolean matches = e.equals("*")
                    || (e.startsWith(".") ? h.endsWith(e) : h.equals(e) || h.endsWith("." + e))
                    || inCidr(h, e);
            if (matches) {
                return true;
            }
        }
        return false;
    }

    /** "host:port" and "[v6]:port" lose the port; a bare IPv6 address or a CIDR stays as it is. */
    private static String withoutPort(String entry) {
        if (entry.startsWith("[")) {
            int close = entry.indexOf(']');
            return close > 0 ? entry.substring(1, close) : entry;
        }
        int colon = entry.indexOf(':');
        return colon > 0 && colon == entry.lastIndexOf(':') ? entry.substring(0, colon) : entry;
    }

    private static boolean isLoopback(String host) {
        return isIpLiteral(host) && literal(host).map(InetAddress::isLoopbackAddress).orElse(false);
    }

    private static boolean inCidr(String host, String cidr) {
        int slash = cidr.indexOf('/');
        if (slash < 0 || !isIpLiteral(host)) {
            return false;
        }
        Optional<InetAddress> address = literal(host);
        Optional<InetAddress> network = literal(cidr.substring(0, slash));
        if (address.isEmpty() || network.isEmpty()) {
            return false;
        }
        byte[] a = address.get().getAddress();
        byte[] n = network.get().getAddress();
        int bits;
        try {
            bits = Integer.parseInt(cidr.substring(slash + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        if (a.length != n.length || bits < 0 || bits > a.length * 8) {
            return false;
        }
        int shift = a.length * 8 - bits;
        return new BigInteger(1, a).shiftRight(shift).equals(new BigInteger(1, n).shiftRight(shift));
    }

    private static boolean isIpLiteral(String host) {
        return host.contains(":") || host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    }

    /** Parses an IP literal without any name lookup. */
    private static Optional<InetAddress> literal(String ip) {
        if (!isIpLiteral(ip)) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(ip));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
