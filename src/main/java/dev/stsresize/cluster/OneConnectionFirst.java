package dev.stsresize.cluster;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Calls started together to a server the client has no connection to wait until the first of them has one, so that
 * they share it (every kube-apiserver speaks HTTP/2) rather than each opening its own.
 *
 * <p>Why: a plan starts its LISTs, the pods' and the quotas' at once. OkHttp 4 ({@code ExchangeFinder.findConnection})
 * lets each call that finds no pooled connection open one, with its TCP and TLS handshakes, and only then, finding
 * the winner's HTTP/2 connection in the pool, closes its own: six handshakes where one was needed, each a cold
 * elliptic-curve computation on both ends (docs/performance.md). kubectl opens one.
 *
 * <p>The first call to find the pool empty opens the connection; the others wait until it is connected (the
 * network interceptor runs once the connection is there, before the request is written) and then go on. So nothing
 * waits longer than for its own handshake: the followers are let go when it is done, not when the first answer
 * comes. Should the first call fail to connect, the calls that waited for it fail with its error, as the callers of
 * one dial share its result in Go's HTTP/2 client ({@code clientConnPool.getStartDialLocked}, golang.org/x/net/http2,
 * which kubectl's transport uses): a server that drops every packet costs one connect timeout, not two. Should it be
 * cancelled before it is connected (its {@code --request-timeout}, most often), they fail as timed out: they started
 * with it and would have met the same silence. None of them then starts a connection of its own at the moment its
 * own timeout fires, where OkHttp can miss the cancellation ({@code RealCall.cancel} cancels the connection attempts
 * registered so far) and leave a TLS handshake waiting forever. Over HTTP/1.1 (a proxy that speaks only that, a
 * plain-http server) the followers open their own connections once the first is connected, as they must.
 */
final class OneConnectionFirst {
    /** How often a waiting call looks whether it was cancelled (Ctrl-C, a call timeout). */
    private static final long CANCEL_CHECK_MILLIS = 50;

    /** One call opening a connection, and how it ended for the calls waiting for it. */
    private static final class Opening {
        final CountDownLatch over = new CountDownLatch(1);
        /**
         * What the calls waiting for it fail with when it ended without a connection; null when it has one, or when
         * it failed before the wire (a credential plugin's error), which each of them then meets itself.
         */
        volatile IOException failure;
    }

    private final ConnectionPool pool;
    /** The call opening a connection now, if any. */
    private Opening opening;

    OneConnectionFirst(ConnectionPool pool) {
        this.pool = pool;
    }

    /** The application interceptor: the first call of a burst goes on; the others wait for its connection. */
    Interceptor beforeConnecting() {
        return chain -> {
            Opening mine = null;
            Opening theirs;
            synchronized (this) {
                theirs = opening;
                if (theirs == null && pool.connectionCount() == 0) {
                    mine = new Opening();
                    opening = mine;
                }
            }
            if (theirs != null) {
                awaitOrCancel(theirs.over, chain);
                IOException failure = theirs.failure;
                if (failure != null) {
                    throw failure;
                }
                return chain.proceed(chain.request());
            }
            if (mine == null) {
                return chain.proceed(chain.request());
            }
            IOException failure = null;
            try {
                return chain.proceed(chain.request());
            } catch (IOException e) {
                failure = e;
                throw e;
            } finally {
                // if it ended still opening, so without a connection, the waiting calls fail with its error; a cancelled
                // call's error ("Canceled", a closed socket) is its own, so they are told the time ran out, as it did
                // for it. No error (a credential plugin's RuntimeException): they go on and meet it themselves.
                end(mine, chain.call().isCanceled()
                        ? new InterruptedIOException("timeout: no connection to the server was made in time") : failure);
            }
        };
    }

    /** The network interceptor: this call has its connection, so the calls waiting for one go on. */
    Interceptor whenConnected() {
        return chain -> {
            connected();
            return chain.proceed(chain.request());
        };
    }

    private synchronized void connected() {
        if (opening != null) {
            opening.over.countDown();
            opening = null;
        }
    }

    private synchronized void end(Opening mine, IOException failure) {
        if (opening == mine) {
            mine.failure = failure;
            mine.over.countDown();
            opening = null;
        }
    }

    private static void awaitOrCancel(CountDownLatch latch, Interceptor.Chain chain) throws IOException {
        try {
            while (!latch.await(CANCEL_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
                if (chain.call().isCanceled()) {
                    throw new IOException("Canceled"); // what OkHttp's own interceptors throw for a cancelled call
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the connection to the server");
        }
    }
}
