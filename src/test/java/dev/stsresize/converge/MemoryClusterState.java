package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.PodLog;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.ObjectList;
import dev.stsresize.cluster.ObjectWatch;
import dev.stsresize.cluster.ResourceAccess;
import dev.stsresize.cluster.RulesReview;
import dev.stsresize.cluster.WatchEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What a test sets up in the in-memory cluster, plants in it and reads back of it: the objects by kind, namespace and
 * name with their resourceVersions and UIDs, the failures planted per method, the steps planned for the next watches,
 * every call recorded, and the {@link Time} that moves only when a watch opens. {@link MemoryCluster} answers the
 * {@link Cluster} port from it.
 */
abstract class MemoryClusterState {
    /** A clock tests move: each watch opened moves it by {@link #watchStep}. */
    static final class Time extends Clock {
        private volatile Instant now;

        Time(Instant start) {
            this.now = start;
        }

        Time() {
            this(Instant.parse("2026-01-01T00:00:00Z"));
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    /** One call that changed or would have changed something (dry runs too). */
    record Call(String method, String namespace, String name, String detail, boolean dryRun) {}

    final Time time;
    Duration watchStep = Duration.ofSeconds(5);
    final Map<String, ObjectNode> objects = new LinkedHashMap<>();
    private final Map<String, Deque<Runnable>> onWatch = new HashMap<>();
    private final Map<String, Deque<ObjectNode>> burst = new HashMap<>();
    private final Map<String, Deque<RuntimeException>> failures = new HashMap<>();
    private final Map<String, RuntimeException> alwaysFails = new HashMap<>();
    final List<Call> writes = new ArrayList<>();
    final List<String> reads = new ArrayList<>();
    final List<ObjectNode> eventsCreated = new ArrayList<>();
    final List<ResourceAccess> accessReviews = new ArrayList<>();
    int watches;
    /** Watches closed, by whoever closed them. */
    final java.util.concurrent.atomic.AtomicInteger closes = new java.util.concurrent.atomic.AtomicInteger();
    long resourceVersion = 100;
    long uids;
    /** What a SelfSubjectAccessReview answers. */
    Predicate<ResourceAccess> allowed = a -> true;
    /** What a SelfSubjectRulesReview answers per namespace (throw a ClusterException to refuse it). */
    Function<String, RulesReview> rules = ns -> new RulesReview(
            List.of(new RulesReview.Rule(List.of("*"), List.of("*"), List.of("*"), List.of())), false, "");
    /** Whether the StorageClasses and CSIDrivers LISTs answer 403. */
    boolean storageClassesForbidden;
    boolean persistentVolumesForbidden;
    boolean csiDriversForbidden;
    /** The kubelet summaries by node name; a node absent here answers 404. */
    final Map<String, ObjectNode> summaries = new HashMap<>();
    /** Run just before a planted failure is thrown, with the method's name: what someone else did meanwhile. */
    java.util.function.Consumer<String> whenFailing = m -> { };
    /** What a claim patch answers, from the claim as stored (a webhook that changes it, say). */
    java.util.function.UnaryOperator<ObjectNode> patchAnswer = o -> o;
    /** Run after each write with the call: a controller's reaction (adopting pods after a re-apply, say). */
    java.util.function.Consumer<Call> afterWrite = c -> { };

    /** What {@link MemoryCluster#podLog} answers per pod ({@code namespace/name}); a pod absent here has an empty log. */
    final Map<String, PodLog> logs = new HashMap<>();

    MemoryClusterState(Time time) {
        this.time = time;
    }

    // ---- setting up ---------------------------------------------------------------------------------

    static ObjectNode json(String json) {
        return Objects.parse(json.replace('\'', '"'));
    }

    /** Stores {@code o} as it is (a uid and resourceVersion added when it has none); answers the stored copy. */
    synchronized ObjectNode put(ObjectNode o) {
        ObjectNode copy = o.deepCopy();
        ObjectNode meta = Objects.child(copy, "metadata");
        if (!meta.has("namespace") && !java.util.Set.of("StorageClass", "CSIDriver", "PersistentVolume").contains(copy.path("kind").asText())) {
            meta.put("namespace", "default");
        }
        if (meta.path("uid").asText("").isEmpty()) {
            meta.put("uid", "uid-" + (++uids));
        }
        meta.put("resourceVersion", String.valueOf(++resourceVersion));
        objects.put(key(copy.path("kind").asText(), Objects.namespace(copy), Objects.name(copy)), copy);
        return copy.deepCopy();
    }

    synchronized ObjectNode put(String json) {
        return put(json(json));
    }

    synchronized Optional<ObjectNode> get(String kind, String ns, String name) {
        return Optional.ofNullable(objects.get(key(kind, ns, name))).map(ObjectNode::deepCopy);
    }

    /** Every stored object of {@code kind} in {@code ns}, as copies. */
    synchronized List<ObjectNode> all(String kind, String ns) {
        return list(kind, Optional.of(ns), "");
    }

    synchronized void remove(String kind, String ns, String name) {
        objects.remove(key(kind, ns, name));
        ++resourceVersion;
    }

    /** Changes the stored object in place (a controller's status write): its resourceVersion moves. */
    synchronized void edit(String kind, String ns, String name, java.util.function.Consumer<ObjectNode> change) {
        ObjectNode o = objects.get(key(kind, ns, name));
        if (o == null) {
            throw new AssertionError("no " + key(kind, ns, name) + " to edit");
        }
        change.accept(o);
        ((ObjectNode) o.path("metadata")).put("resourceVersion", String.valueOf(++resourceVersion));
    }

    /** What the next watches of that object do first, one step per watch. */
    synchronized void onWatch(String kind, String ns, String name, Runnable... steps) {
        onWatch.computeIfAbsent(key(kind, ns, name), k -> new ArrayDeque<>()).addAll(List.of(steps));
    }

    /** The next watch of that object delivers these states too, after its own event (a burst of changes). */
    synchronized void alsoDeliver(String kind, String ns, String name, ObjectNode... states) {
        burst.computeIfAbsent(key(kind, ns, name), k -> new ArrayDeque<>()).addAll(List.of(states));
    }

    /** The next call of {@code method} throws {@code e} (queued: one per call; null lets that call through). */
    synchronized void failNext(String method, RuntimeException e) {
        failures.computeIfAbsent(method, k -> new java.util.LinkedList<>()).add(e);
    }

    /** Every call of {@code method} throws {@code e}. */
    synchronized void failAlways(String method, RuntimeException e) {
        alwaysFails.put(method, e);
    }

    static ClusterException error(int code, String reason, String message) {
        return new ClusterException(code, reason, message, null, "test", null);
    }

    synchronized List<Call> writes() {
        return List.copyOf(writes);
    }

    /** The writes that were not dry runs. */
    synchronized List<Call> realWrites() {
        return writes.stream().filter(c -> !c.dryRun()).toList();
    }

    synchronized List<Call> writes(String method) {
        return writes.stream().filter(c -> c.method().equals(method)).toList();
    }

    /** Every delete sent, of any kind. */
    synchronized List<Call> deletes() {
        return writes.stream().filter(c -> c.method().startsWith("delete")).toList();
    }

    /** The deletes that were not dry runs. */
    synchronized List<Call> realDeletes() {
        return deletes().stream().filter(c -> !c.dryRun()).toList();
    }

    synchronized List<String> reads() {
        return List.copyOf(reads);
    }

    static String key(String kind, String ns, String name) {
        return kind + "/" + ns + "/" + name;
    }

    void fail(String method) {
        RuntimeException always = alwaysFails.get(method);
        if (always != null) {
            whenFailing.accept(method);
            throw always;
        }
        Deque<RuntimeException> q = failures.get(method);
        if (q != null && !q.isEmpty()) {
            RuntimeException next = q.poll();
            if (next != null) {
                whenFailing.accept(method);
                throw next;
            }
        }
    }

    synchronized void read(String method, String what) {
        reads.add(method + " " + what);
        fail(method);
    }

    void wrote(Call c) {
        synchronized (this) {
            writes.add(c);
        }
        if (!c.dryRun()) {
            afterWrite.accept(c);
        }
    }

    synchronized List<ObjectNode> list(String kind, Optional<String> ns, String selector) {
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode o : objects.values()) {
            if (kind.equals(o.path("kind").asText()) && (ns.isEmpty() || ns.get().equals(Objects.namespace(o))) && matches(o, selector)) {
                out.add(o.deepCopy());
            }
        }
        return out;
    }

