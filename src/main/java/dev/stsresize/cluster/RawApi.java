package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Requests through client-java's {@link ApiClient} (its base path, TLS, credentials, User-Agent and
 * interceptors) with raw bodies: the request body is the bytes given, the response body is parsed
 * by Jackson into a tree. No generated model sees either, so nothing validates or drops a field the
 * models do not know.
 */
final class RawApi {
    static final String JSON = "application/json";
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String APPLY_PATCH = "application/apply-patch+yaml";

    private static final String[] AUTH_NAMES = {"BearerToken"};

    private final ApiClient client;
    private final Failures failures;

    RawApi(ApiClient client, Failures failures) {
        this.client = client;
        this.failures = failures;
    }

    /** One request; answers the body as a tree (null for an empty body or one that is no object), throws on any non-2xx. */
    ObjectNode send(String method, String path, Query query, JsonNode body, String contentType, String operation) {
        return execute(newCall(method, path, query, body, contentType), operation, RawApi::objectOrNull);
    }

    private static ObjectNode objectOrNull(InputStream in) throws IOException {
        JsonNode tree = TreeMapper.MAPPER.readTree(in);
        return tree instanceof ObjectNode o ? o : null;
    }

    /** How an answer's body becomes a tree (null: none). */
    interface BodyReader {
        ObjectNode read(InputStream in) throws IOException;
    }

    /** A GET whose 2xx body is read by {@code reader} (a LIST read for a few fields); throws on any non-2xx. */
    ObjectNode get(String path, Query query, String operation, BodyReader reader) {
        return execute(newCall("GET", path, query, null, null), operation, reader);
    }

    /** One request bounded by {@code timeout} as a whole; throws on any non-2xx and on no answer in time. */
    ObjectNode send(String method, String path, Query query, Duration timeout, String operation) {
        Call call = newCall(method, path, query, null, null);
        call.timeout().timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        try (Response response = call.execute()) {
            ResponseBody rb = response.body();
            String text = rb == null ? "" : rb.string();
            if (!response.isSuccessful()) {
                throw failures.fromResponse(response, text, operation);
            }
            refuseNonJson(response, operation);
            JsonNode tree = text.isEmpty() ? null : TreeMapper.MAPPER.readTree(text);
            return tree instanceof ObjectNode o ? o : null;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ClusterException(200, "NotJson", "the answer is not a JSON object: " + e.getOriginalMessage(), null,
                    operation, null);
        } catch (IOException e) {
            throw failures.unreachable(e, operation);
        }
    }

    /** As {@link #send(String, String, Query, Duration, String)}, the 2xx body read by {@code reader}. */
    ObjectNode send(String method, String path, Query query, Duration timeout, String operation, BodyReader reader) {
        Call call = newCall(method, path, query, null, null);
        call.timeout().timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return execute(call, operation, reader);
    }

