package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes core/v1 Events as client-go's EventRecorder does: one Event per object, type, reason and
 * message, named {@code <object>.<hex>}, its count and lastTimestamp raised when it repeats (the
 * correlator's aggregation); events of cluster-scoped objects go to "default".
 */
final class EventRecorder {
    private final Api api;
    private final Kinds kinds;
    private final Map<String, String> names = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong(System.nanoTime());

    EventRecorder(Api api, Kinds kinds) {
        this.api = api;
        this.kinds = kinds;
    }

    void normal(String component, JsonNode involved, String reason, String message) {
        record(component, involved, "Normal", reason, message);
    }

    void warning(String component, JsonNode involved, String reason, String message) {
        record(component, involved, "Warning", reason, message);
    }

    private void record(String component, JsonNode involved, String type, String reason, String message) {
        String ns = ObjectMeta.ns(involved).isEmpty() ? "default" : ObjectMeta.ns(involved);
        String key = ObjectMeta.uid(involved) + "\u0000" + type + "\u0000" + reason + "\u0000" + message;
        String now = api.store().now();
        try {
            String existing = names.get(key);
            if (existing != null) {
                ObjectNode ev = api.get(kinds.events(), ns, existing);
                if (ev != null) {
                    ev.put("count", ev.path("count").asInt(1) + 1);
                    ev.put("lastTimestamp", now);
                    api.update(kinds.events(), ev);
                    return;
                }
            }
            ObjectNode ev = ObjectMeta.NODES.objectNode();
            ev.put("apiVersion", "v1");
            ev.put("kind", "Event");
            String name = ObjectMeta.name(involved) + "." + Long.toHexString(sequence.incrementAndGet());
            ev.putObject("metadata").put("name", name).put("namespace", ns);
            ObjectNode io = ev.putObject("involvedObject");
            io.put("apiVersion", involved.path("apiVersion").asText());
            io.put("kind", involved.path("kind").asText());
            if (!ObjectMeta.ns(involved).isEmpty()) {
                io.put("namespace", ObjectMeta.ns(involved));
            }
            io.put("name", ObjectMeta.name(involved));
            io.put("uid", ObjectMeta.uid(involved));
            io.put("resourceVersion", involved.path("metadata").path("resourceVersion").asText());
            ev.put("reason", reason);
            ev.put("message", message);
            ev.putObject("source").put("component", component);
            ev.put("firstTimestamp", now);
            ev.put("lastTimestamp", now);
            ev.put("count", 1);
            ev.put("type", type);
            ev.putNull("eventTime");
            ev.put("reportingComponent", component);
            ev.put("reportingInstance", "");
            api.create(kinds.events(), ev);
            names.put(key, name);
        } catch (ApiError e) {
            // events are best effort, as in client-go: a namespace being deleted must not stop a controller
        }
    }
}
