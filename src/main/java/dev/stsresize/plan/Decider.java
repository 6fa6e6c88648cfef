package dev.stsresize.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Objects;
import java.util.Set;

/**
 * decide(): declared StatefulSets and the live state in, one {@link Decision} per declared StatefulSet
 * out. Pure: no I/O, no clock, no client; the same inputs always give the same decisions.
 *
 * <p>It implements the seed's Decide with the corrections of docs/design.md step 2: every refusal is
 * collected (not only the first), claims are matched by exact name, scaled-away ordinals are grown
 * too, nothing is ever patched downward, and templates that already declare the target while claims
 * lag are drift to converge ({@code grow-claims}).
 */
public final class Decider {
    /** Spec fields the API server lets an update change (v1.32); everything else is immutable. */
    static final Set<String> MUTABLE_SPEC_FIELDS = Set.of(
            "replicas", "ordinals", "template", "updateStrategy", "persistentVolumeClaimRetentionPolicy",
            "minReadySeconds", "volumeClaimTemplates");
    /** Defaults the API server fills into an immutable spec field the manifest may omit. */
    static final Map<String, String> IMMUTABLE_DEFAULTS = Map.of(
            "podManagementPolicy", "\"OrderedReady\"", "revisionHistoryLimit", "10", "serviceName", "\"\"");
    /** The defaults as trees, normalised, read once (every StatefulSet is compared with them); a default that normalises to nothing maps to null. */
    private static final Map<String, Optional<JsonNode>> IMMUTABLE_DEFAULT_TREES = IMMUTABLE_DEFAULTS.entrySet().stream()
            .collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getKey,
                    e -> Optional.ofNullable(Trees.normalize(Trees.parse(e.getValue())))));

    private Decider() {}

    /** One decision per declared StatefulSet, sorted by namespace then name, without the copy. */
    public static List<Decision> decide(List<ObjectNode> declared, LiveState live) {
        return decide(declared, live, CopyOptIn.NONE);
    }

    /** One decision per declared StatefulSet, sorted by namespace then name; {@code copy} is the operator's opt-in to the copy. */
    public static List<Decision> decide(List<ObjectNode> declared, LiveState live, CopyOptIn copy) {
        Map<String, ObjectNode> liveByKey = new HashMap<>();
        for (ObjectNode sts : live.statefulSets()) {
            liveByKey.put(key(sts), sts);
        }
        Map<String, List<ObjectNode>> claimsByNamespace = new HashMap<>();
        for (ObjectNode claim : live.claims()) {
            claimsByNamespace.computeIfAbsent(namespaceOf(claim), k -> new ArrayList<>()).add(claim);
        }
        List<Decision> out = new ArrayList<>();
        for (ObjectNode d : declared) {
            out.add(decideOne(d, liveByKey.get(key(d)), claimsByNamespace.getOrDefault(namespaceOf(d), List.of()), live.storage(), copy));
        }
        out.sort(Comparator.comparing(Decision::namespace).thenComparing(Decision::name));
        return out;
    }

    /**
     * The decision for one declared StatefulSet.
     *
     * @param live the live StatefulSet of the same namespace and name, or null when absent
     * @param claims the live claims of its namespace (others are ignored)
     * @param classes the cluster's StorageClasses
     */
    public static Decision decideOne(ObjectNode declared, ObjectNode live, List<ObjectNode> claims, List<ObjectNode> classes) {
        return decideOne(declared, live, claims, classes, true);
    }

    /**
     * @param classesKnown false when the StorageClasses could not be read: a claim with a class is then
     *     decided as if it may expand (its dry-run patch decides) and shown with its expansion unknown
     */
    public static Decision decideOne(ObjectNode declared, ObjectNode live, List<ObjectNode> claims, List<ObjectNode> classes,
            boolean classesKnown) {
        return decideOne(declared, live, claims, new StorageFacts(classes, classesKnown, Resizers.unknown()));
    }

    /**
     * @param storage the StorageClasses (a claim to grow needs one allowing expansion) and the CSIDrivers
     *     (its provisioner needs a resizer)
     */
    public static Decision decideOne(ObjectNode declared, ObjectNode live, List<ObjectNode> claims, StorageFacts storage) {
        return decideOne(declared, live, claims, storage, CopyOptIn.NONE);
    }

    /**
     * @param copy the operator's opt-in to the copy migration: with it, a StatefulSet refused only for want of expansion
     *     is a {@link Verdict#COPY} plan, unless the copy cannot take its claims (refused) or have their new volumes
     *     (blocked); without it, such a refusal says when the copy is possible
     */
    public static Decision decideOne(ObjectNode declared, ObjectNode live, List<ObjectNode> claims, StorageFacts storage,
            CopyOptIn copy) {
        List<ObjectNode> classes = storage.classes();
        boolean classesKnown = storage.classesKnown();
        String namespace = namespaceOf(declared);
        String name = Metadata.text(declared, "metadata", "name");
        Map<String, JsonNode> declaredTemplates = templatesByName(declared);
        declaredTemplates.forEach((t, node) -> {
            if (storageOf(node) == null) {
                // The manifest reader refuses such input with the file and line; reaching here is a caller's bug.
                throw new IllegalArgumentException("template \"" + t + "\" of " + namespace + "/" + name
                        + " has no parsable spec.resources.requests.storage");
            }
        });
        if (live == null) {
            List<TemplateSize> sizes = new ArrayList<>();
            declaredTemplates.forEach((t, node) -> sizes.add(new TemplateSize(t, null, storageOf(node))));
            return new Plan(namespace, name, Verdict.ABSENT, sizes, List.of(), List.of(),
                    "not in the cluster: a normal apply creates it, nothing to converge");
        }
        Map<String, JsonNode> liveTemplates = templatesByName(live);
        List<Finding> findings = new ArrayList<>();
        List<TemplateSize> sizes = new ArrayList<>();

        templateChanges(declaredTemplates, liveTemplates, findings);
        otherImmutableChanges(declared, live, findings);
        ownership(live, findings);
        declaredTemplates.forEach((t, node) -> {
            Quantity declaredSize = storageOf(node);
            JsonNode liveNode = liveTemplates.get(t);
            Quantity liveSize = liveNode == null ? null : storageOf(liveNode);
            sizes.add(new TemplateSize(t, liveSize, declaredSize));
            if (liveSize != null && declaredSize.isLessThan(liveSize)) {
                findings.add(new Finding(Reason.SHRINK, "template \"" + t + "\" would shrink from " + liveSize
                        + " to " + declaredSize + "; a volume cannot shrink, declare " + liveSize + " or more"));
            }
        });

        List<ClaimState> claimStates = claimsOf(name, live, sizes, claims, classes, classesKnown);
        notExpandable(claimStates, classes, findings);
        for (ClaimState c : claimStates) {
            if (!c.grow()) {
                continue;
            }
            if (!c.bound()) {
                findings.add(new Finding(Reason.CLAIM_UNBOUND, "claim \"" + c.name() + "\" must grow but is "
                        + (c.phase() == null ? "not Bound" : c.phase() + ", not Bound")
                        + "; the API server refuses to resize it until it binds"));
            }
        }

        List<String> resizerWarnings = new ArrayList<>();
        Set<String> withoutResizer = classesKnown
                ? resizers(claimStates, classes, storage.resizers(), findings, resizerWarnings) : Set.of();

        boolean templateGrows = sizes.stream().anyMatch(TemplateSize::changes);
        List<Finding> standing = findings;
        boolean copyPossible = false;
        if (CopyRoute.onlyForWantOfExpansion(findings)) {
            Optional<CopyRoute.Answer> answer = copyRoute(claimStates, withoutResizer, claims, storage, copy, findings);
            if (answer.isPresent() && answer.get().findings().isEmpty()) {
                List<ClaimState> copied = claimStates.stream().map(c -> c.grow() ? c.toCopy() : c).toList();
                List<String> warnings = new ArrayList<>(Warnings.forRecreate(declared, live));
                warnings.addAll(resizerWarnings);
                return new Plan(namespace, name, Verdict.COPY, sizes, copied, warnings, copyDetail(sizes, copied, copy));
            }
            standing = answer.map(CopyRoute.Answer::findings).orElse(findings);
            copyPossible = answer.map(CopyRoute.Answer::copyPossible).orElse(false);
        }
        List<String> warnings = new ArrayList<>(templateGrows ? Warnings.forRecreate(declared, live) : List.of());
        warnings.addAll(resizerWarnings);
        if (!standing.isEmpty()) {
            return new Refusal(namespace, name, standing, sizes, claimStates, warnings, copyPossible);
        }
        long growing = claimStates.stream().filter(ClaimState::grow).count();
        if (templateGrows) {
            return new Plan(namespace, name, Verdict.GROW, sizes, claimStates, warnings, growDetail(sizes, claimStates, growing));
        }
        if (growing > 0) {
            return new Plan(namespace, name, Verdict.GROW_CLAIMS, sizes, claimStates, warnings,
                    "the templates already declare the sizes but " + (growing == 1 ? "1 claim lags" : growing + " claims lag") + " behind: grow "
                            + (growing == 1 ? "it" : "them") + ", no recreate needed");
        }
        return new Plan(namespace, name, Verdict.UP_TO_DATE, sizes, claimStates, warnings, upToDateDetail(claimStates));
    }

    /**
     * The copy's answer to a refusal for want of expansion. Without the opt-in: the findings, with the sentence that says
     * the copy is possible where it is. With it: empty findings where the copy takes the StatefulSet, else why not. A
     * StatefulSet with claims that could grow in place is not copied: it is copied whole or grown in place, and the
     * copy's downtime is not spent on a claim that needs none.
     *
     * @return the findings that stand (empty: a copy plan) and whether a copy is possible, or empty where the refusal
     *     stands unchanged
     */
    private static Optional<CopyRoute.Answer> copyRoute(List<ClaimState> claimStates, Set<String> withoutResizer, List<ObjectNode> claims,
            StorageFacts storage, CopyOptIn copy, List<Finding> findings) {
        List<ClaimState> toGrow = claimStates.stream().filter(ClaimState::grow).toList();
        List<ClaimState> inPlace = CopyRoute.growableInPlace(toGrow, withoutResizer);
        if (!inPlace.isEmpty()) {
            return copy.chosen() ? Optional.of(CopyRoute.Answer.standing(CopyRoute.withSentence(findings, CopyRoute.mixed(inPlace))))
                    : Optional.empty();
        }
        Map<String, ObjectNode> raw = new HashMap<>();
        claims.forEach(c -> raw.put(Metadata.textOrEmpty(c, "metadata", "name"), c));
        List<Finding> unfit = CopyRoute.unfit(toGrow, raw);
        if (!copy.chosen()) {
            return unfit.isEmpty() ? Optional.of(CopyRoute.Answer.possible(findings)) : Optional.empty();
        }
        return Optional.of(CopyRoute.Answer.standing(unfit.isEmpty() ? CopyRoute.noVolume(toGrow, raw, storage, copy) : unfit));
    }

    private static String copyDetail(List<TemplateSize> sizes, List<ClaimState> claims, CopyOptIn copy) {
        List<String> parts = new ArrayList<>();
        for (TemplateSize t : sizes) {
            if (t.changes()) {
                parts.add("template \"" + t.name() + "\" " + t.live() + " -> " + t.declared());
            }
        }
        List<ClaimState> copied = claims.stream().filter(ClaimState::copy).toList();
        Set<String> targets = new java.util.TreeSet<>();
        copied.forEach(c -> targets.add(String.valueOf(copy.classFor(c.storageClass()))));
        parts.add(plural(copied.size(), "claim") + " cannot grow in place: copy each to a bigger volume of the same name, class \""
                + String.join("\", \"", targets) + "\", one pod at a time (each down while its data is copied)");
        long ahead = claims.stream().filter(c -> !c.grow()).count();
        if (ahead > 0) {
            parts.add(plural(ahead, "claim") + " already at or above the target, left alone");
        }
        parts.add("the StatefulSet is orphan-deleted and re-applied around each pod's copy");
        return String.join("; ", parts);
    }

    /**
     * Nothing to write; but a claim whose request is met while its capacity is not is still being grown by the resizer,
     * and saying "already match" then would tell the operator a volume has the room it has not.
     */
    private static String upToDateDetail(List<ClaimState> claims) {
        List<String> resizing = new ArrayList<>();
        for (ClaimState c : claims) {
            if (c.request() != null && c.capacity() != null && c.capacity().isLessThan(c.request())) {
                resizing.add("claim \"" + c.name() + "\" capacity " + c.capacity() + " of " + c.request());
            }
        }
        if (resizing.isEmpty()) {
            return "the live templates and claims already match the manifest";
        }
        return "resize in progress: " + String.join(", ", resizing) + "; the requests match the manifest and the volumes are"
                + " still growing (kubectl describe pvc shows the resizer's conditions)";
    }

    private static String growDetail(List<TemplateSize> sizes, List<ClaimState> claims, long growing) {
        List<String> parts = new ArrayList<>();
        for (TemplateSize t : sizes) {
            if (t.changes()) {
                parts.add("template \"" + t.name() + "\" " + t.live() + " -> " + t.declared());
            }
        }
        parts.add(plural(growing, "claim") + " to grow");
        long lagging = claims.stream().filter(ClaimState::lagging).count();
        long ahead = claims.stream().filter(c -> !c.grow() && !c.lagging()).count();
        if (ahead > 0) {
            parts.add(plural(ahead, "claim") + " already at or above the target, left alone");
        }
        if (lagging > 0) {
            // requested already, not grown yet: not "at the target" until the volume is
            parts.add(plural(lagging, "claim") + " already requesting the target with " + (lagging == 1 ? "its volume" : "their volumes")
                    + " still below it, waited for before the re-create");
        }
        parts.add("then orphan-delete and re-apply the StatefulSet");
        return String.join("; ", parts);
    }

    static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static void templateChanges(Map<String, JsonNode> declared, Map<String, JsonNode> live, List<Finding> findings) {
        for (String t : declared.keySet()) {
            if (!live.containsKey(t)) {
                findings.add(new Finding(Reason.TEMPLATE_CHANGED, "template \"" + t + "\" is added (the live StatefulSet has "
                        + names(live) + "); adopted pods would never match it, so it needs a new StatefulSet, not a resize"));
            }
        }
        for (String t : live.keySet()) {
            if (!declared.containsKey(t)) {
                findings.add(new Finding(Reason.TEMPLATE_CHANGED, "template \"" + t + "\" is removed (the manifest declares "
                        + names(declared) + "); keep it in the manifest"));
            }
        }
        for (Map.Entry<String, JsonNode> e : declared.entrySet()) {
            JsonNode l = live.get(e.getKey());
            if (l == null) {
                continue;
            }
            List<String> fields = Trees.differingFields(Trees.comparableTemplate(e.getValue()), Trees.comparableTemplate(l));
            if (!fields.isEmpty()) {
                findings.add(new Finding(Reason.TEMPLATE_CHANGED, "template \"" + e.getKey() + "\" changes "
                        + String.join(", ", fields) + "; only spec.resources.requests.storage may change"));
            }
        }
    }

    private static String names(Map<String, JsonNode> templates) {
        return templates.isEmpty() ? "none" : "\"" + String.join("\", \"", templates.keySet()) + "\"";
    }

    private static void otherImmutableChanges(ObjectNode declared, ObjectNode live, List<Finding> findings) {
        Map<String, JsonNode> d = immutableSpec(declared);
        Map<String, JsonNode> l = immutableSpec(live);
        Set<String> keys = new java.util.TreeSet<>(d.keySet());
        keys.addAll(l.keySet());
        List<String> changed = new ArrayList<>();
        for (String k : keys) {
            if (!Objects.equals(d.get(k), l.get(k))) {
                changed.add("spec." + k + " (live " + shown(l.get(k)) + ", declared " + shown(d.get(k)) + ")");
            }
        }
        if (!changed.isEmpty()) {
            findings.add(new Finding(Reason.OTHER_IMMUTABLE, "the StatefulSet changes " + String.join(", ", changed)
                    + ", which the API server never lets change and a re-created StatefulSet would not adopt the pods under;"
                    + " declare the live value"));
        }
    }

    private static String shown(JsonNode n) {
        return n == null ? "unset" : n.toString();
    }

    /** The spec fields outside the mutable set, defaults applied, normalised. */
    static Map<String, JsonNode> immutableSpec(ObjectNode sts) {
        Map<String, JsonNode> out = new HashMap<>();
        JsonNode spec = sts.path("spec");
        spec.fieldNames().forEachRemaining(f -> {
            if (!MUTABLE_SPEC_FIELDS.contains(f)) {
                JsonNode v = Trees.normalize(spec.get(f));
                if (v != null) {
                    out.put(f, v);
                }
            }
        });
        IMMUTABLE_DEFAULT_TREES.forEach((field, normalized) -> {
            JsonNode dflt = normalized.orElse(null);
            if (dflt == null || dflt.equals(out.get(field))) {
                out.remove(field);
            }
        });
        return out;
    }

    private static void ownership(ObjectNode live, List<Finding> findings) {
        for (JsonNode ref : live.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                findings.add(new Finding(Reason.OWNED, "the live StatefulSet is controlled by " + Metadata.text(ref, "kind") + " \""
                        + Metadata.text(ref, "name") + "\", which would recreate it from its own spec while it is absent;"
                        + " change the size through that " + Metadata.text(ref, "kind") + " instead"));
            }
        }
    }

    private static List<ClaimState> claimsOf(String sts, ObjectNode live, List<TemplateSize> sizes, List<ObjectNode> claims,
            List<ObjectNode> classes, boolean classesKnown) {
        int replicas = Trees.integer(live, 1, "spec", "replicas");
        int start = Trees.integer(live, 0, "spec", "ordinals", "start");
        List<ClaimState> out = new ArrayList<>();
        for (TemplateSize t : sizes) {
            List<ClaimState> ofTemplate = new ArrayList<>();
            for (ObjectNode c : claims) {
                String claimName = Metadata.text(c, "metadata", "name");
                var ordinal = ClaimNames.ordinalOf(claimName, t.name(), sts);
                if (ordinal.isEmpty()) {
                    continue;
                }
                int o = ordinal.getAsInt();
                Quantity request = Trees.quantity(c, "spec", "resources", "requests", "storage");
                String className = Metadata.text(c, "spec", "storageClassName");
                if (className != null && className.isEmpty()) {
                    className = null;
                }
                // Grow-only: a claim at or above the target is left alone, never patched downward.
                boolean grow = request == null || request.isLessThan(t.declared());
                ofTemplate.add(new ClaimState(claimName, t.name(), o, request,
                        Trees.quantity(c, "status", "capacity", "storage"), Metadata.text(c, "status", "phase"),
                        className, classesKnown ? expandable(className, classes) : className != null, t.declared(),
                        o < start || o >= start + replicas, grow, classesKnown || className == null));
            }
            ofTemplate.sort(Comparator.comparingInt(ClaimState::ordinal));
            out.addAll(ofTemplate);
        }
        return out;
    }

    private static boolean expandable(String className, List<ObjectNode> classes) {
        ObjectNode sc = classNamed(className, classes);
        return sc != null && sc.path("allowVolumeExpansion").asBoolean(false);
    }

    static ObjectNode classNamed(String className, List<ObjectNode> classes) {
        if (className == null) {
            return null;
        }
        for (ObjectNode sc : classes) {
            if (className.equals(Metadata.text(sc, "metadata", "name"))) {
                return sc;
            }
        }
        return null;
    }

    /**
     * One finding (or warning) per StorageClass of the claims to grow whose provisioner has no resizer
     * (or could not be checked), naming those claims. Only classes that exist and allow expansion are
     * checked: the others are already not-expandable.
     */
    private static Set<String> resizers(List<ClaimState> claims, List<ObjectNode> classes, Resizers resizers, List<Finding> findings,
            List<String> warnings) {
        Set<String> absent = new java.util.TreeSet<>();
        Map<String, List<String>> growingByClass = new java.util.TreeMap<>();
        for (ClaimState c : claims) {
            // a class that refuses expansion is already not-expandable: its resizer matters once it allows it
            if (c.grow() && c.expandable() && c.storageClass() != null) {
                growingByClass.computeIfAbsent(c.storageClass(), k -> new ArrayList<>()).add(c.name());
            }
        }
        growingByClass.forEach((className, names) -> {
            ObjectNode sc = classNamed(className, classes);
            if (sc == null) {
                return;
            }
            Resizers.Answer answer = resizers.check(className, Metadata.text(sc, "provisioner"));
            String subject = (names.size() == 1 ? "claim \"" : "claims \"") + String.join("\", \"", names) + "\" must grow: ";
            if (answer instanceof Resizers.Answer.Absent a) {
                absent.add(className);
                findings.add(new Finding(Reason.NO_RESIZER, subject + a.why()));
            } else if (answer instanceof Resizers.Answer.Unchecked u) {
                warnings.add(subject + u.warning());
            }
        });
        return absent;
    }

    /**
     * One sentence per class and target for the claims to grow that cannot: the claims of one StatefulSet share their
     * class, so a sentence per claim would say the same thing once per replica.
     */
    private static void notExpandable(List<ClaimState> claimStates, List<ObjectNode> classes, List<Finding> findings) {
        Map<String, List<String>> claimsByCause = new LinkedHashMap<>();
        for (ClaimState c : claimStates) {
            if (c.grow() && !c.expandable()) {
                claimsByCause.computeIfAbsent(c.target() + "\u0000" + c.storageClass(), k -> new ArrayList<>()).add(c.name());
            }
        }
        for (ClaimState c : claimStates) {
            List<String> names = c.grow() && !c.expandable() ? claimsByCause.remove(c.target() + "\u0000" + c.storageClass()) : null;
            if (names != null) {
                findings.add(new Finding(Reason.NOT_EXPANDABLE, notExpandable(names, c, classes)));
            }
        }
    }

    private static String notExpandable(List<String> names, ClaimState c, List<ObjectNode> classes) {
        boolean one = names.size() == 1;
        String its = one ? "its" : "their";
        String why;
        if (c.storageClass() == null) {
            why = (one ? "it has" : "they have") + " no StorageClass";
        } else if (classNamed(c.storageClass(), classes) == null) {
            why = its + " StorageClass \"" + c.storageClass() + "\" does not exist";
        } else {
            why = its + " StorageClass \"" + c.storageClass() + "\" does not set allowVolumeExpansion: true";
        }
        return (one ? "claim \"" : "claims \"") + String.join("\", \"", names) + "\" must grow to " + c.target() + " but " + why
                + "; the API server refuses to resize " + (one ? "it" : "them") + " (a cluster admin can allow expansion on the class)";
    }

    private static Map<String, JsonNode> templatesByName(JsonNode sts) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode t : sts.path("spec").path("volumeClaimTemplates")) {
            out.put(Metadata.text(t, "metadata", "name"), t);
        }
        return out;
    }

    private static Quantity storageOf(JsonNode template) {
        return Trees.quantity(template, "spec", "resources", "requests", "storage");
    }

    static String namespaceOf(JsonNode obj) {
        String ns = Metadata.text(obj, "metadata", "namespace");
        return ns == null || ns.isEmpty() ? "default" : ns;
    }

    private static String key(JsonNode obj) {
        return Metadata.key(obj, "default");
    }
}
