package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** One event of a watch: its type ({@code ADDED}, {@code MODIFIED}, {@code DELETED}) and the object, raw. */
public record WatchEvent(String type, ObjectNode object) {
    public boolean isDeleted() {
        return "DELETED".equals(type);
    }

    public String resourceVersion() {
        return object.path("metadata").path("resourceVersion").asText("");
    }
}