    /** Equality terms only ({@code a=b,c=d}), as the tests write them; "" matches all. */
    private static boolean matches(JsonNode o, String selector) {
        if (selector.isEmpty()) {
            return true;
        }
        for (String term : selector.split(",")) {
            String[] kv = term.split("=", 2);
            if (kv.length != 2 || !kv[1].equals(o.path("metadata").path("labels").path(kv[0]).asText(null))) {
                return false;
            }
        }
        return true;
    }

    ObjectList objectList(List<ObjectNode> items) {
        return new ObjectList(items, String.valueOf(resourceVersion));
    }

    // ---- the store's writes, as the API server makes them -----------------------------------------

    ObjectNode create(String method, String kind, ObjectNode o, boolean dryRun) {
        String ns = Objects.namespace(o);
        String name = Objects.name(o);
        ObjectNode out;
        synchronized (this) {
            fail(method);
            if (o.path("metadata").has("resourceVersion")) {
                throw error(400, "BadRequest", "resourceVersion should not be set on objects to be created");
            }
            if (objects.containsKey(key(kind, ns, name))) {
                throw error(409, "AlreadyExists", kind.toLowerCase() + "s \"" + name + "\" already exists");
            }
            ObjectNode copy = o.deepCopy();
            copy.put("kind", kind);
            ObjectNode meta = Objects.child(copy, "metadata");
            meta.put("namespace", ns);
            meta.put("uid", "uid-" + (++uids));
            if (dryRun) {
                out = copy;
            } else {
                meta.put("resourceVersion", String.valueOf(++resourceVersion));
                objects.put(key(kind, ns, name), copy);
                out = copy.deepCopy();
            }
        }
        wrote(new Call(method, ns, name, "", dryRun));
        return out;
    }

