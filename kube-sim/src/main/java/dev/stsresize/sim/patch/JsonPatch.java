package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * RFC 6902 JSON patch with the behaviour of gopkg.in/evanphx/json-patch.v4, the library
 * kube-apiserver uses: negative array indices count from the end, a missing "value" means null,
 * and any failing operation aborts the whole patch.
 */
final class JsonPatch {
    /** maxJSONPatchOperations in endpoints/handlers/patch.go. */
    static final int MAX_OPERATIONS = 10000;

    private JsonPatch() {}

    /** A failed operation; the server answers it as one generic 422, so the reason is for tests and logs only. */
    static final class OperationFailed extends Exception {
        OperationFailed(String message) {
            super(message, null, false, false);
        }
    }

    static ObjectNode apply(ObjectNode target, JsonNode patch) {
        if (patch == null || patch.isNull()) {
            return target.deepCopy();
        }
        if (!patch.isArray()) {
            // jsonpatch.DecodePatch is json.Unmarshal into []Operation; patch.go answers its error as 400
            throw PatchErrors.badRequest("json: cannot unmarshal " + goJsonType(patch) + " into Go value of type jsonpatch.Patch");
        }
        if (patch.size() > MAX_OPERATIONS) {
            throw PatchErrors.tooLarge("The allowed maximum operations in a JSON patch is " + MAX_OPERATIONS + ", got " + patch.size());
        }
        for (JsonNode op : patch) {
            if (!op.isObject()) {
                throw PatchErrors.badRequest("json: cannot unmarshal " + goJsonType(op) + " into Go value of type jsonpatch.Operation");
            }
        }
        ObjectNode doc = target.deepCopy();
        try {
            for (JsonNode op : patch) {
                applyOne(doc, op);
            }
        } catch (OperationFailed e) {
            throw PatchErrors.jsonPatchFailed();
        }
        return doc;
    }

    /** The operations' errors as text, or null when the patch applies: for tests and diagnostics. */
    static String whyItFails(ObjectNode target, JsonNode patch) {
        ObjectNode doc = target.deepCopy();
        try {
            for (JsonNode op : patch) {
                applyOne(doc, op);
            }
            return null;
        } catch (OperationFailed e) {
            return e.getMessage();
        }
    }

    private static void applyOne(ObjectNode doc, JsonNode op) throws OperationFailed {
        String kind = op.path("op").asText("unknown");
        JsonPointer path = pointer(op, "path");
        switch (kind) {
            case "add" -> add(doc, path, valueOf(op), kind);
            case "remove" -> remove(doc, path, kind);
            case "replace" -> replace(doc, path, valueOf(op));
            case "move" -> {
                JsonPointer from = pointer(op, "from");
                if (path.startsWith(from) && !path.equals(from)) {
                    throw new OperationFailed("move operation cannot move a value into one of its children");
                }
                JsonNode moved = remove(doc, from, kind);
                add(doc, path, moved, kind);
            }
            case "copy" -> add(doc, path, get(doc, pointer(op, "from"), kind).deepCopy(), kind);
            case "test" -> test(doc, path, valueOf(op));
            default -> throw new OperationFailed("Unexpected kind: " + kind);
        }
    }

    private static JsonNode valueOf(JsonNode op) {
        JsonNode v = op.get("value");
        return v == null ? PatchTrees.NODES.nullNode() : v.deepCopy();
    }

    private static JsonPointer pointer(JsonNode op, String field) throws OperationFailed {
        JsonNode raw = op.get(field);
        JsonPointer p = raw == null || !raw.isTextual() ? null : JsonPointer.parse(raw.asText());
        if (p == null) {
            throw new OperationFailed(field + " is missing or not a JSON pointer: " + raw);
        }
        return p;
    }

    private static JsonNode container(ObjectNode doc, JsonPointer path, String op) throws OperationFailed {
        if (path.isRoot()) {
            throw new OperationFailed(op + " operation does not apply to the whole document");
        }
        JsonNode node = doc;
        for (String token : path.parent()) {
            node = child(node, token);
            if (node == null) {
                throw new OperationFailed(op + " operation does not apply: doc is missing path: " + String.join("/", path.tokens()));
            }
        }
        if (!node.isContainerNode()) {
            throw new OperationFailed(op + " operation does not apply: parent is not a container");
        }
        return node;
    }

