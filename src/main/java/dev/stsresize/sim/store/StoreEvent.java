package dev.stsresize.sim.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A change in the store, as a watch delivers it; {@code object} is read-only (copy before changing it). */
public record StoreEvent(Type type, ResourceType resource, ObjectNode object, long resourceVersion) {
    public enum Type { ADDED, MODIFIED, DELETED }

    public String namespace() {
        return object.path("metadata").path("namespace").asText("");
    }

    public String name() {
        return object.path("metadata").path("name").asText("");
    }
}
