package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.StoreEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The garbage collector (pkg/controller/garbagecollector/garbagecollector.go): for an owner being
 * deleted with the {@code orphan} finalizer it removes the owner's reference from every dependent
 * and only THEN the finalizer (attemptToOrphan), so a 404 on the owner means no dependent points
 * at it any more; with {@code foregroundDeletion} it deletes the dependents and removes the
 * finalizer once no blocking dependent is left; once an owner is gone (Background, or a plain
 * delete) it deletes every dependent whose owners are all gone (attemptToDeleteItem) — claims
 * carrying a StatefulSet's owner reference included, the data-loss path — and drops dangling
 * references from dependents that still have another owner.
 */
final class GarbageCollector extends Controller {
    private static final String ORPHAN = "orphan";
    private static final String FOREGROUND = "foregroundDeletion";
    private static final String GONE = "uid:";

    private final Api api;

    GarbageCollector(Context ctx) {
        super(ctx);
        this.api = ctx.api("generic-garbage-collector");
    }

    @Override
    String name() {
        return "garbage-collector";
    }

    @Override
    List<Key> keysFor(StoreEvent e) {
        List<Key> keys = new ArrayList<>();
        JsonNode o = e.object();
        String ns = ObjectMeta.ns(o);
        if (e.type() == StoreEvent.Type.DELETED) {
            keys.add(new Key(ns, GONE + ObjectMeta.uid(o)));
            for (JsonNode ref : ObjectMeta.ownerRefs(o)) {
                ctx.sim().catalog().byKind(ref.path("apiVersion").asText(), ref.path("kind").asText())
                        .ifPresent(t -> keys.add(new Key(t.namespaced() ? ns : "", path(t, ref.path("name").asText()))));
            }
        } else if (ObjectMeta.deleting(o) && (ObjectMeta.finalizers(o).contains(ORPHAN) || ObjectMeta.finalizers(o).contains(FOREGROUND))) {
            keys.add(new Key(ns, path(e.resource(), ObjectMeta.name(o))));
        }
        return keys;
    }

    @Override
    List<Key> initialKeys() {
        List<Key> keys = new ArrayList<>();
        for (ResourceType t : ctx.sim().catalog().all()) {
            for (ObjectNode o : api.list(t, "")) {
                if (ObjectMeta.deleting(o) && (ObjectMeta.finalizers(o).contains(ORPHAN) || ObjectMeta.finalizers(o).contains(FOREGROUND))) {
                    keys.add(new Key(ObjectMeta.ns(o), path(t, ObjectMeta.name(o))));
                }
            }
        }
        return keys;
    }

    @Override
    void sync(Key key) {
        if (key.name().startsWith(GONE)) {
            collectDependentsOf(key.namespace(), key.name().substring(GONE.length()));
            return;
        }
        String[] p = key.name().split("/", 3);
        ResourceType t = ctx.sim().catalog().byResource(p[0], p[1]).orElseThrow();
        ObjectNode owner = api.get(t, key.namespace(), p[2]);
        if (owner == null || !ObjectMeta.deleting(owner)) {
            return;
        }
        List<String> finalizers = ObjectMeta.finalizers(owner);
        if (finalizers.contains(ORPHAN)) {
            orphan(t, owner);
        } else if (finalizers.contains(FOREGROUND)) {
            deleteInForeground(t, owner);
        }
    }

    /** attemptToOrphan: every reference first, then the finalizer (the store deletes the owner when it was the last). */
    private void orphan(ResourceType t, ObjectNode owner) {
        String uid = ObjectMeta.uid(owner);
        for (Dependent d : dependents(ObjectMeta.ns(owner), uid)) {
            ObjectNode o = d.object();
            ObjectMeta.removeOwnerRefs(o, r -> r.path("uid").asText().equals(uid));
            api.update(d.type(), o);
        }
        removeFinalizer(t, owner, ORPHAN);
    }

    private void deleteInForeground(ResourceType t, ObjectNode owner) {
        String uid = ObjectMeta.uid(owner);
        boolean blocked = false;
        for (Dependent d : dependents(ObjectMeta.ns(owner), uid)) {
            if (!ObjectMeta.deleting(d.object())) {
                api.delete(d.type(), d.object(), "Foreground");
            }
            boolean blocking = ObjectMeta.ownerRefs(d.object()).stream()
                    .anyMatch(r -> r.path("uid").asText().equals(uid) && r.path("blockOwnerDeletion").asBoolean(false));
            blocked |= blocking;
        }
        if (!blocked) {
            removeFinalizer(t, owner, FOREGROUND);
        }
        // otherwise each dependent's DELETED event brings this owner back
    }

    private void removeFinalizer(ResourceType t, ObjectNode owner, String finalizer) {
        List<String> fs = ObjectMeta.finalizers(owner);
        fs.remove(finalizer);
        ObjectMeta.setFinalizers(owner, fs);
        api.update(t, owner);
    }

    /** attemptToDeleteItem for each dependent of a vanished owner. */
    private void collectDependentsOf(String ns, String uid) {
        for (Dependent d : dependents(ns, uid)) {
            ObjectNode o = d.object();
            if (ObjectMeta.deleting(o)) {
                continue;
            }
            List<JsonNode> dangling = new ArrayList<>();
            boolean solid = false;
            for (JsonNode ref : ObjectMeta.ownerRefs(o)) {
                if (ownerExists(ref, ns)) {
                    solid = true;
                } else {
                    dangling.add(ref);
                }
            }
            if (!solid) {
                api.delete(d.type(), o, "Background");
            } else {
                ObjectMeta.removeOwnerRefs(o, dangling::contains);
                api.update(d.type(), o);
            }
        }
    }

    private boolean ownerExists(JsonNode ref, String ns) {
        Optional<ResourceType> t = ctx.sim().catalog().byKind(ref.path("apiVersion").asText(), ref.path("kind").asText());
        if (t.isEmpty()) {
            return false;
        }
        ObjectNode o = api.get(t.get(), ns, ref.path("name").asText());
        return o != null && ObjectMeta.uid(o).equals(ref.path("uid").asText());
    }

    private record Dependent(ResourceType type, ObjectNode object) {}

    /** Objects whose owner references name {@code uid}: in its namespace, or anywhere for a cluster-scoped owner. */
    private List<Dependent> dependents(String ns, String uid) {
        List<Dependent> out = new ArrayList<>();
        for (ResourceType t : ctx.sim().catalog().all()) {
            if (!ns.isEmpty() && !t.namespaced()) {
                continue;
            }
            for (ObjectNode o : api.list(t, ns)) {
                if (ObjectMeta.ownedBy(o, uid)) {
                    out.add(new Dependent(t, o));
                }
            }
        }
        return out;
    }

    private static String path(ResourceType t, String name) {
        return t.group() + "/" + t.resource() + "/" + name;
    }
}