    private static JsonNode child(JsonNode node, String token) {
        if (node.isObject()) {
            return node.get(token);
        }
        if (node.isArray()) {
            Integer i = index(token, node.size(), false);
            return i == null ? null : node.get(i);
        }
        return null;
    }

    /** The array index a token names; {@code forInsert} admits size itself and "-". Null when out of range. */
    private static Integer index(String token, int size, boolean forInsert) {
        if (forInsert && token.equals("-")) {
            return size;
        }
        int i;
        try {
            i = Integer.parseInt(token);
        } catch (NumberFormatException e) {
            return null;
        }
        if (i < 0) {
            i += size; // json-patch v4 SupportNegativeIndices
        }
        int max = forInsert ? size : size - 1;
        return i < 0 || i > max ? null : i;
    }

    private static void add(ObjectNode doc, JsonPointer path, JsonNode value, String op) throws OperationFailed {
        JsonNode parent = container(doc, path, op);
        if (parent.isObject()) {
            ((ObjectNode) parent).set(path.last(), value);
            return;
        }
        Integer i = index(path.last(), parent.size(), true);
        if (i == null) {
            throw new OperationFailed("Unable to access invalid index: " + path.last());
        }
        ((ArrayNode) parent).insert(i, value);
    }

    private static JsonNode remove(ObjectNode doc, JsonPointer path, String op) throws OperationFailed {
        JsonNode parent = container(doc, path, op);
        if (parent.isObject()) {
            JsonNode old = ((ObjectNode) parent).remove(path.last());
            if (old == null) {
                throw new OperationFailed(op + " operation does not apply: doc is missing key: " + path.last());
            }
            return old;
        }
        Integer i = index(path.last(), parent.size(), false);
        if (i == null) {
            throw new OperationFailed("Unable to access invalid index: " + path.last());
        }
        return ((ArrayNode) parent).remove(i);
    }

    private static void replace(ObjectNode doc, JsonPointer path, JsonNode value) throws OperationFailed {
        JsonNode parent = container(doc, path, "replace");
        if (parent.isObject()) {
            if (!parent.has(path.last())) {
                throw new OperationFailed("replace operation does not apply: doc is missing key: " + path.last());
            }
            ((ObjectNode) parent).set(path.last(), value);
            return;
        }
        Integer i = index(path.last(), parent.size(), false);
        if (i == null) {
            throw new OperationFailed("Unable to access invalid index: " + path.last());
        }
        ((ArrayNode) parent).set(i, value);
    }

    private static JsonNode get(ObjectNode doc, JsonPointer path, String op) throws OperationFailed {
        JsonNode node = doc;
        for (String token : path.tokens()) {
            node = child(node, token);
            if (node == null) {
                throw new OperationFailed(op + " operation does not apply: doc is missing path: " + String.join("/", path.tokens()));
            }
        }
        return node;
    }

    private static void test(ObjectNode doc, JsonPointer path, JsonNode expected) throws OperationFailed {
        JsonNode actual = doc;
        for (String token : path.tokens()) {
            actual = actual == null ? null : child(actual, token);
        }
        // json-patch v4: a missing path tests equal to null
        boolean equal = actual == null ? expected.isNull() : PatchTrees.same(actual, expected);
        if (!equal) {
            throw new OperationFailed("testing value " + String.join("/", path.tokens()) + " failed: test failed");
        }
    }

    /** How encoding/json names a JSON value's type in an UnmarshalTypeError. */
    private static String goJsonType(JsonNode n) {
        if (n.isObject()) {
            return "object";
        }
        if (n.isArray()) {
            return "array";
        }
        if (n.isTextual()) {
            return "string";
        }
        if (n.isNumber()) {
            return "number";
        }
        return n.isBoolean() ? "bool" : "null";
    }
}
