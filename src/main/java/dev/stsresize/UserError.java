package dev.stsresize;

/**
 * An error the user can fix: bad input, a missing file, an unreachable cluster.
 *
 * <p>Its message is one paragraph that names the object at fault and the fix; it is printed as is,
 * without a stack trace (unless {@code --debug}). Nothing has been written to a cluster when one
 * is thrown before the first write; code that throws one after a write says so in the message.
 */
public class UserError extends RuntimeException {
    private final int exitCode;

    public UserError(String message) {
        this(message, 1, null);
    }

    public UserError(String message, Throwable cause) {
        this(message, 1, cause);
    }

    public UserError(String message, int exitCode, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
