package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.stsresize.sim.store.Expired;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;
import dev.stsresize.sim.store.StoreEvent;
import dev.stsresize.sim.store.Subscription;
import dev.stsresize.sim.store.Versions;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * One watch: a chunked stream of JSON events, one per line ({@code {"type":…,"object":…}}), as
 * apiserver's watch handler writes them. Without a resourceVersion (or with "0") the current objects
 * come first as ADDED; from a resourceVersion the history after it is replayed, or, when it is older
 * than the history, one ERROR event with a 410 Expired Status (the cacher answers a too-old watch
 * this way after HTTP 200, staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go newErrWatcher).
 * BOOKMARKs carry the resourceVersion up to which everything was sent.
 */
final class WatchStream {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    record Params(ResourceType type, String namespace, Predicate<JsonNode> filter, String resourceVersion,
            boolean bookmarks, boolean sendInitialEvents, long timeoutMillis, Integer cutAfterEvents, boolean asTable) {}

    private final Store store;
    private final long bookmarkMillis;
    private final BooleanSupplier stopping;

    WatchStream(Store store, long bookmarkMillis, BooleanSupplier stopping) {
        this.store = store;
        this.bookmarkMillis = bookmarkMillis;
        this.stopping = stopping;
    }

    /** Serves the stream; returns the number of events written. */
    int serve(HttpExchange ex, Params p) throws IOException {
        ResourceType storage = Versions.storage(p.type());
        Predicate<StoreEvent> matches = e -> e.resource().equals(storage)
                && (p.namespace().isEmpty() || p.namespace().equals(e.namespace()));
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.getResponseHeaders().set("Cache-Control", "no-cache, private");
        ex.sendResponseHeaders(200, 0);
        int sent = 0;
        try (OutputStream out = ex.getResponseBody()) {
            Subscription sub;
            String rv = p.resourceVersion();
            boolean fromState = rv == null || rv.isEmpty() || rv.equals("0");
            try {
                sub = fromState ? store.subscribeWithState(p.type(), p.namespace(), matches)
                        : store.subscribe(matches, Long.parseLong(rv));
            } catch (Expired e) {
                write(out, "ERROR", expired(e.getMessage()));
                return 0;
            } catch (NumberFormatException e) {
                write(out, "ERROR", dev.stsresize.sim.ApiError.of(400, "BadRequest",
                        "invalid resource version \"" + rv + "\"", null).status());
                return 0;
            }
            // WatchServer.HandleHTTP (endpoints/handlers/watch.go): WriteHeader(200) then flusher.Flush(), with
            // the watch registered: the client has its answer before the first event. Over HTTP/2 a server
            // sends no HEADERS frame until the first write or flush: kubectl wait sat 5 s until a bookmark.
            out.flush();
            try (sub) {
                long deadline = System.currentTimeMillis() + p.timeoutMillis();
                long nextBookmark = System.currentTimeMillis() + bookmarkMillis;
                boolean initialEnd = fromState && p.sendInitialEvents() && p.bookmarks();
                while (!stopping.getAsBoolean()) {
                    long now = System.currentTimeMillis();
                    if (now >= deadline) {
                        break;
                    }
                    long before = store.resourceVersion();
                    StoreEvent e = sub.poll(Math.max(1, Math.min(Math.min(deadline, nextBookmark) - now, initialEnd ? 1 : 250)));
                    if (e != null) {
                        e = new StoreEvent(e.type(), p.type(), Versions.fromStorage(p.type(), e.object()),
                                Versions.fromStorage(p.type(), e.previous()), e.resourceVersion());
                        String type = typeThroughFilter(e, p.filter());
                        if (type == null) {
                            continue;
                        }
                        // kubectl get -w asks for Tables: one row per event, the columns on the first only
                        JsonNode object = p.asTable() ? Tables.table(p.type(), java.util.List.of(e.object()),
                                Long.toString(e.resourceVersion()), java.time.Instant.now(), sent == 0) : e.object();
                        write(out, type, object);
                        sent++;
                        if (p.cutAfterEvents() != null && sent >= p.cutAfterEvents()) {
                            break;
                        }
                        continue;
                    }
                    if (initialEnd) {
                        ObjectNode bm = bookmark(p.type(), before);
                        bm.withObject("/metadata").putObject("annotations").put("k8s.io/initial-events-end", "true");
                        write(out, "BOOKMARK", bm);
                        initialEnd = false;
                    } else if (p.bookmarks() && System.currentTimeMillis() >= nextBookmark) {
                        write(out, "BOOKMARK", bookmark(p.type(), before));
                        nextBookmark = System.currentTimeMillis() + bookmarkMillis;
                    }
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        } catch (IOException clientGone) {
            // the client closed the watch: nothing to answer
        }
        return sent;
    }

    /**
     * What a filtered watch sees of an event (the cacher's rule): a change that makes an object match
     * is ADDED, one that makes it stop matching is DELETED; null when the watcher sees nothing.
     */
    static String typeThroughFilter(StoreEvent e, Predicate<JsonNode> filter) {
        boolean now = filter.test(e.object());
        if (e.type() != StoreEvent.Type.MODIFIED || e.previous() == null) {
            return now ? e.type().name() : null;
        }
        boolean before = filter.test(e.previous());
        if (now && before) {
            return "MODIFIED";
        }
        if (now) {
            return "ADDED";
        }
        return before ? "DELETED" : null;
    }

    private static ObjectNode bookmark(ResourceType t, long rv) {
        ObjectNode o = JSON.objectNode();
        o.put("kind", t.kind());
        o.put("apiVersion", t.apiVersion());
        ObjectNode m = o.putObject("metadata");
        m.put("resourceVersion", Long.toString(rv));
        m.putNull("creationTimestamp");
        return o;
    }

    private static ObjectNode expired(String message) {
        return dev.stsresize.sim.ApiError.of(410, "Expired", message, null).status();
    }

    private static void write(OutputStream out, String type, JsonNode object) throws IOException {
        ObjectNode ev = JSON.objectNode();
        ev.put("type", type);
        ev.set("object", object);
        out.write(BodyCodec.bytes(ev));
        out.write('\n');
        out.flush();
    }
}
