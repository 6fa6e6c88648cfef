package dev.stsresize.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.ConnectionPool;

/**
 * The connection pools of this process's HTTP clients, so that a command closes its idle connections when it is done.
 *
 * <p>Why: every kube-apiserver negotiates HTTP/2, and OkHttp keeps a reader thread blocked in a socket read on each
 * HTTP/2 connection. At {@code System.exit} HotSpot waits up to 300 ms for threads in native code to stop
 * ({@code VM_Exit::wait_for_threads_in_native_to_block}, vmOperations.cpp), so every command against a real cluster
 * would end up to that late (docs/performance.md has the figures). A connection closed first
 * wakes its reader, which ends at once. HTTP/1.1 connections have no reader; closing them costs nothing.
 */
public final class IdleConnections {
    /** Each pool with the number it was made under, so that a test can ask about one command's pools only. */
    private static final Map<ConnectionPool, Long> POOLS = new WeakHashMap<>();
    private static final AtomicLong MADE = new AtomicLong();

    private IdleConnections() {}

    /** A new pool of up to {@code idle} idle connections kept 5 minutes, closed by {@link #close}. */
    static ConnectionPool newPool(int idle) {
        ConnectionPool pool = new ConnectionPool(idle, 5, TimeUnit.MINUTES);
        synchronized (POOLS) {
            POOLS.put(pool, MADE.incrementAndGet());
        }
        return pool;
    }

    /** Closes every idle connection of every pool; connections in use (a watch still streaming) are left. */
    public static void close() {
        for (ConnectionPool pool : poolsAfter(0)) {
            pool.evictAll();
        }
    }

    /** A mark before a command: {@link #openAfter} counts only the pools made after it. */
    public static long mark() {
        return MADE.get();
    }

    /**
     * The connections open, idle or in use, in the pools made after {@code mark}: in a test's JVM, other tests'
     * clients may still be streaming (a watch, a request to a node that never answers) when a command ends.
     */
    public static int openAfter(long mark) {
        int n = 0;
        for (ConnectionPool pool : poolsAfter(mark)) {
            n += pool.connectionCount();
        }
        return n;
    }

    private static List<ConnectionPool> poolsAfter(long mark) {
        List<ConnectionPool> out = new ArrayList<>();
        synchronized (POOLS) {
            POOLS.forEach((pool, made) -> {
                if (made > mark) {
                    out.add(pool);
                }
            });
        }
        return out;
    }
}
