package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.SilentServer;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * Calls started together wait for the first one's connection instead of each opening one. Over HTTP/2 that they then
 * share it is {@code IdleConnectionsTest}'s (a plan against the simulated cluster opens one TLS connection); here,
 * what the waiting must never do: hold a call back once the first has failed, after it was cancelled, or over
 * HTTP/1.1, where each call needs a connection of its own.
 */
class OneConnectionFirstTest {
    private static OkHttpClient client(boolean gated, long readTimeoutMillis) {
        ConnectionPool pool = new ConnectionPool(5, 1, TimeUnit.MINUTES);
        OkHttpClient.Builder b = new OkHttpClient.Builder().connectionPool(pool)
                .readTimeout(readTimeoutMillis, TimeUnit.MILLISECONDS).retryOnConnectionFailure(false);
        if (gated) {
            OneConnectionFirst gate = new OneConnectionFirst(pool);
            b.addInterceptor(gate.beforeConnecting()).addNetworkInterceptor(gate.whenConnected());
        }
        return b.build();
    }

    private static List<Throwable> together(OkHttpClient client, String url, int calls) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(calls);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                futures.add(pool.submit(() -> {
                    try (Response r = client.newCall(new Request.Builder().url(url).build()).execute()) {
                        return r.code();
                    }
                }));
            }
            List<Throwable> failures = new ArrayList<>();
            for (Future<?> f : futures) {
                try {
                    f.get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    failures.add(e.getCause());
                } catch (java.util.concurrent.TimeoutException e) {
                    failures.add(new AssertionError("a call still running after 10 s", e));
                }
            }
            return failures;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void callsThatWaitedForAFailedConnectionFailWithItsErrorAndOpenNoneOfTheirOwn() throws Exception {
        try (SilentServer server = new SilentServer()) {
            long start = System.nanoTime();
            List<Throwable> failures = together(client(true, 400), server.url(), 5);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(failures).hasSize(5).allSatisfy(e -> assertThat(e).isInstanceOf(SocketTimeoutException.class));
            assertThat(server.accepted()).as("connections the server accepted").isEqualTo(1);
            assertThat(millis).as("one handshake's timeout, not two in a row").isLessThan(5_000);
        }
    }

    @Test
    void callsThatWaitedForACallWhoseTimeRanOutEndTooInsteadOfConnectingAsTheirsRunsOut() throws Exception {
        // --request-timeout without a read timeout (client-java's default is none): the first call is cancelled in its
        // handshake; the others, started with it, reach their own timeout at that moment. Were they let go to connect
        // then, OkHttp could miss their cancellation and leave their handshakes waiting forever (the plan hung).
        try (SilentServer server = new SilentServer()) {
            OkHttpClient client = client(true, 0).newBuilder().callTimeout(500, TimeUnit.MILLISECONDS).build();
            long start = System.nanoTime();
            List<Throwable> failures = together(client, server.url(), 5);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(failures).hasSize(5).allSatisfy(e -> assertThat(e).isInstanceOf(java.io.InterruptedIOException.class)
                    .hasMessageContaining("timeout"));
            assertThat(server.accepted()).as("connections the server accepted").isEqualTo(1);
            assertThat(millis).as("every call ended at its timeout").isLessThan(5_000);
        }
    }

    @Test
    void withoutTheWaitEveryCallOpensItsOwnConnection() throws Exception {
        // the control of the test above: the gate is what makes the one connection
        try (SilentServer server = new SilentServer()) {
            List<Throwable> failures = together(client(false, 400), server.url(), 5);
            assertThat(failures).hasSize(5);
            assertThat(server.accepted()).as("connections the server accepted").isEqualTo(5);
        }
    }

    @Test
    void aWaitingCallThatIsCancelledEndsAtOnce() throws Exception {
        try (SilentServer server = new SilentServer()) {
            OkHttpClient client = client(true, 10_000);
            Call first = client.newCall(new Request.Builder().url(server.url()).build());
            Call second = client.newCall(new Request.Builder().url(server.url()).build());
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<?> a = pool.submit(() -> {
                    first.execute().close();
                    return null;
                });
                while (server.accepted() == 0) {
                    Thread.sleep(5); // the first call is in its handshake: the second will wait for it
                }
                Future<?> b = pool.submit(() -> {
                    second.execute().close();
                    return null;
                });
                Thread.sleep(100);
                long start = System.nanoTime();
                second.cancel();
                Throwable e = catching(b);
                assertThat(e).isInstanceOf(IOException.class).hasMessage("Canceled");
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_000);
                assertThat(a.isDone()).as("the first call is still in its handshake").isFalse();
                first.cancel();
                catching(a);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void overHttp11EveryCallStillGetsAConnectionOfItsOwn() throws Exception {
        try (FakeApiServer server = FakeApiServer.http()) {
            // each answer takes a while, so the calls overlap on the wire
            server.on("GET", "/api", r -> {
                sleep(200);
                return Answer.json(200, "{}");
            });
            List<Throwable> failures = together(client(true, 5_000), server.url() + "/api", 4);
            assertThat(failures).isEmpty();
            assertThat(server.requests()).hasSize(4);
        }
    }

    private static Throwable catching(Future<?> f) throws Exception {
        try {
            f.get(10, TimeUnit.SECONDS);
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
