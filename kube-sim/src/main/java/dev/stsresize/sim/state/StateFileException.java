package dev.stsresize.sim.state;

/**
 * A state file that cannot be read or written: its message is one paragraph naming the file (and the
 * document) and the fix, meant to be shown to whoever passed the file as is.
 */
public final class StateFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StateFileException(String message) {
        super(message);
    }

    public StateFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
