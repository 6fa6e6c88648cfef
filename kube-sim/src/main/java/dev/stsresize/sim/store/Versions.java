package dev.stsresize.sim.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Resources served in two API versions over one storage, as kube-apiserver does: an Event written as
 * events.k8s.io/v1 is the same object as the core v1 Event ({@code kubectl get events} and
 * {@code kubectl describe} show it). Field mapping from pkg/apis/events/v1/conversion.go; the store
 * keeps the core v1 form.
 */
public final class Versions {
    /** events.k8s.io/v1 field → core v1 field; the others share their names. */
    private static final Map<String, String> EVENTS_TO_CORE = Map.of(
            "regarding", "involvedObject",
            "note", "message",
            "reportingController", "reportingComponent",
            "deprecatedSource", "source",
            "deprecatedFirstTimestamp", "firstTimestamp",
            "deprecatedLastTimestamp", "lastTimestamp",
            "deprecatedCount", "count");

    private Versions() {}

    /** The resource whose table holds {@code t}'s objects. */
    public static ResourceType storage(ResourceType t) {
        if (isEventsV1(t)) {
            return Catalog.standard().byResource("", "events").orElseThrow();
        }
        return t;
    }

    public static ObjectNode toStorage(ResourceType t, ObjectNode o) {
        if (!isEventsV1(t)) {
            return o;
        }
        ObjectNode c = rename(o, EVENTS_TO_CORE, false);
        c.put("apiVersion", "v1");
        return c;
    }

    /** {@code o} in {@code t}'s version; the same node when no conversion is needed. */
    public static ObjectNode fromStorage(ResourceType t, ObjectNode o) {
        if (!isEventsV1(t) || o == null) {
            return o;
        }
        ObjectNode c = rename(o, EVENTS_TO_CORE, true);
        c.put("apiVersion", "events.k8s.io/v1");
        return c;
    }

    private static boolean isEventsV1(ResourceType t) {
        return t.group().equals("events.k8s.io");
    }

    private static ObjectNode rename(ObjectNode o, Map<String, String> map, boolean reverse) {
        ObjectNode out = o.objectNode();
        o.fields().forEachRemaining(e -> out.set(name(e.getKey(), map, reverse), e.getValue().deepCopy()));
        return out;
    }

    private static String name(String field, Map<String, String> map, boolean reverse) {
        if (!reverse) {
            return map.getOrDefault(field, field);
        }
        for (Map.Entry<String, String> e : map.entrySet()) {
            if (e.getValue().equals(field)) {
                return e.getKey();
            }
        }
        return field;
    }

}
