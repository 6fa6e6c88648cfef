package dev.stsresize.sim.controller;

/** What a controller reconciles: one object by namespace and name ("" for cluster-scoped). */
record Key(String namespace, String name) {
    @Override
    public String toString() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
