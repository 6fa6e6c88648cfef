package dev.stsresize.sim;

import java.nio.file.Path;

/**
 * How to start a {@link SimCluster}: the port (0 picks a free one), a JSON-lines request log file,
 * how many events the watch history keeps (older resourceVersions get 410 Expired) and how often
 * watches with allowWatchBookmarks get a BOOKMARK; whether a request without credentials is
 * system:anonymous (kube-apiserver's --anonymous-auth, on by default) or a 401.
 */
public record SimOptions(int port, Path logFile, int historyLimit, long bookmarkMillis, boolean anonymousAuth) {
    public static SimOptions defaults() {
        return new SimOptions(0, null, 10_000, 5_000, true);
    }

    public SimOptions withPort(int p) {
        return new SimOptions(p, logFile, historyLimit, bookmarkMillis, anonymousAuth);
    }

    public SimOptions withLogFile(Path f) {
        return new SimOptions(port, f, historyLimit, bookmarkMillis, anonymousAuth);
    }

    public SimOptions withHistoryLimit(int n) {
        return new SimOptions(port, logFile, n, bookmarkMillis, anonymousAuth);
    }

    /** Whether a request without credentials is system:anonymous (the default) or a 401, as --anonymous-auth=false. */
    public SimOptions withAnonymousAuth(boolean b) {
        return new SimOptions(port, logFile, historyLimit, bookmarkMillis, b);
    }

    public SimOptions withBookmarkMillis(long ms) {
        return new SimOptions(port, logFile, historyLimit, ms, anonymousAuth);
    }
}