    /** The call's 2xx body read by {@code reader} from the byte stream; throws on any non-2xx, on a body that is no JSON, on no answer. */
    private ObjectNode execute(Call call, String operation, BodyReader reader) {
        try (Response response = call.execute()) {
            ResponseBody rb = response.body();
            if (!response.isSuccessful()) {
                throw failures.fromResponse(response, rb == null ? "" : rb.string(), operation);
            }
            if (rb == null) {
                return null;
            }
            refuseNonJson(response, operation);
            try (InputStream in = rb.byteStream()) {
                // the reader's parser closes what it reads: it gets a view whose close leaves the body open to drain
                ObjectNode read = reader.read(new java.io.FilterInputStream(in) {
                    @Override
                    public void close() {}
                });
                drain(in);
                return read;
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ClusterException(200, "NotJson", "the answer is not a JSON object: " + e.getOriginalMessage(), null,
                    operation, null);
        } catch (IOException e) {
            throw failures.unreachable(e, operation);
        }
    }

    /**
     * A success whose content type says it is no JSON (a captive portal's login page, a web server's index) is not
     * read at all: it is not the API server's answer, and its body is not shown.
     */
    private void refuseNonJson(Response response, String operation) {
        String type = response.header("Content-Type");
        if (type != null && !type.isBlank() && !type.toLowerCase(java.util.Locale.ROOT).contains("json")) {
            throw failures.notJson(response, operation);
        }
    }

    /**
     * Reads what a reader left after its JSON value (the encoder's newline, the end of the stream) before the body is
     * closed: a body closed unread makes OkHttp reset the HTTP/2 stream (RST_STREAM for every trimmed read; servers
     * that guard against rapid resets close the connection) and drop an HTTP/1.1 connection it cannot reuse.
     */
    static void drain(InputStream in) throws IOException {
        // bounded: what follows the value is untrusted, and a server that streams on past it is left by closing
        byte[] rest = new byte[512];
        long left = DRAIN_LIMIT;
        int n;
        while (left > 0 && (n = in.read(rest, 0, (int) Math.min(rest.length, left))) >= 0) {
            left -= n;
        }
    }

    /** What is read past a body's JSON value before it is closed: whitespace, in any server we know. */
    static final long DRAIN_LIMIT = 64 * 1024;

    /** A GET whose answer is returned whatever its code (a proxied backend's); throws only on no answer in time. */
    HttpAnswer get(String path, Query query, Duration timeout, String operation) {
        Call call = newCall("GET", path, query, null, null);
        call.timeout().timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        try (Response response = call.execute()) {
            ResponseBody rb = response.body();
            return new HttpAnswer(response.code(), response.header("Content-Type", ""), rb == null ? "" : rb.string());
        } catch (IOException e) {
            throw failures.unreachable(e, operation);
        }
    }

    /**
     * A GET whose 2xx body is text (a pod's log, which kube-apiserver streams as text/plain whatever the Accept),
     * read up to {@code limit} bytes: a longer body is answered cut, not complete. Throws on any non-2xx.
     */
    PodLog text(String path, Query query, int limit, String operation) {
        try (Response response = newCall("GET", path, query, null, null).execute()) {
            ResponseBody rb = response.body();
            if (!response.isSuccessful()) {
                throw failures.fromResponse(response, rb == null ? "" : rb.string(), operation);
            }
            if (rb == null) {
                return new PodLog("", true);
            }
            try (InputStream in = rb.byteStream()) {
                byte[] read = in.readNBytes(limit + 1);
                boolean complete = read.length <= limit;
                return new PodLog(new String(read, 0, Math.min(read.length, limit), java.nio.charset.StandardCharsets.UTF_8), complete);
            }
        } catch (IOException e) {
            throw failures.unreachable(e, operation);
        }
    }

    /** Opens a streaming request (a watch); the caller owns and closes the response. */
    Response open(String path, Query query, long callTimeoutSeconds, String operation) {
        Call call = newCall("GET", path, query, null, null);
        // the whole stream is one call: bound it a little past the server's own watch timeout
        call.timeout().timeout(callTimeoutSeconds, java.util.concurrent.TimeUnit.SECONDS);
        try {
            Response response = call.execute();
            if (!response.isSuccessful()) {
                try (response) {
                    ResponseBody rb = response.body();
                    throw failures.fromResponse(response, rb == null ? "" : rb.string(), operation);
                }
            }
            return response;
        } catch (IOException e) {
            throw failures.unreachable(e, operation);
        }
    }

    private Call newCall(String method, String path, Query query, JsonNode body, String contentType) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", JSON);
        byte[] bytes = null;
        if (body != null) {
            headers.put("Content-Type", contentType);
            try {
                bytes = TreeMapper.MAPPER.writeValueAsBytes(body);
            } catch (IOException e) {
                throw new IllegalStateException("a JSON tree always serialises", e);
            }
        }
        try {
            // a byte[] body goes out exactly as given: client-java's serializer is bypassed
            return client.buildCall(null, path, method, query.pairs(), new ArrayList<>(), bytes, headers,
                    new HashMap<>(), new HashMap<>(), AUTH_NAMES, null);
        } catch (ApiException e) {
            throw new IllegalStateException("client-java could not build " + method + " " + path, e);
        }
    }

    /** Query parameters in order; null values are left out. */
    static final class Query {
        private final List<Pair> pairs = new ArrayList<>();

        static Query of() {
            return new Query();
        }

        Query with(String name, String value) {
            if (value != null && !value.isEmpty()) {
                pairs.add(new Pair(name, value));
            }
            return this;
        }

        Query dryRun(boolean dryRun) {
            return dryRun ? with("dryRun", "All") : this;
        }

        List<Pair> pairs() {
            return new ArrayList<>(pairs);
        }
    }
}
