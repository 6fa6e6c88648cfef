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

    public ServerUnreachable(String message, Throwable cause, boolean worthRetrying) {
        super(message, cause);
        this.worthRetrying = worthRetrying;
    }

    /**
     * True when trying again may help (refused, reset, timed out: a server restarting, a network
     * blip); false when it cannot (an unknown host name, a certificate the client does not trust).
     */
    public boolean worthRetrying() {
        return worthRetrying;
    }
}
