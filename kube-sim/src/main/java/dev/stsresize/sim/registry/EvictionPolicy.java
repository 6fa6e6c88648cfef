package dev.stsresize.sim.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Decides whether a pod may be evicted (the hook where PodDisruptionBudget logic goes in part 2,
 * following pkg/registry/core/pod/storage/eviction.go). Throw an {@link dev.stsresize.sim.ApiError}
 * to refuse — the real server answers 429 "Cannot evict pod as it would violate the pod's disruption
 * budget." with a DisruptionBudget cause.
 */
@FunctionalInterface
public interface EvictionPolicy {
    EvictionPolicy ALWAYS = (pod, eviction) -> { };

    void check(ObjectNode pod, ObjectNode eviction);
}
