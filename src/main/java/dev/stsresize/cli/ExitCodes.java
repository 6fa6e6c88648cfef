package dev.stsresize.cli;

/** The exit codes of every command, the seed's contract: 0 done, 2 refused (permanent), 1 anything else; 130 stopped by a signal. */
public final class ExitCodes {
    /** Converged, or nothing to do. */
    public static final int OK = 0;
    /** Anything transient: blocked, failed, bad input, an unreachable cluster. */
    public static final int FAILED = 1;
    /** A StatefulSet was refused: permanent until the manifest changes. */
    public static final int REFUSED = 2;
    /** {@code plan --exit-code}: there is work to do (like {@code git diff --exit-code}). */
    public static final int WORK_TO_DO = 3;
    /** {@code apply} or {@code resume} stopped on Ctrl-C, SIGHUP or SIGTERM (128 + SIGINT, as shells report it). */
    public static final int INTERRUPTED = 130;

    private ExitCodes() {}
}
