package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.JsonNode;

/** An answer ready to write: code, JSON body (or pre-serialised bytes for large lists). */
record Response(int code, JsonNode body, byte[] bytes) {
    static Response of(int code, JsonNode body) {
        return new Response(code, body, null);
    }

    static Response raw(int code, byte[] bytes) {
        return new Response(code, null, bytes);
    }

    byte[] payload() {
        return bytes != null ? bytes : Json.bytes(body);
    }
}
