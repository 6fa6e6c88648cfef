package dev.stsresize.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The copy migration's part of the decision (docs/design.md, "The copy migration"): whether a StatefulSet refused only
 * for want of expansion can be copied to bigger volumes instead, and, when the operator opted in, what the copy cannot
 * take (refused) or cannot have yet (blocked: the new volumes' class cannot give one).
 */
final class CopyRoute {
    /** What a refusal for want of expansion says when a copy could take the StatefulSet, once. */
    static final String POSSIBLE = "a copy to bigger volumes is possible: --copy (one pod at a time, each down while its data is copied)";
    /** The provisioner that makes no volume: each claim copied into its class needs an Available PersistentVolume made by hand. */
    private static final String NO_PROVISIONER = Resizers.NO_PROVISIONER;
    /** The label the kubelet and local volume provisioners pin a node-local PV to. */
    private static final String HOSTNAME = "kubernetes.io/hostname";

    private CopyRoute() {}

    /**
     * The copy's answer to a refusal for want of expansion: the findings that stand (empty: a copy plan) and the fact
     * whether a copy could take the StatefulSet without the opt-in ({@link Refusal#copyPossible}).
     */
    record Answer(List<Finding> findings, boolean copyPossible) {
        /** Findings the copy leaves as they are, or writes its own into: no copy offered. */
        static Answer standing(List<Finding> findings) {
            return new Answer(findings, false);
        }

        /** A copy could take it: the fact, and from it the one sentence that says so, after every cause. */
        static Answer possible(List<Finding> findings) {
            return new Answer(withSentence(findings, POSSIBLE), true);
        }
    }

    /** True when there are findings and each is for want of expansion: the only refusals a copy answers. */
    static boolean onlyForWantOfExpansion(List<Finding> findings) {
        return !findings.isEmpty()
                && findings.stream().allMatch(f -> f.reason() == Reason.NOT_EXPANDABLE || f.reason() == Reason.NO_RESIZER);
    }

    /** The claims to grow whose class would grow them in place: it allows expansion and its provisioner has a resizer. */
    static List<ClaimState> growableInPlace(List<ClaimState> toGrow, Set<String> classesWithoutResizer) {
        return toGrow.stream().filter(c -> c.expandable() && !classesWithoutResizer.contains(c.storageClass())).toList();
    }

    /** The sentence a mixed StatefulSet's refusal ends with when the operator asked for the copy. */
    static String mixed(List<ClaimState> inPlace) {
        return "--copy does not apply: " + claims(inPlace.stream().map(ClaimState::name).toList()) + " can grow in place, and a"
                + " StatefulSet is either copied whole or grown in place; make every claim to grow able to grow in place, or none";
    }

    /** The findings with {@code sentence} added to the last one for want of expansion: said once, after every cause. */
    static List<Finding> withSentence(List<Finding> findings, String sentence) {
        List<Finding> out = new ArrayList<>(findings);
        for (int i = out.size() - 1; i >= 0; i--) {
            Finding f = out.get(i);
            if (f.reason() == Reason.NOT_EXPANDABLE || f.reason() == Reason.NO_RESIZER) {
                out.set(i, new Finding(f.reason(), f.message() + "; " + sentence));
                break;
            }
        }
        return out;
    }

    /** Why the copy cannot take the claims: shared writers ({@code ReadWriteMany}) or a raw block device. Permanent. */
    static List<Finding> unfit(List<ClaimState> toCopy, Map<String, ObjectNode> raw) {
        List<String> shared = new ArrayList<>();
        List<String> block = new ArrayList<>();
        for (ClaimState c : toCopy) {
            ObjectNode claim = raw.get(c.name());
            if (claim == null) {
                continue;
            }
            if (claimModes(claim).contains("ReadWriteMany")) {
                shared.add(c.name());
            }
            if ("Block".equals(Metadata.text(claim, "spec", "volumeMode"))) {
                block.add(c.name());
            }
        }
        List<Finding> out = new ArrayList<>();
        if (!shared.isEmpty()) {
            out.add(new Finding(Reason.COPY_READ_WRITE_MANY, claims(shared) + " cannot grow in place and cannot be copied: "
                    + (shared.size() == 1 ? "it is" : "they are") + " ReadWriteMany, so other pods may write while one pod is down"
                    + " for its copy, and what they wrote after the copy started would be lost"));
        }
        if (!block.isEmpty()) {
            out.add(new Finding(Reason.COPY_BLOCK_VOLUME, claims(block) + " cannot grow in place and cannot be copied: "
                    + (block.size() == 1 ? "it has" : "they have") + " volumeMode: Block, and the copy pod copies files, not devices"));
        }
        return out;
    }

    /**
     * Where the new volumes cannot come from (transient: the cluster can change): no class to copy into, a class that
     * does not exist, or a no-provisioner class without an Available PersistentVolume that fits each claim, naming what
     * to create. Nothing is checked where the StorageClasses could not be read: the copy's own requests answer then.
     */
    static List<Finding> noVolume(List<ClaimState> toCopy, Map<String, ObjectNode> raw, StorageFacts storage, CopyOptIn copy) {
        List<Finding> out = new ArrayList<>();
        Map<String, List<ClaimState>> byClass = new LinkedHashMap<>();
        List<String> classless = new ArrayList<>();
        for (ClaimState c : toCopy) {
            String target = copy.classFor(c.storageClass());
            if (target == null) {
                classless.add(c.name());
            } else {
                byClass.computeIfAbsent(target, k -> new ArrayList<>()).add(c);
            }
        }
        if (!classless.isEmpty()) {
            out.add(new Finding(Reason.COPY_NO_VOLUME, claims(classless) + " " + (classless.size() == 1 ? "has" : "have")
                    + " no StorageClass for the new volumes to take; name one with --copy-class"));
        }
        if (!storage.classesKnown()) {
            return out;
        }
        byClass.forEach((className, ofClass) -> {
            ObjectNode sc = Decider.classNamed(className, storage.classes());
            if (sc == null) {
                out.add(new Finding(Reason.COPY_NO_VOLUME, "the new volumes of " + claims(names(ofClass)) + " would be of StorageClass \""
                        + className + "\", which does not exist; create it, or name another with --copy-class"));
            } else if (NO_PROVISIONER.equals(Metadata.text(sc, "provisioner"))) {
                missingVolumes(className, ofClass, raw, storage.volumes()).ifPresent(out::add);
            }
        });
        return out;
    }

    /** The claims copied into a no-provisioner class that no Available PersistentVolume fits, with what to create for each. */
    private static Optional<Finding> missingVolumes(String className, List<ClaimState> ofClass, Map<String, ObjectNode> raw,
            PersistentVolumes volumes) {
        Map<String, ObjectNode> byName = new LinkedHashMap<>();
        volumes.items().forEach(pv -> byName.put(Metadata.textOrEmpty(pv, "metadata", "name"), pv));
        List<ObjectNode> free = new ArrayList<>(volumes.items().stream().filter(pv -> available(pv, className))
                .sorted(Comparator.comparing(CopyRoute::capacity, Comparator.nullsFirst(Comparator.naturalOrder()))).toList());
        // the largest claims first, each taking the smallest volume that fits it: a small claim never takes the one
        // volume a larger claim needed
        List<ClaimState> largestFirst = ofClass.stream().sorted(Comparator.comparing(ClaimState::target).reversed()).toList();
        List<String> toCreate = new ArrayList<>();
        for (ClaimState c : largestFirst) {
            ObjectNode claim = raw.getOrDefault(c.name(), JsonNodeFactory.instance.objectNode());
            Set<String> modes = claimModes(claim);
            ObjectNode oldVolume = byName.get(Metadata.textOrEmpty(claim, "spec", "volumeName"));
            Set<String> nodes = oldVolume == null ? Set.of() : nodes(oldVolume);
            ObjectNode fit = volumes.listed() ? free.stream().filter(pv -> fits(pv, c.target(), modes, nodes)).findFirst().orElse(null) : null;
            if (fit != null) {
                free.remove(fit);
            } else {
                toCreate.add("for claim \"" + c.name() + "\": an Available PersistentVolume of class \"" + className + "\", at least "
                        + c.target() + ", "
                        + String.join(", ", modes) + (nodes.isEmpty() ? volumes.listed() ? "" : ", on the old volume's node"
                                : ", with node affinity to " + (nodes.size() == 1 ? "node \"" : "one of the nodes \"")
                                        + String.join("\", \"", nodes) + "\" (the old volume's: the copy pod mounts both)"));
            }
        }
        if (toCreate.isEmpty()) {
            return Optional.empty();
        }
        String why = volumes.unreadable().map(m -> "the PersistentVolumes could not be read (" + m + "), so whether an Available"
                + " one fits is unknown; make sure each exists: ").orElse("no Available PersistentVolume fits; create ");
        return Optional.of(new Finding(Reason.COPY_NO_VOLUME, "the new volumes of " + claims(names(ofClass)) + " would be of StorageClass \""
                + className + "\" (" + NO_PROVISIONER + ": it makes no volume, each must exist beforehand) and " + why
                + String.join("; ", toCreate)));
    }

    /** Available (not bound, nor reserved by a claimRef for another claim) and of the class. */
    private static boolean available(ObjectNode pv, String className) {
        return "Available".equals(Metadata.text(pv, "status", "phase")) && className.equals(Metadata.text(pv, "spec", "storageClassName"))
                && !pv.path("spec").path("claimRef").isObject();
    }

    /**
     * What the PV controller checks before binding a claim to a volume it did not make (component-helpers'
     * {@code storage/volume/pv_helpers.go} FindMatchingVolume): enough capacity, every access mode of the claim, the
     * file-system mode; and, here, a node the old volume's is on, since the copy pod mounts both volumes.
     */
    private static boolean fits(ObjectNode pv, Quantity target, Set<String> modes, Set<String> oldNodes) {
        Quantity cap = capacity(pv);
        if (cap == null || cap.isLessThan(target)) {
            return false;
        }
        if (!accessModes(pv).containsAll(modes)) {
            return false;
        }
        String mode = Metadata.text(pv, "spec", "volumeMode");
        if (mode != null && !"Filesystem".equals(mode)) {
            return false;
        }
        Set<String> nodes = nodes(pv);
        return oldNodes.isEmpty() || nodes.isEmpty() || nodes.stream().anyMatch(oldNodes::contains);
    }

    private static Quantity capacity(ObjectNode pv) {
        return Trees.quantity(pv, "spec", "capacity", "storage");
    }

    /** A volume's (or claim's) access modes as written. */
    private static Set<String> accessModes(JsonNode object) {
        Set<String> out = new LinkedHashSet<>();
        object.path("spec").path("accessModes").forEach(m -> out.add(m.asText()));
        return out;
    }

    /** A claim's access modes; one naming none is taken as ReadWriteOnce, the mode a volume made for it is asked for. */
    private static Set<String> claimModes(JsonNode claim) {
        Set<String> out = accessModes(claim);
        return out.isEmpty() ? Set.of("ReadWriteOnce") : out;
    }

    /** The nodes a volume's required node affinity pins it to by hostname; empty when it names none (or is unknown). */
    private static Set<String> nodes(JsonNode pv) {
        Set<String> out = new LinkedHashSet<>();
        for (JsonNode term : pv.path("spec").path("nodeAffinity").path("required").path("nodeSelectorTerms")) {
            for (JsonNode e : term.path("matchExpressions")) {
                if (HOSTNAME.equals(e.path("key").asText()) && "In".equals(e.path("operator").asText())) {
                    e.path("values").forEach(v -> out.add(v.asText()));
                }
            }
        }
        return out;
    }

    private static List<String> names(List<ClaimState> claims) {
        return claims.stream().map(ClaimState::name).toList();
    }

    static String claims(List<String> names) {
        return (names.size() == 1 ? "claim \"" : "claims \"") + String.join("\", \"", names) + "\"";
    }
}
