package dev.stsresize.cluster;

import dev.stsresize.UserError;

/**
 * No answer from the API server: connection refused, unknown host, TLS failure, timeout, or a
 * connection dropped mid-request. A user error (exit 1) whose message names the server and the
 * kubeconfig context, and says what to check. {@link RetryingCluster} retries it a few times first
 * when {@link #worthRetrying()}.
 */
public final class ServerUnreachable extends UserError {
    private static final long serialVersionUID = 1L;

    private final boolean worthRetrying;
    private final boolean refusedConnection;

    public ServerUnreachable(String message, Throwable cause, boolean worthRetrying) {
        this(message, cause, worthRetrying, false);
    }

    /** @param refusedConnection no connection could be made at all (refused, no route), as opposed to one lost */
    public ServerUnreachable(String message, Throwable cause, boolean worthRetrying, boolean refusedConnection) {
        super(message, cause);
        this.worthRetrying = worthRetrying;
        this.refusedConnection = refusedConnection;
    }

    /** True when no connection could be opened (refused, no route to host), not one dropped or timed out. */
    public boolean refusedConnection() {
        return refusedConnection;
    }

    /**
     * True when trying again may help (refused, reset, timed out: a server restarting, a network
     * blip); false when it cannot (an unknown host name, a certificate the client does not trust).
     */
    public boolean worthRetrying() {
        return worthRetrying;
    }
}
