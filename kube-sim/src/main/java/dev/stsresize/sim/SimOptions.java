package dev.stsresize.sim;

import java.nio.file.Path;

/**
 * How to start a {@link SimCluster}: the port (0 picks a free one), a JSON-lines request log file,
 * how many events the watch history keeps (older resourceVersions get 410 Expired) and how often
 * watches with allowWatchBookmarks get a BOOKMARK; whether requests without credentials act as the
 * admin (kubectl sends none over plain HTTP).
 */
public record SimOptions(int port, Path logFile, int historyLimit, long bookmarkMillis, boolean anonymousIsAdmin) {
    public static SimOptions defaults() {
        return new SimOptions(0, null, 10_000, 5_000, true);
    }

    public SimOptions withPort(int p) {
        return new SimOptions(p, logFile, historyLimit, bookmarkMillis, anonymousIsAdmin);
    }

    public SimOptions withLogFile(Path f) {
        return new SimOptions(port, f, historyLimit, bookmarkMillis, anonymousIsAdmin);
    }

    public SimOptions withHistoryLimit(int n) {
        return new SimOptions(port, logFile, n, bookmarkMillis, anonymousIsAdmin);
    }

    /** Whether a request without credentials is the admin (the default, like the old insecure port) or a 401. */
    public SimOptions withAnonymousIsAdmin(boolean b) {
        return new SimOptions(port, logFile, historyLimit, bookmarkMillis, b);
    }

    public SimOptions withBookmarkMillis(long ms) {
        return new SimOptions(port, logFile, historyLimit, ms, anonymousIsAdmin);
    }
}
