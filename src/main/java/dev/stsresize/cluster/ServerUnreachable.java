package dev.stsresize.cluster;

import dev.stsresize.UserError;

/**
 * No answer from the API server: connection refused, unknown host, TLS failure, timeout, or a
 * connection dropped mid-request. A user error (exit 1) whose message names the server and the
 * kubeconfig context, and says what to check. {@link RetryingCluster} retries it a few times first.
 */
public final class ServerUnreachable extends UserError {
    private static final long serialVersionUID = 1L;

    public ServerUnreachable(String message, Throwable cause) {
        super(message, cause);
    }
}
