package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import java.time.Duration;
import java.util.Optional;

/**
 * The API server answered with an error. Carries what the caller decides on: the HTTP code, the
 * Status {@code reason} ("Conflict", "Invalid", …), the Status {@code message} exactly as the
 * server wrote it (it is the message; nothing is prepended), and the server's Retry-After.
 *
 * <p>A {@link UserError} (exit 1) so that one nobody handled reaches the user as the server's own
 * sentence, as kubectl prints "Error from server": never a stack trace, never client-java's text.
 */
public final class ClusterException extends UserError {
    private static final long serialVersionUID = 1L;

    /**
     * The reason of an answer that carried no Kubernetes Status: it came from something in front of, or instead of,
     * an API server, so its code says nothing about the object asked for (a proxy's 404 is no NotFound).
     */
    public static final String NOT_AN_API_ANSWER = "NotAnApiAnswer";

    private final int code;
    private final String reason;
    private final Duration retryAfter;
    private final String operation;
    private final transient ObjectNode status;

    public ClusterException(int code, String reason, String message, Duration retryAfter, String operation,
            ObjectNode status) {
        super(message);
        this.code = code;
        this.reason = reason == null ? "" : reason;
        this.retryAfter = retryAfter;
        this.operation = operation;
        this.status = status;
    }

    /** The HTTP status code (404, 409, 422, 429, 500, …). */
    public int code() {
        return code;
    }

    /** The Status body's {@code reason} ("NotFound", "Conflict", "Invalid", "Forbidden"), or "" when it had none. */
    public String reason() {
        return reason;
    }

    /** The server's Retry-After, when it sent one. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** What was asked, e.g. {@code PATCH persistentvolumeclaims default/data-db-0}; for messages around this one. */
    public String operation() {
        return operation;
    }

    /** The Status body as sent, when the server sent one (a fresh copy). */
    public Optional<ObjectNode> status() {
        return Optional.ofNullable(status).map(ObjectNode::deepCopy);
    }

    /** The API server said the object does not exist; a 404 from anything else is no such answer. */
    public boolean isNotFound() {
        return code == 404 && !reason.equals(NOT_AN_API_ANSWER);
    }

    public boolean isConflict() {
        return code == 409;
    }
}
