package dev.stsresize.sim.fault;

import dev.stsresize.sim.ApiError;

/**
 * What an injected fault does to a matching request. Latency is added first; then either an error
 * answer (any code, a real Status body, optional Retry-After), a dropped connection (closed without an
 * answer), or a watch stream cut after N events; or nothing more (latency only).
 */
public record Fault(long latencyMillis, ApiError error, Integer retryAfterSeconds, boolean dropConnection,
        Integer cutWatchAfterEvents) {

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

    public Fault withRetryAfter(int seconds) {
        return new Fault(latencyMillis, error, seconds, dropConnection, cutWatchAfterEvents);
    }

    public Fault withLatency(long millis) {
        return new Fault(millis, error, retryAfterSeconds, dropConnection, cutWatchAfterEvents);
    }
}
