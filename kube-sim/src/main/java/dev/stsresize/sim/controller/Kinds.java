package dev.stsresize.sim.controller;

import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;

/** The resource types the controllers read and write, resolved once from the catalog. */
record Kinds(ResourceType pods, ResourceType claims, ResourceType volumes, ResourceType statefulSets,
        ResourceType revisions, ResourceType storageClasses, ResourceType events, ResourceType budgets, ResourceType csiDrivers) {

    static Kinds of(Catalog c) {
        return new Kinds(type(c, "", "pods"), type(c, "", "persistentvolumeclaims"), type(c, "", "persistentvolumes"),
                type(c, "apps", "statefulsets"), type(c, "apps", "controllerrevisions"),
                type(c, "storage.k8s.io", "storageclasses"), type(c, "", "events"),
                type(c, "policy", "poddisruptionbudgets"), type(c, "storage.k8s.io", "csidrivers"));
    }

    private static ResourceType type(Catalog c, String group, String resource) {
        return c.byResource(group, resource).orElseThrow();
    }
}