    ObjectNode update(String method, String kind, ObjectNode o) {
        String ns = Objects.namespace(o);
        String name = Objects.name(o);
        ObjectNode out;
        synchronized (this) {
            fail(method);
            ObjectNode current = objects.get(key(kind, ns, name));
            if (current == null) {
                throw error(404, "NotFound", kind.toLowerCase() + "s \"" + name + "\" not found");
            }
            String rv = o.path("metadata").path("resourceVersion").asText("");
            if (!rv.isEmpty() && !rv.equals(current.path("metadata").path("resourceVersion").asText())) {
                throw error(409, "Conflict", "Operation cannot be fulfilled on " + kind.toLowerCase() + "s \"" + name
                        + "\": the object has been modified; please apply your changes to the latest version and try again");
            }
            ObjectNode copy = o.deepCopy();
            copy.put("kind", kind);
            ObjectNode meta = Objects.child(copy, "metadata");
            meta.put("namespace", ns);
            meta.put("uid", Objects.uid(current));
            meta.put("resourceVersion", String.valueOf(++resourceVersion));
            objects.put(key(kind, ns, name), copy);
            out = copy.deepCopy();
        }
        wrote(new Call(method, ns, name, "", false));
        return out;
    }

    // ---- a watch, as planned ------------------------------------------------------------------------

    /**
     * A watch as the test planned it: the object's next {@link #onWatch} step first, then its state if it changed since
     * {@code fromResourceVersion}, then what {@link #alsoDeliver} added, then its end; the clock moves by {@link #watchStep}.
     */
    ObjectWatch plannedWatch(String kind, String namespace, String name, String fromResourceVersion) {
        Runnable step;
        synchronized (this) {
            watches++;
            time.advance(watchStep);
            Deque<Runnable> q = onWatch.get(key(kind, namespace, name));
            step = q == null ? null : q.poll();
        }
        if (step != null) {
            step.run();
        }
        Optional<ObjectNode> now = get(kind, namespace, name);
        Deque<WatchEvent> events = new ArrayDeque<>();
        String last = fromResourceVersion;
        if (now.isPresent()) {
            String rv = now.get().path("metadata").path("resourceVersion").asText();
            if (!rv.equals(fromResourceVersion)) {
                events.add(new WatchEvent(fromResourceVersion.isEmpty() ? "ADDED" : "MODIFIED", now.get()));
                last = rv;
            }
        } else if (!fromResourceVersion.isEmpty()) {
            ObjectNode gone = json("{'kind':'" + kind + "','metadata':{'name':'" + name + "','namespace':'" + namespace + "'}}");
            events.add(new WatchEvent("DELETED", gone));
            last = "";
        }
        synchronized (this) {
            Deque<ObjectNode> more = burst.remove(key(kind, namespace, name));
            if (more != null) {
                for (ObjectNode o : more) {
                    events.add(new WatchEvent("MODIFIED", o));
                }
            }
        }
        String lastSeen = last;
        return new ObjectWatch() {
            @Override
            public Optional<WatchEvent> next() {
                return Optional.ofNullable(events.poll());
            }

            @Override
            public String lastResourceVersion() {
                return lastSeen;
            }

            @Override
            public void close() {
                closes.incrementAndGet();
                events.clear();
            }
        };
    }
}
