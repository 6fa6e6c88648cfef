package dev.stsresize.sim.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The simulated etcd: raw JSON objects per resource, keyed and ordered like etcd keys
 * (namespace/name), one global monotonically increasing resourceVersion, and a bounded history of
 * events for watches. It knows nothing of validation or deletion policy (see {@code Registry});
 * it only keeps the invariants every object has: uid, creationTimestamp and resourceVersion are
 * the store's, never the writer's.
 *
 * <p>Stored nodes are never mutated once stored: every write replaces them, so readers may share
 * them; public reads hand out copies.
 */
public final class Store {
    private final Clock clock;
    private final int historyLimit;
    private final Map<ResourceType, TreeMap<String, ObjectNode>> data = new HashMap<>();
    private final ArrayDeque<StoreEvent> history = new ArrayDeque<>();
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private long resourceVersion = 1000;
    /** The resourceVersion of the newest event evicted from history: watches from before it are expired. */
    private long compactedThrough = 1000;

    public Store(Clock clock, int historyLimit) {
        this.clock = clock;
        this.historyLimit = historyLimit;
    }

    public synchronized long resourceVersion() {
        return resourceVersion;
    }

    public String now() {
        return Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static String key(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
    }

    private static String namespaceOf(ObjectNode o) {
        return metadata(o).path("namespace").asText("");
    }

    private static String nameOf(ObjectNode o) {
        return metadata(o).path("name").asText();
    }

    /** The stored object a write replaces; 404 as the real server answers when there is none. */
    private ObjectNode existing(ResourceType requested, ResourceType t, String ns, String name) {
        ObjectNode existing = table(t).get(key(ns, name));
        if (existing == null) {
            throw ApiError.notFound(requested.group(), requested.resource(), name);
        }
        return existing;
    }

    private TreeMap<String, ObjectNode> table(ResourceType t) {
        return data.computeIfAbsent(t, k -> new TreeMap<>());
    }

    /** A copy of the stored object, or null. */
    public synchronized ObjectNode get(ResourceType t, String namespace, String name) {
        ObjectNode o = table(Versions.storage(t)).get(key(namespace, name));
        return o == null ? null : out(t, o);
    }

    /** A copy of a stored object in {@code t}'s version. */
    private static ObjectNode out(ResourceType t, ObjectNode stored) {
        ObjectNode converted = Versions.fromStorage(t, stored);
        return converted == stored ? stored.deepCopy() : converted;
    }

    /** The stored object itself (read-only!), or null; for the server's hot paths. */
    synchronized ObjectNode peek(ResourceType t, String namespace, String name) {
        return Versions.fromStorage(t, table(Versions.storage(t)).get(key(namespace, name)));
    }

    /** Copies of the objects in key order, in one namespace or (namespace null/empty) all. */
    public synchronized List<ObjectNode> list(ResourceType t, String namespace) {
        List<ObjectNode> out = new ArrayList<>();
        forEach(t, namespace, o -> out.add(out(t, o)));
        return out;
    }

    /**
     * A consistent read: the stored (read-only) objects in key order and the resourceVersion they
     * are at, taken under one lock.
     */
    public synchronized Snapshot snapshot(ResourceType t, String namespace) {
        List<ObjectNode> out = new ArrayList<>();
        forEach(t, namespace, o -> out.add(Versions.fromStorage(t, o)));
        return new Snapshot(out, resourceVersion);
    }

    public record Snapshot(List<ObjectNode> items, long resourceVersion) {}

    /** The stored (storage-version, read-only) objects of {@code t}'s table. */
    private void forEach(ResourceType t, String namespace, Consumer<ObjectNode> c) {
        TreeMap<String, ObjectNode> tab = table(Versions.storage(t));
        if (namespace == null || namespace.isEmpty()) {
            tab.values().forEach(c);
        } else {
            tab.subMap(namespace + "/", namespace + "/\uffff").values().forEach(c);
        }
    }

    /**
     * Stores a new object: fills uid, creationTimestamp and resourceVersion (and generation 1 for
     * kinds that have one). With {@code dryRun} nothing is stored and no resourceVersion consumed.
     */
    public synchronized ObjectNode create(ResourceType requested, ObjectNode given, boolean dryRun) {
        ResourceType t = Versions.storage(requested);
        ObjectNode obj = Versions.toStorage(requested, given);
        String ns = namespaceOf(obj);
        String name = nameOf(obj);
        if (table(t).containsKey(key(ns, name))) {
            throw ApiError.alreadyExists(requested.group(), requested.resource(), name);
        }
        ObjectNode o = obj.deepCopy();
        ObjectNode m = metadata(o);
        m.put("uid", UUID.randomUUID().toString());
        m.put("creationTimestamp", now());
        if (t.hasGeneration()) {
            m.put("generation", 1);
        } else {
            m.remove("generation");
        }
        m.remove("deletionTimestamp");
        m.remove("deletionGracePeriodSeconds");
        if (dryRun) {
            m.remove("resourceVersion");
            return out(requested, o);
        }
        return commit(requested, t, ns, name, o, null);
    }

    /**
     * Stores an object as given (a snapshot being loaded): keeps its uid, creationTimestamp and
     * status, fills what is missing, and gives it a resourceVersion of this store.
     */
    public synchronized ObjectNode load(ResourceType requested, ObjectNode obj) {
        ResourceType t = Versions.storage(requested);
        ObjectNode o = Versions.toStorage(requested, obj).deepCopy();
        ObjectNode m = metadata(o);
        if (!m.hasNonNull("uid")) {
            m.put("uid", UUID.randomUUID().toString());
        }
        if (!m.hasNonNull("creationTimestamp")) {
            m.put("creationTimestamp", now());
        }
        if (t.hasGeneration() && !m.has("generation")) {
            m.put("generation", 1);
        }
        m.put("resourceVersion", Long.toString(++resourceVersion));
        String k = key(m.path("namespace").asText(""), m.path("name").asText());
        ObjectNode previous = table(t).put(k, o);
        publish(previous != null ? StoreEvent.Type.MODIFIED : StoreEvent.Type.ADDED, t, o, previous);
        return out(requested, o);
    }

    /**
     * Replaces a stored object. {@code obj}'s resourceVersion, when set, must be the stored one
     * (optimistic concurrency, 409 otherwise). uid and creationTimestamp stay the stored ones. An
     * object being deleted whose last finalizer goes away is deleted (store.go's
     * shouldDeleteDuringUpdate). A write that changes nothing keeps the resourceVersion, like the real
     * server's no-op updates.
     */
    public synchronized ObjectNode update(ResourceType requested, ObjectNode given, boolean dryRun) {
        ResourceType t = Versions.storage(requested);
        ObjectNode obj = Versions.toStorage(requested, given);
        String ns = namespaceOf(obj);
        String name = nameOf(obj);
        ObjectNode existing = existing(requested, t, ns, name);
        String rv = metadata(obj).path("resourceVersion").asText("");
        String liveRv = existing.path("metadata").path("resourceVersion").asText();
        if (!rv.isEmpty() && !rv.equals(liveRv)) {
            throw ApiError.conflict(requested.groupResource(), requested.group(), requested.resource(), name,
                    "the object has been modified; please apply your changes to the latest version and try again");
        }
        ObjectNode o = obj.deepCopy();
        ObjectNode m = metadata(o);
        JsonNode em = existing.path("metadata");
        m.set("uid", em.get("uid"));
        m.set("creationTimestamp", em.get("creationTimestamp"));
        copyOrRemove(em, m, "deletionTimestamp");
        copyOrRemove(em, m, "deletionGracePeriodSeconds");
        if (!t.hasGeneration()) {
            m.remove("generation");
        }
        m.put("resourceVersion", liveRv);
        // store.go deletes during an update only once the grace period is over (a terminating pod stays)
        if (m.has("deletionTimestamp") && m.path("finalizers").isEmpty() && m.path("deletionGracePeriodSeconds").asLong(0) == 0) {
            if (dryRun) {
                return out(requested, o);
            }
            return Versions.fromStorage(requested, removeLocked(t, ns, name));
        }
        if (withoutManagedFields(o).equals(withoutManagedFields(existing))) {
            return out(requested, existing);
        }
        if (dryRun) {
            return out(requested, o);
        }
        return commit(requested, t, ns, name, o, existing);
    }

    /**
     * Marks a stored object as being deleted: sets deletionTimestamp and deletionGracePeriodSeconds 0,
     * bumps the generation (store.go markAsDeleting) and sets its finalizers; the object stays until a
     * controller removes the last finalizer.
     */
    public synchronized ObjectNode markDeleting(ResourceType requested, String ns, String name, List<String> finalizers,
            boolean dryRun) {
        return markDeleting(requested, ns, name, finalizers, 0, dryRun);
    }

    /** As above with a grace period (a terminating pod): the object stays until its kubelet removes it. */
    public synchronized ObjectNode markDeleting(ResourceType requested, String ns, String name, List<String> finalizers,
            long graceSeconds, boolean dryRun) {
        ResourceType t = Versions.storage(requested);
        ObjectNode existing = existing(requested, t, ns, name);
        ObjectNode o = existing.deepCopy();
        ObjectNode m = metadata(o);
        if (!m.has("deletionTimestamp")) {
            if (m.path("generation").asLong(0) > 0) {
                m.put("generation", m.path("generation").asLong() + 1);
            }
            m.put("deletionTimestamp", now());
            m.put("deletionGracePeriodSeconds", graceSeconds);
        }
        var fs = m.putArray("finalizers");
        finalizers.forEach(fs::add);
        if (dryRun) {
            return out(requested, o);
        }
        return commit(requested, t, ns, name, o, existing);
    }

    /** Removes an object now; the DELETED event carries a new resourceVersion. */
    public synchronized ObjectNode remove(ResourceType requested, String ns, String name, boolean dryRun) {
        ResourceType t = Versions.storage(requested);
        ObjectNode existing = existing(requested, t, ns, name);
        return dryRun ? out(requested, existing) : Versions.fromStorage(requested, removeLocked(t, ns, name));
    }

    /**
     * Stores {@code o} in place of {@code previous} (null for a new object) under the next
     * resourceVersion, and tells the watchers: ADDED for a new object, MODIFIED otherwise.
     */
    private ObjectNode commit(ResourceType requested, ResourceType t, String ns, String name, ObjectNode o, ObjectNode previous) {
        metadata(o).put("resourceVersion", Long.toString(++resourceVersion));
        table(t).put(key(ns, name), o);
        publish(previous == null ? StoreEvent.Type.ADDED : StoreEvent.Type.MODIFIED, t, o, previous);
        return out(requested, o);
    }

    private ObjectNode removeLocked(ResourceType t, String ns, String name) {
        ObjectNode gone = table(t).remove(key(ns, name)).deepCopy();
        metadata(gone).put("resourceVersion", Long.toString(++resourceVersion));
        publish(StoreEvent.Type.DELETED, t, gone, null);
        return gone.deepCopy();
    }

    /**
     * Subscribes to events matching {@code filter}. {@code fromResourceVersion} &lt; 0 starts now;
     * otherwise every event after it is replayed first.
     *
     * @throws Expired when the history no longer holds the events after {@code fromResourceVersion}
     */
    public synchronized Subscription subscribe(Predicate<StoreEvent> filter, long fromResourceVersion) {
        if (fromResourceVersion >= 0 && fromResourceVersion < compactedThrough) {
            throw new Expired(fromResourceVersion, compactedThrough);
        }
        Subscription[] self = new Subscription[1];
        self[0] = new Subscription(filter, () -> subscriptions.remove(self[0]));
        if (fromResourceVersion >= 0) {
            for (StoreEvent e : history) {
                if (e.resourceVersion() > fromResourceVersion) {
                    self[0].offer(e);
                }
            }
        }
        subscriptions.add(self[0]);
        return self[0];
    }

    /**
     * Subscribes with the current state replayed as ADDED events first (a watch without
     * resourceVersion, or with "0"), atomically with registering.
     */
    public synchronized Subscription subscribeWithState(ResourceType t, String namespace, Predicate<StoreEvent> filter) {
        Subscription s = subscribe(filter, -1);
        forEach(t, namespace, o -> s.offer(new StoreEvent(StoreEvent.Type.ADDED, Versions.storage(t), o, null,
                Long.parseLong(o.path("metadata").path("resourceVersion").asText("0")))));
        return s;
    }

    public synchronized int historySize() {
        return history.size();
    }

    private void publish(StoreEvent.Type type, ResourceType t, ObjectNode o, ObjectNode previous) {
        StoreEvent e = new StoreEvent(type, t, o, previous, resourceVersion);
        history.addLast(e);
        while (history.size() > historyLimit) {
            compactedThrough = history.removeFirst().resourceVersion();
        }
        for (Subscription s : subscriptions) {
            s.offer(e);
        }
    }

    private static ObjectNode metadata(ObjectNode o) {
        JsonNode m = o.get("metadata");
        if (m instanceof ObjectNode om) {
            return om;
        }
        return o.putObject("metadata");
    }

    private static void copyOrRemove(JsonNode from, ObjectNode to, String field) {
        if (from.has(field)) {
            to.set(field, from.get(field));
        } else {
            to.remove(field);
        }
    }

    private static ObjectNode withoutManagedFields(ObjectNode o) {
        ObjectNode c = o.deepCopy();
        ObjectNode m = metadata(c);
        m.remove("managedFields");
        m.remove("resourceVersion");
        return c;
    }
}
