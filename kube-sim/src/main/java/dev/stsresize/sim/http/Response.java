package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.JsonNode;

/** An answer ready to write: code, JSON body (or pre-serialised bytes for large lists, or plain text). */
record Response(int code, JsonNode body, byte[] bytes, boolean plainText) {
    static Response of(int code, JsonNode body) {
        return new Response(code, body, null, false);
    }

    static Response raw(int code, byte[] bytes) {
        return new Response(code, null, bytes, false);
    }

    /** text/plain, as Go's http.Error writes (responsewriters.InternalError). */
    static Response text(int code, String text) {
        return new Response(code, null, text.getBytes(java.nio.charset.StandardCharsets.UTF_8), true);
    }

    byte[] payload() {
        return bytes != null ? bytes : Json.bytes(body);
    }
}
