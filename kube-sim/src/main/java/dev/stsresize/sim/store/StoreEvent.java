package dev.stsresize.sim.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A change in the store, as a watch delivers it; {@code object} and {@code previous} (the object
 * before a MODIFIED, else null) are read-only: copy before changing them.
 */
public record StoreEvent(Type type, ResourceType resource, ObjectNode object, ObjectNode previous, long resourceVersion) {
    public enum Type { ADDED, MODIFIED, DELETED }

    public String namespace() {
        return object.path("metadata").path("namespace").asText("");
    }

    public String name() {
        return object.path("metadata").path("name").asText("");
    }
}
