package dev.stsresize.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** One object of an input, kept as the raw tree it was written as (never a client-java model). */
public record Document(ObjectNode object, Source source) {
    public String apiVersion() {
        return object.path("apiVersion").asText("");
    }

    public String kind() {
        return object.path("kind").asText("");
    }

    public boolean is(String apiVersion, String kind) {
        return apiVersion().equals(apiVersion) && kind().equals(kind);
    }
}
