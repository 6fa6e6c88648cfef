package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.registry.DeleteOptions;
import dev.stsresize.sim.registry.Registry;
import dev.stsresize.sim.registry.WriteOptions;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;
import java.util.List;

/**
 * One component's view of the API server: reads from the store (its informer cache) and writes
 * through the registry under its own field manager, so its writes carry managedFields and meet the
 * same validation, admission and optimistic concurrency as kubectl's.
 */
final class Api {
    private final Registry registry;
    private final Store store;
    private final WriteOptions by;

    Api(Registry registry, String fieldManager) {
        this.registry = registry;
        this.store = registry.store();
        this.by = WriteOptions.by(fieldManager);
    }

    ObjectNode get(ResourceType t, String ns, String name) {
        return store.get(t, t.namespaced() ? ns : "", name);
    }

    List<ObjectNode> list(ResourceType t, String ns) {
        return store.list(t, t.namespaced() ? ns : "");
    }

    ObjectNode create(ResourceType t, ObjectNode o) {
        return registry.create(t, ObjectMeta.ns(o), o, by);
    }

    /** PUT with the object's resourceVersion: a 409 if someone wrote in between. */
    ObjectNode update(ResourceType t, ObjectNode o) {
        return registry.update(t, ObjectMeta.ns(o), ObjectMeta.name(o), "", o, by);
    }

    ObjectNode updateStatus(ResourceType t, ObjectNode o) {
        return registry.update(t, ObjectMeta.ns(o), ObjectMeta.name(o), "status", o, by);
    }

    Registry.Deleted delete(ResourceType t, String ns, String name, DeleteOptions d) {
        return registry.delete(t, ns, name, d);
    }

    /** A DELETE with a UID precondition, as controllers send to avoid deleting a recreated object. */
    Registry.Deleted delete(ResourceType t, ObjectNode o, String policy) {
        return registry.delete(t, ObjectMeta.ns(o), ObjectMeta.name(o), new DeleteOptions(policy, null, ObjectMeta.uid(o), null, false));
    }

    Store store() {
        return store;
    }
}
