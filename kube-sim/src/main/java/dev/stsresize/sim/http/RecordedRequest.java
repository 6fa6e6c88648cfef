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

    /**
     * Whether kube-apiserver treats this request as a dry run, reading dryRun where its handler does:
     * a DELETE's from its body when it has one (delete.go never reads the query then), else from the
     * query; create, update and patch from the query (create.go, update.go, patch.go decode their
     * options from the query only); an eviction from the query or its deleteOptions (eviction.go
     * propagateDryRun).
     */
    public boolean dryRun() {
        boolean query = "All".equals(param("dryRun"));
        if (body == null || body.isBlank() || !(method.equals("DELETE") || path.endsWith("/eviction"))) {
            return query;
        }
        com.fasterxml.jackson.databind.JsonNode options;
        try {
            options = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
        } catch (java.io.IOException e) {
            return method.equals("DELETE") ? false : query;
        }
        if (method.equals("DELETE")) {
            return dev.stsresize.sim.registry.DeleteOptions.fromJson(options).dryRun();
        }
        return query || dev.stsresize.sim.registry.DeleteOptions.fromJson(options.path("deleteOptions")).dryRun();
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
