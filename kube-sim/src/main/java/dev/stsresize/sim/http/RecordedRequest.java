package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One request as the server saw it, for tests ("no write was made", "every DELETE carried Orphan
 * and a UID precondition") and for {@code --log}. {@code query} keeps the decoded parameters.
 */
public record RecordedRequest(String method, String path, Map<String, String> query, String contentType, String body,
        int status, long durationMillis, String user, String verb, String resource, String namespace, String name) {

    public boolean isWrite() {
        return switch (method) {
            case "POST", "PUT", "PATCH", "DELETE" -> true;
            default -> false;
        };
    }

    public String param(String key) {
        return query.get(key);
    }

    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("method", method);
        o.put("path", path);
        ObjectNode q = o.putObject("query");
        new LinkedHashMap<>(query).forEach(q::put);
        o.put("contentType", contentType);
        o.put("body", body);
        o.put("status", status);
        o.put("durationMillis", durationMillis);
        o.put("user", user);
        o.put("verb", verb);
        o.put("resource", resource);
        o.put("namespace", namespace);
        o.put("name", name);
        return o;
    }
}
