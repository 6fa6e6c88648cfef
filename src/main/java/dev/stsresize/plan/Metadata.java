package dev.stsresize.plan;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The one reader of an object's fields by path and the one place the {@code namespace/name} key is
 * formed, which every map of objects (declared, live, recorded, shown) is keyed by. It lives in the
 * decision package because every other package may import it and this one may import none of them.
 */
public final class Metadata {
    private Metadata() {}

    /** The scalar at {@code path}, or null when absent, JSON null, an object or an array. */
    public static String text(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) {
            n = n.path(p);
        }
        return n.isValueNode() && !n.isNull() ? n.asText() : null;
    }

    /**
     * {@link #text}, with "" for what is absent: for messages, comparisons and request bodies where an
     * absent field and an empty one mean the same. Where they differ ({@code storageClassName: ""} is
     * not an absent class), use {@link #text} and its null.
     */
    public static String textOrEmpty(JsonNode node, String... path) {
        String t = text(node, path);
        return t == null ? "" : t;
    }

    /** The key of the object named {@code name} in {@code namespace}. */
    public static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    /** The key of {@code object}; its namespace is {@code defaultNamespace} when it names none. */
    public static String key(JsonNode object, String defaultNamespace) {
        String ns = text(object, "metadata", "namespace");
        String name = text(object, "metadata", "name");
        return key(ns == null || ns.isEmpty() ? defaultNamespace : ns, name == null ? "" : name);
    }
}
