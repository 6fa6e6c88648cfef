package dev.stsresize.plan;

/**
 * One live PersistentVolumeClaim of a declared template, as the renderers show it.
 *
 * @param request its {@code spec.resources.requests.storage} (null if it has none)
 * @param capacity its {@code status.capacity.storage} (null while unknown)
 * @param phase its {@code status.phase} (null while unknown)
 * @param storageClass its own {@code spec.storageClassName} (null when it has none)
 * @param expandable its class exists and sets {@code allowVolumeExpansion: true}; when the class could
 *     not be read ({@code classKnown} false) it is assumed, for the decision only: the claim's dry run decides
 * @param target the declared template size
 * @param scaledAway its ordinal is outside the StatefulSet's current replicas
 * @param grow the converge would patch its request to {@code target}
 * @param classKnown its class could be read (false when StorageClasses are forbidden to the user)
 * @param copy the converge would copy it to a bigger volume of the same name ({@link CopyOptIn}) instead of patching
 *     it; {@code grow} is then true as well: it reaches {@code target} either way
 * @param resizeFailed its request is at or above {@code target} while its capacity is below it, and its last resize
 *     failed (the resizer's condition, allocation status or Events say so): the volume does not have the declared
 *     size and will not get it by itself, so it is never "at the target"
 */
public record ClaimState(
        String name,
        String template,
        int ordinal,
        Quantity request,
        Quantity capacity,
        String phase,
        String storageClass,
        boolean expandable,
        Quantity target,
        boolean scaledAway,
        boolean grow,
        boolean classKnown,
        boolean copy,
        boolean resizeFailed) {

    public ClaimState(String name, String template, int ordinal, Quantity request, Quantity capacity, String phase,
            String storageClass, boolean expandable, Quantity target, boolean scaledAway, boolean grow, boolean classKnown,
            boolean copy) {
        this(name, template, ordinal, request, capacity, phase, storageClass, expandable, target, scaledAway, grow, classKnown, copy,
                false);
    }

    public ClaimState(String name, String template, int ordinal, Quantity request, Quantity capacity, String phase,
            String storageClass, boolean expandable, Quantity target, boolean scaledAway, boolean grow) {
        this(name, template, ordinal, request, capacity, phase, storageClass, expandable, target, scaledAway, grow, true, false);
    }

    public ClaimState(String name, String template, int ordinal, Quantity request, Quantity capacity, String phase,
            String storageClass, boolean expandable, Quantity target, boolean scaledAway, boolean grow, boolean classKnown) {
        this(name, template, ordinal, request, capacity, phase, storageClass, expandable, target, scaledAway, grow, classKnown, false);
    }

    /** The same claim, to be copied rather than patched. */
    public ClaimState toCopy() {
        return new ClaimState(name, template, ordinal, request, capacity, phase, storageClass, expandable, target, scaledAway, true,
                classKnown, true, resizeFailed);
    }

    /** The same claim, its last resize said to have failed. */
    public ClaimState withResizeFailed() {
        return new ClaimState(name, template, ordinal, request, capacity, phase, storageClass, expandable, target, scaledAway, grow,
                classKnown, copy, true);
    }

    /**
     * Its request needs no patch (at or above the target) but its volume is below the target: a resize under way (or
     * failed). It does not have the declared room yet, so a run waits for its capacity before it re-creates anything.
     */
    public boolean lagging() {
        return !grow && request != null && capacity != null && !request.isLessThan(target) && capacity.isLessThan(target);
    }

    /** "true", "false", or "unknown" when the class could not be read. */
    public String expansion() {
        return classKnown ? Boolean.toString(expandable) : "unknown";
    }

    public boolean bound() {
        return "Bound".equals(phase);
    }
}
