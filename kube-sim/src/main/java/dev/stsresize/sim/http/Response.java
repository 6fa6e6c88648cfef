package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * An answer ready to write: code, JSON body (or pre-serialised bytes for large lists), and the
 * warnings it carries as {@code Warning: 299 - "…"} headers (apiserver's warning.AddWarning);
 * {@code contentType} only for what a proxied backend answered (else JSON).
 */
record Response(int code, JsonNode body, byte[] bytes, List<String> warnings, String contentType, ListAnswers.Answer list) {
    Response(int code, JsonNode body, byte[] bytes, List<String> warnings, String contentType) {
        this(code, body, bytes, warnings, contentType, null);
    }

    /** A LIST answer kept by {@link ListAnswers}: its bytes, and its gzip made once. */
    static Response list(int code, ListAnswers.Answer answer) {
        return new Response(code, null, answer.json(), List.of(), null, answer);
    }

    static Response of(int code, JsonNode body) {
        return new Response(code, body, null, List.of(), null);
    }

    static Response raw(int code, byte[] bytes) {
        return new Response(code, null, bytes, List.of(), null);
    }

    /**
     * Bytes with their own Content-Type, sent as they are (never gzipped): a proxied backend's answer as it came
     * (code, Content-Type and body copied), the proxy's own 404 text, {@code /openapi/v2} in protobuf.
     */
    static Response typed(int code, String contentType, byte[] bytes) {
        return new Response(code, null, bytes, List.of(), contentType);
    }

    Response withWarnings(List<String> w) {
        return new Response(code, body, bytes, List.copyOf(w), contentType, list);
    }

    byte[] payload() {
        return bytes != null ? bytes : BodyCodec.bytes(body);
    }
}
