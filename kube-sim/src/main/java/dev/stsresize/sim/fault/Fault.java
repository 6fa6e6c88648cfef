package dev.stsresize.sim.fault;

import dev.stsresize.sim.ApiError;

/**
 * What an injected fault does to a matching request. Latency is added first; then either an error
 * answer (any code, a real Status body, optional Retry-After), a dropped connection (closed without an
 * answer), a watch stream cut after N events, a hang (no answer until the client gives up or the
 * cluster closes: a node whose kubelet takes the connection and never answers), or the proxy's 503 for a
 * backend it cannot reach ({@code unreachable}); or nothing more (latency only).
 */
public record Fault(long latencyMillis, ApiError error, Integer retryAfterSeconds, boolean dropConnection,
        Integer cutWatchAfterEvents, boolean hangs, boolean backendUnreachable) {

    public Fault(long latencyMillis, ApiError error, Integer retryAfterSeconds, boolean dropConnection, Integer cutWatchAfterEvents) {
        this(latencyMillis, error, retryAfterSeconds, dropConnection, cutWatchAfterEvents, false, false);
    }

    public static Fault status(int code, String reason, String message) {
        return new Fault(0, ApiError.of(code, reason, message, null), null, false, null);
    }

    public static Fault error(ApiError e) {
        return new Fault(0, e, null, false, null);
    }

    /** 429 TooManyRequests with Retry-After, as API priority and fairness answers. */
    public static Fault tooManyRequests(int retryAfterSeconds) {
        return new Fault(0, ApiError.of(429, "TooManyRequests", "Too many requests, please try again later.", null),
                retryAfterSeconds, false, null);
    }

    public static Fault latency(long millis) {
        return new Fault(millis, null, null, false, null);
    }

    public static Fault drop() {
        return new Fault(0, null, null, true, null);
    }

    public static Fault cutWatchAfter(int events) {
        return new Fault(0, null, null, false, events);
    }

    /**
     * No answer at all until the client gives up (or the cluster closes). kube-apiserver puts no
     * deadline on a proxy request — the proxy subresource is long-running
     * (BasicLongRunningRequestCheck with subresource "proxy", pkg/controlplane/apiserver/config.go) —,
     * so a kubelet that accepts the connection and never answers holds the request this long.
     */
    public static Fault hang() {
        return new Fault(0, null, null, false, null, true, false);
    }

    /**
     * On a proxy subresource ({@code nodes/proxy}, {@code services/proxy}): the 503 kube-apiserver's
     * proxy answers when it cannot dial the backend — the Status of apimachinery's
     * staging/src/k8s.io/apimachinery/pkg/util/proxy/transport.go {@code Transport.RoundTrip}:
     * {@code errors.NewServiceUnavailable("error trying to reach service: " + err)}, relayed by the
     * UpgradeAwareHandler's ErrorResponder (upgradeaware.go), with Go's dial error
     * {@code dial tcp ADDRESS:PORT: connect: connection refused}.
     */
    public static Fault unreachable() {
        return new Fault(0, null, null, false, null, false, true);
    }

    public Fault withRetryAfter(int seconds) {
        return new Fault(latencyMillis, error, seconds, dropConnection, cutWatchAfterEvents, hangs, backendUnreachable);
    }

    public Fault withLatency(long millis) {
        return new Fault(millis, error, retryAfterSeconds, dropConnection, cutWatchAfterEvents, hangs, backendUnreachable);
    }
}
