package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import javax.net.ssl.SSLException;
import okhttp3.Response;

/** Turns what went wrong on the wire into the two failures of the port: ClusterException and ServerUnreachable. */
final class Failures {
    private final String server;
    private final String origin;

    Failures(String server, String origin) {
        this.server = server;
        this.origin = origin;
    }

    /**
     * An HTTP error answer: the Status body's message verbatim. An answer with no Status body came from something
     * that is not kube-apiserver (a web server, a proxy's error page, a captive portal): it is named by its URL,
     * status and content type, never by its body, which is nobody's business on the user's terminal.
     */
    ClusterException fromResponse(Response response, String body, String operation) {
        Duration retryAfter = parseRetryAfter(response.header("Retry-After"));
        ObjectNode status = parseStatus(body);
        if (status != null) {
            return fromStatus(response.code(), status, retryAfter, operation);
        }
        return new ClusterException(response.code(), ClusterException.NOT_AN_API_ANSWER,
                notAnApiAnswer(response.request().method() + " " + response.request().url(),
                        (response.code() + " " + response.message()).strip(), response.header("Content-Type")),
                retryAfter, operation, null);
    }

    /** A 2xx answer whose body is no JSON at all: a captive portal's login page, a web server's index. */
    ClusterException notJson(Response response, String operation) {
        return new ClusterException(response.code(), ClusterException.NOT_AN_API_ANSWER,
                notAnApiAnswer(response.request().method() + " " + response.request().url(),
                        (response.code() + " " + response.message()).strip(), response.header("Content-Type")),
                null, operation, null);
    }

    /** One paragraph: what was asked, what came back, and where the address came from. */
    String notAnApiAnswer(String request, String statusLine, String contentType) {
        return "the server at " + server + " (" + origin + ") did not answer as a Kubernetes API server: " + request
                + " was answered " + statusLine + " with "
                + (contentType == null || contentType.isBlank() ? "no content type" : "content type " + contentType)
                + " and no Kubernetes Status. Check that this is the API server's address (kubectl cluster-info shows the one"
                + " kubectl uses) and that no proxy answers in its place, or choose another context with --context.";
    }

    private static ClusterException fromStatus(int code, ObjectNode status, Duration retryAfter, String operation) {
        return new ClusterException(code, status.path("reason").asText(""), status.path("message").asText(""),
                retryAfter, operation, status);
    }

    /** A watch's ERROR event carries a Status object instead of the watched object. */
    static ClusterException fromWatchError(JsonNode status, String operation) {
        ObjectNode s = status instanceof ObjectNode o ? o : TreeMapper.MAPPER.createObjectNode();
        return new ClusterException(s.path("code").asInt(500), s.path("reason").asText(""),
                s.path("message").asText(s.toString()), null, operation, s);
    }

    private static ObjectNode parseStatus(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonNode n = TreeMapper.MAPPER.readTree(body);
            // kind Status, or the bare {"code":500,"message":…} some server paths write
            if (n instanceof ObjectNode o && (o.path("kind").asText().equals("Status") || o.has("message"))) {
                return o;
            }
        } catch (IOException notJson) {
            // a proxy's HTML page, say: the caller shows the raw text
        }
        return null;
    }

    static Duration parseRetryAfter(String header) {
        if (header == null) {
            return null;
        }
        try {
            long seconds = Long.parseLong(header.strip());
            return seconds < 0 ? null : Duration.ofSeconds(seconds);
        } catch (NumberFormatException httpDate) {
            return null; // the API server only sends seconds
        }
    }

    ServerUnreachable unreachable(IOException e, String operation) {
        return new ServerUnreachable(
                "cannot reach the Kubernetes API server " + server + " (" + origin + ") for " + operation + ": "
                        + what(e) + ". " + fix(e) + ".",
                e, !(e instanceof UnknownHostException || e instanceof SSLException),
                e instanceof ConnectException || e instanceof NoRouteToHostException);
    }

    /** A read timeout of the TLS handshake itself ({@link HandshakeTimeout}), not of an answer. */
    private static boolean inHandshake(IOException e) {
        if (!(e instanceof SocketTimeoutException)) {
            return false;
        }
        for (StackTraceElement frame : e.getStackTrace()) {
            if (frame.getMethodName().equals("startHandshake") && frame.getClassName().startsWith("sun.security.ssl.")) {
                return true;
            }
        }
        return false;
    }

    private static String what(IOException e) {
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        if (e instanceof UnknownHostException) {
            return "unknown host " + e.getMessage();
        }
        if (e instanceof NoRouteToHostException) {
            return "no route to host";
        }
        if (e instanceof SSLException) {
            return "TLS handshake failed (" + e.getMessage() + ")";
        }
        if (inHandshake(e)) {
            return "the TLS handshake did not finish in " + HandshakeTimeout.KUBECTL_MILLIS / 1000 + " s (kubectl's limit too)";
        }
        if (e instanceof InterruptedIOException) {
            return "no answer in time";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static String fix(IOException e) {
        if (e instanceof SSLException) {
            return "Check the cluster's certificate-authority and the user's client certificate in the kubeconfig,"
                    + " or choose another context with --context";
        }
        if (inHandshake(e)) {
            // --request-timeout cannot lengthen it: the server (or whatever holds the connection) said nothing at all
            return "Check that the cluster is up (kubectl cluster-info) and that nothing between here and it (a proxy,"
                    + " a firewall, a load balancer) accepts connections without passing them on";
        }
        if (e instanceof InterruptedIOException) {
            return "Check that the cluster is up (kubectl cluster-info), or allow more time with --request-timeout";
        }
        return "Check that the cluster is up and reachable from here (kubectl cluster-info),"
                + " or choose another context with --context";
    }
}
