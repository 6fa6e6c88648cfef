package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * An answer ready to write: code, JSON body (or pre-serialised bytes for large lists), and the
 * warnings it carries as {@code Warning: 299 - "…"} headers (apiserver's warning.AddWarning).
 */
record Response(int code, JsonNode body, byte[] bytes, List<String> warnings) {
    static Response of(int code, JsonNode body) {
        return new Response(code, body, null, List.of());
    }

    static Response raw(int code, byte[] bytes) {
        return new Response(code, null, bytes, List.of());
    }

    Response withWarnings(List<String> w) {
        return new Response(code, body, bytes, List.copyOf(w));
    }

    byte[] payload() {
        return bytes != null ? bytes : Json.bytes(body);
    }
}
