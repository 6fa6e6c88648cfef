package dev.stsresize.cluster;

import java.time.Duration;

/**
 * What {@link RetryingCluster} retries and how long it waits: a 429 waits the server's Retry-After
 * (capped); a 5xx or no answer waits {@code initialBackoff}, doubling up to {@code maxBackoff}; at
 * most {@code maxAttempts} tries in all. An unknown host or an untrusted certificate is not retried:
 * it will not heal by itself. A 409 and every other 4xx are never retried: the caller
 * re-reads and decides.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, Duration maxRetryAfter) {
    public static final RetryPolicy DEFAULT =
            new RetryPolicy(6, Duration.ofMillis(250), Duration.ofSeconds(8), Duration.ofSeconds(60));

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
    }

    /** How long to wait before try {@code attempt + 1} after {@code failure}, or null to give up now. */
    Duration delayAfter(RuntimeException failure, int attempt) {
        if (attempt >= maxAttempts) {
            return null;
        }
        if (failure instanceof ClusterException e) {
            if (e.code() == 429) {
                Duration asked = e.retryAfter().orElse(backoff(attempt));
                return asked.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : asked;
            }
            if (e.code() >= 500) {
                return e.retryAfter().filter(d -> d.compareTo(maxRetryAfter) <= 0).orElse(backoff(attempt));
            }
            return null;
        }
        if (failure instanceof ServerUnreachable u && u.worthRetrying()) {
            return backoff(attempt);
        }
        return null;
    }

    private Duration backoff(int attempt) {
        Duration d = initialBackoff;
        for (int i = 1; i < attempt && d.compareTo(maxBackoff) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
    }
}
