package dev.stsresize.cluster;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import okio.Buffer;

/**
 * kubectl's {@code -v} request log, to the command's stderr: at 6 each request's method, URL,
 * status and latency; at 7 also the request headers (credentials masked); at 8 also the bodies,
 * cut at 10 KiB; at 9 uncut. Watch streams are never read for the log.
 */
final class RequestLog implements Interceptor {
    private static final long BODY_LIMIT = 10 * 1024;

    private final PrintWriter err;
    private final int verbosity;

    RequestLog(PrintWriter err, int verbosity) {
        this.err = err;
        this.verbosity = verbosity;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        if (verbosity >= 7) {
            request.headers().forEach(h -> log("Request Header: " + h.getFirst() + ": " + masked(h.getFirst(), h.getSecond())));
        }
        if (verbosity >= 8 && request.body() != null) {
            Buffer buffer = new Buffer();
            request.body().writeTo(buffer);
            log("Request Body: " + cut(buffer.readString(StandardCharsets.UTF_8)));
        }
        long start = System.nanoTime();
        Response response;
        try {
            response = chain.proceed(request);
        } catch (IOException e) {
            log(request.method() + " " + request.url() + "  in " + millis(start) + " milliseconds: " + e.getMessage());
            throw e;
        }
        log(request.method() + " " + request.url() + " " + response.code() + " " + response.message() + " in "
                + millis(start) + " milliseconds");
        boolean stream = "true".equals(request.url().queryParameter("watch"));
        if (verbosity >= 8 && !stream && response.body() != null) {
            log("Response Body: " + cut(response.peekBody(verbosity >= 9 ? Long.MAX_VALUE : BODY_LIMIT + 1).string()));
        }
        return response;
    }

    private String cut(String body) {
        return verbosity < 9 && body.length() > BODY_LIMIT ? body.substring(0, (int) BODY_LIMIT) + " [truncated]" : body;
    }

    private static String masked(String name, String value) {
        return name.equalsIgnoreCase("Authorization") ? value.replaceAll("^(\\S+) .*", "$1 <masked>") : value;
    }

    private static long millis(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    private void log(String line) {
        synchronized (err) {
            err.println(line);
            err.flush();
        }
    }
}
