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
        boolean copy) {

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
                classKnown, true);
    }

    /** "true", "false", or "unknown" when the class could not be read. */
    public String expansion() {
        return classKnown ? Boolean.toString(expandable) : "unknown";
    }

    public boolean bound() {
        return "Bound".equals(phase);
    }
}
