package dev.stsresize.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import java.io.IOException;
import java.io.UncheckedIOException;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * client-java pointed at a simulated cluster over TLS (trusting its CA) with a bearer token; {@link #send} goes through
 * client-java's own HTTP stack (its OkHttpClient, its auth) and returns the raw answer, because the
 * generated models refuse fields they do not know and exact-text assertions need the raw body.
 */
final class SimClient {
    static final ObjectMapper JSON = new ObjectMapper();
    final ApiClient api;
    private final String url;
    private final String token;

    SimClient(SimCluster sim, String token) {
        this.url = sim.url();
        this.token = token;
        this.api = new ClientBuilder().setBasePath(url).setAuthentication(new AccessTokenAuthentication(token))
                .setCertificateAuthority(sim.caCertificatePem().getBytes(java.nio.charset.StandardCharsets.US_ASCII)).build();
    }

    static SimClient admin(SimCluster sim) {
        return new SimClient(sim, sim.adminToken());
    }

    record Answer(int code, String body, okhttp3.Headers headers) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String message() {
            return json().path("message").asText();
        }
    }

    Answer get(String path) {
        return send("GET", path, null, null);
    }

    Answer send(String method, String path, String contentType, String body) {
        RequestBody rb = body == null ? (method.equals("GET") || method.equals("DELETE") ? null : RequestBody.Companion.create("", null))
                : RequestBody.Companion.create(body, MediaType.parse(contentType == null ? "application/json" : contentType));
        Request req = new Request.Builder().url(url + path).method(method, rb).header("Authorization", "Bearer " + token).build();
        try (Response r = api.getHttpClient().newCall(req).execute()) {
            return new Answer(r.code(), r.body() == null ? "" : r.body().string(), r.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
