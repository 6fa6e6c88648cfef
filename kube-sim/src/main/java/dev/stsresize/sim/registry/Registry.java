package dev.stsresize.sim.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.AdmissionChain;
import dev.stsresize.sim.admission.AdmissionPlugin.Attributes;
import dev.stsresize.sim.admission.AdmissionPlugin.Operation;
import dev.stsresize.sim.admission.Defaults;
import dev.stsresize.sim.admission.FieldSchema;
import dev.stsresize.sim.patch.Patches;
import dev.stsresize.sim.registry.strategy.Strategies;
import dev.stsresize.sim.registry.strategy.Strategy;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What kube-apiserver's generic registry (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go)
 * does around the store, for every resource alike: decoding, defaulting, generation, managedFields, delete
 * propagation with finalizers and preconditions, and dryRun. What differs per resource is its {@link Strategy}
 * (from the {@link Strategies} table: status rules, names, spec validation); what may refuse a valid write is the
 * {@link AdmissionChain}. The HTTP layer and the in-process controllers both write through here.
 *
 * <p>Writes are serialised (one lock) so that a validation and the write it guards see the same state.
 */
public final class Registry {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String ORPHAN = "orphan";
    private static final String FOREGROUND = "foregroundDeletion";

    private final Store store;
    private final Catalog catalog;
    private final Strategies strategies;
    private final AdmissionChain admission;
    private volatile EvictionPolicy evictionPolicy = EvictionPolicy.ALWAYS;
    private volatile boolean gracefulPods;
    /** Fields declared beyond client-java's models (tests only), per "apiVersion kind". */
    private final java.util.Map<String, java.util.Set<String>> declaredFields = new java.util.concurrent.ConcurrentHashMap<>();

    public Registry(Store store, Catalog catalog) {
        this(store, catalog, Strategies.standard(), AdmissionChain.standard(store, catalog));
    }

    /** A registry with other strategies or admission plugins than a real server's (tests of the tables). */
    public Registry(Store store, Catalog catalog, Strategies strategies, AdmissionChain admission) {
        this.store = store;
        this.catalog = catalog;
        this.strategies = strategies;
        this.admission = admission;
    }

    public Store store() {
        return store;
    }

    /** The server's feature gates that change an answer (v1.32's defaults until set). */
    public dev.stsresize.sim.admission.FeatureGates featureGates() {
        return strategies.featureGates();
    }

    /**
     * TEST ONLY: the schema of {@code apiVersion}/{@code kind} declares one more field than
     * client-java's model, by path (see {@link FieldSchema#firstUnknownField(JsonNode, Class, java.util.Set)}),
     * as a newer API server would: objects carrying it are no longer refused as unknown.
     */
    public void declareField(String apiVersion, String kind, String path) {
        declaredFields.computeIfAbsent(apiVersion + " " + kind, k -> java.util.concurrent.ConcurrentHashMap.newKeySet()).add(path);
    }

    private java.util.Set<String> declaredFields(ResourceType t) {
        return declaredFields.getOrDefault(t.apiVersion() + " " + t.kind(), java.util.Set.of());
    }

    public Catalog catalog() {
        return catalog;
    }

    public void evictionPolicy(EvictionPolicy policy) {
        this.evictionPolicy = policy;
    }

    /**
     * With a kubelet (part 2's controllers), a deleted pod terminates: it keeps a deletionTimestamp
     * for its grace period and the kubelet removes it; without one it goes at once.
     */
    public void gracefulPodDeletion(boolean on) {
        this.gracefulPods = on;
    }

    public ObjectNode get(ResourceType t, String ns, String name) {
        ObjectNode o = store.get(t, nsOf(t, ns), name);
        if (o == null) {
            throw ApiError.notFound(t.group(), t.resource(), name);
        }
        return o;
    }

    /** A written object and whether it was created (201) rather than changed (200). */
    public record Written(ObjectNode object, boolean created) {}

    public synchronized ObjectNode create(ResourceType t, String ns, ObjectNode body, WriteOptions o) {
        ObjectNode obj = prepare(t, ns, null, body, o);
        ObjectNode meta = obj.withObject("/metadata");
        if (meta.path("name").asText("").isEmpty() && !meta.path("generateName").asText("").isEmpty()) {
            // names.SimpleNameGenerator (staging/src/k8s.io/apiserver/pkg/storage/names/generate.go): the
            // prefix cut to 58 characters, then 5 random ones
            String base = meta.get("generateName").asText();
            meta.put("name", base.substring(0, Math.min(base.length(), 58)) + randomSuffix());
        }
        String name = meta.path("name").asText("");
        if (name.isEmpty()) {
            throw ApiError.invalid(t.group(), t.kind(), "", List.of(new ApiError.Cause("FieldValueRequired",
                    "Required value: name or generateName is required", "metadata.name")));
        }
        return createPrepared(t, obj, o, true);
    }

    public synchronized ObjectNode update(ResourceType t, String ns, String name, String sub, ObjectNode body, WriteOptions o) {
        ObjectNode old = get(t, ns, name);
        ObjectNode obj = prepare(t, ns, name, body, o);
        return write(t, old, obj, sub, o, false);
    }

    public synchronized Written patch(ResourceType t, String ns, String name, String sub, Patches.Type type,
            JsonNode patch, WriteOptions o) {
        ObjectNode old = store.get(t, nsOf(t, ns), name);
        if (type == Patches.Type.APPLY) {
            return apply(t, ns, name, sub, old, patch, o);
        }
        if (old == null) {
            throw ApiError.notFound(t.group(), t.resource(), name);
        }
        ObjectNode patched = PatchEngine.patch(type, old, patch, t.apiVersion(), t.kind());
        Decoding.decodePatched(t, patched, type, patch, o, declaredFields(t));
        ObjectNode obj = prepare(t, ns, name, patched, null);
        return new Written(write(t, old, obj, sub, o, false), false);
    }

    private Written apply(ResourceType t, String ns, String name, String sub, ObjectNode old, JsonNode patch, WriteOptions o) {
        if (o.fieldManager() == null || o.fieldManager().isEmpty()) {
            throw ApiError.invalid("meta.k8s.io", "PatchOptions", "", List.of(new ApiError.Cause("FieldValueRequired",
                    "Required value: is required for apply patch", "fieldManager")));
        }
        if (!(patch instanceof ObjectNode applied)) {
            throw ApiError.of(400, "BadRequest", "error decoding YAML: the patch is not an object", null);
        }
        String nsName = (t.namespaced() ? nsOf(t, ns) : "") + "/" + name;
        FieldSchema.modelOf(t.apiVersion(), t.kind()).flatMap(m -> FieldSchema.firstUnknownField(applied, m, declaredFields(t))).ifPresent(field -> {
            throw ApiError.of(500, null, "failed to create typed patch object (" + nsName + "; " + t.apiVersion() + ", Kind="
                    + t.kind() + "): " + field + ": field not declared in schema", null);
        });
        ObjectNode merged = PatchEngine.apply(old, applied, o.fieldManager(), o.force(), store.now());
        ObjectNode obj = prepare(t, ns, name, merged, null);
        if (old == null) {
            if (!sub.isEmpty()) {
                throw ApiError.notFound(t.group(), t.resource(), name);
            }
            return new Written(createPrepared(t, obj, o, false), true);
        }
        return new Written(write(t, old, obj, sub, o, true), false);
    }

    /** Create after the body is prepared; {@code record}: an Update entry in managedFields (apply has made its own). */
    private ObjectNode createPrepared(ResourceType t, ObjectNode prepared, WriteOptions o, boolean record) {
        ObjectNode obj = prepared;
        Strategy strategy = strategies.of(t);
        if (t.namespaced()) {
            requireNamespace(obj.path("metadata").path("namespace").asText());
        }
        strategy.prepareForCreate(t, obj);
        Defaults.apply(t, obj);
        // mutating admission before the strategy's validation, validating admission after it, as the create
        // handler (endpoints/handlers/create.go) and store.Create with its createValidation run them
        Attributes attributes = new Attributes(Operation.CREATE, t, "", obj, null);
        admission.admit(attributes);
        BeforeWrite.create(strategy, t, obj);
        admission.validate(attributes);
        if (record) {
            // after defaulting, as the real field manager sees the decoded (defaulted) object
            obj = PatchEngine.recordUpdate(null, obj, o.fieldManager(), "", store.now());
        }
        strategy.initialStatus(obj);
        return store.create(t, obj, o.dryRun());
    }

    /** The update path shared by PUT and PATCH: strategy, validation, admission, managedFields, store. */
    private ObjectNode write(ResourceType t, ObjectNode old, ObjectNode obj, String sub, WriteOptions o, boolean applied) {
        Strategy strategy = strategies.of(t);
        ObjectNode next;
        if (sub.equals("status")) {
            next = strategy.prepareForStatusUpdate(obj, old);
        } else {
            next = obj;
            strategy.prepareForUpdate(t, next, old);
        }
        Defaults.apply(t, next);
        if (t.hasGeneration()) {
            long gen = old.path("metadata").path("generation").asLong(1);
            boolean specChanged = !old.path("spec").equals(next.path("spec"));
            next.withObject("/metadata").put("generation", specChanged ? gen + 1 : gen);
        }
        Attributes attributes = new Attributes(Operation.UPDATE, t, sub, next, old);
        admission.admit(attributes);
        BeforeWrite.update(strategy, t, old, next);
        admission.validate(attributes);
        if (!applied) {
            next = PatchEngine.recordUpdate(old, next, o.fieldManager(), sub, store.now());
        }
        return store.update(t, next, o.dryRun());
    }

    /** The outcome of a DELETE: the object as it is now (or was), and whether it is gone. */
    public record Deleted(ObjectNode object, boolean gone) {}

    /**
     * DELETE as store.go does it: preconditions (rest.BeforeDelete), then the finalizers the
     * propagation policy asks for (deletionFinalizersForGarbageCollection). With any finalizer left
     * the object stays, marked deleting, and a controller finishes the job; otherwise it goes now.
     */
    public synchronized Deleted delete(ResourceType t, String ns, String name, DeleteOptions d) {
        ObjectNode old = get(t, ns, name);
        ObjectNode meta = (ObjectNode) old.get("metadata");
        if (d.preconditionUid() != null && !d.preconditionUid().equals(meta.path("uid").asText())) {
            throw ApiError.conflict(t.qualifiedKind(), t.group(), t.kind(), name, "the UID in the precondition ("
                    + d.preconditionUid() + ") does not match the UID in record (" + meta.path("uid").asText()
                    + "). The object might have been deleted and then recreated");
        }
        if (d.preconditionResourceVersion() != null && !d.preconditionResourceVersion().equals(meta.path("resourceVersion").asText())) {
            throw ApiError.conflict(t.qualifiedKind(), t.group(), t.kind(), name, "the ResourceVersion in the precondition ("
                    + d.preconditionResourceVersion() + ") does not match the ResourceVersion in record ("
                    + meta.path("resourceVersion").asText() + "). The object might have been modified");
        }
        List<String> finalizers = new ArrayList<>();
        meta.path("finalizers").forEach(f -> finalizers.add(f.asText()));
        String policy = d.propagationPolicy();
        if (policy == null && d.orphanDependents() != null) {
            policy = d.orphanDependents() ? "Orphan" : "Background";
        }
        if ("Orphan".equals(policy)) {
            finalizers.remove(FOREGROUND);
            if (!finalizers.contains(ORPHAN)) {
                finalizers.add(ORPHAN);
            }
        } else if ("Foreground".equals(policy)) {
            finalizers.remove(ORPHAN);
            if (!finalizers.contains(FOREGROUND)) {
                finalizers.add(FOREGROUND);
            }
        } else if ("Background".equals(policy)) {
            finalizers.remove(ORPHAN);
            finalizers.remove(FOREGROUND);
        } else if (policy != null) {
            throw ApiError.invalid("meta.k8s.io", "DeleteOptions", "", List.of(new ApiError.Cause("FieldValueNotSupported",
                    "Unsupported value: \"" + policy + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"",
                    "propagationPolicy")));
        }
        if (gracefulPods && strategies.of(t).gracefulDelete()) {
            if (meta.has("deletionTimestamp")) {
                return new Deleted(old, false); // already terminating: the kubelet finishes it
            }
            long grace = d.gracePeriodSeconds() != null ? d.gracePeriodSeconds()
                    : old.path("spec").path("terminationGracePeriodSeconds").asLong(30);
            if (grace == 0 && finalizers.isEmpty()) {
                return new Deleted(store.remove(t, nsOf(t, ns), name, d.dryRun()), true); // forced: gone now
            }
            return new Deleted(store.markDeleting(t, nsOf(t, ns), name, finalizers, grace, d.dryRun()), false);
        }
        if (!finalizers.isEmpty()) {
            return new Deleted(store.markDeleting(t, nsOf(t, ns), name, finalizers, d.dryRun()), false);
        }
        return new Deleted(store.remove(t, nsOf(t, ns), name, d.dryRun()), true);
    }

    /**
     * POST pods/NAME/eviction: the {@link EvictionPolicy} decides, then the pod is deleted with the
     * eviction's DeleteOptions. Part 1 has no kubelet, so the pod goes at once.
     */
    public synchronized void evict(ResourceType pods, String ns, String name, ObjectNode eviction, boolean dryRun) {
        ObjectNode pod = get(pods, ns, name);
        evictionPolicy.check(pod, eviction);
        delete(pods, ns, name, propagateDryRun(eviction.path("deleteOptions"), dryRun));
    }

    /**
     * pkg/registry/core/pod/storage/eviction.go propagateDryRun: the eviction's CreateOptions dryRun
     * (the query) fills the DeleteOptions' when that has none; both set and different is an error.
     */
    private static DeleteOptions propagateDryRun(JsonNode deleteOptions, boolean queryDryRun) {
        DeleteOptions d = deleteOptions.isObject() ? DeleteOptions.fromJson(deleteOptions) : DeleteOptions.BACKGROUND;
        if (deleteOptions.path("dryRun").isEmpty()) {
            return d.withDryRun(queryDryRun);
        }
        if (queryDryRun && !d.dryRun()) {
            throw ApiError.of(500, "InternalError", "Internal error occurred: Non-matching dry-run options in request and content: [All] and "
                    + deleteOptions.path("dryRun"), null);
        }
        return d;
    }

    /** The autoscaling/v1 Scale of a StatefulSet. */
    public ObjectNode scaleOf(ObjectNode sts) {
        ObjectNode scale = JSON.objectNode();
        scale.put("kind", "Scale");
        scale.put("apiVersion", "autoscaling/v1");
        ObjectNode m = scale.putObject("metadata");
        JsonNode sm = sts.path("metadata");
        for (String f : new String[] {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
            if (sm.has(f)) {
                m.set(f, sm.get(f));
            }
        }
        scale.putObject("spec").put("replicas", sts.path("spec").path("replicas").asInt(1));
        ObjectNode st = scale.putObject("status");
        st.put("replicas", sts.path("status").path("replicas").asInt(0));
        st.put("selector", selectorString(sts.path("spec").path("selector")));
        return scale;
    }

    /** Writes a Scale back as spec.replicas of the StatefulSet (with the Scale's resourceVersion as precondition). */
    public synchronized ObjectNode updateScale(ResourceType t, String ns, String name, JsonNode scale, WriteOptions o) {
        ObjectNode old = get(t, ns, name);
        ObjectNode next = old.deepCopy();
        next.withObject("/spec").put("replicas", scale.path("spec").path("replicas").asInt());
        String rv = scale.path("metadata").path("resourceVersion").asText("");
        next.withObject("/metadata").put("resourceVersion", rv.isEmpty() ? old.path("metadata").path("resourceVersion").asText() : rv);
        return scaleOf(write(t, old, next, "scale", o, false));
    }

    /** PATCH statefulsets/NAME/scale: the patch applies to the Scale object, whose replicas are then written back. */
    public synchronized ObjectNode patchScale(ResourceType t, String ns, String name, Patches.Type type, JsonNode patch, WriteOptions o) {
        ObjectNode scale = scaleOf(get(t, ns, name));
        ObjectNode patched = type == Patches.Type.APPLY
                ? PatchEngine.apply(scale, (ObjectNode) patch, o.fieldManager(), o.force(), store.now())
                : PatchEngine.patch(type, scale, patch, "autoscaling/v1", "Scale");
        return updateScale(t, ns, name, patched, o);
    }

    private static String selectorString(JsonNode selector) {
        List<String> parts = new ArrayList<>();
        selector.path("matchLabels").fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        for (JsonNode r : selector.path("matchExpressions")) {
            List<String> vs = new ArrayList<>();
            r.path("values").forEach(v -> vs.add(v.asText()));
            String op = r.path("operator").asText();
            String key = r.path("key").asText();
            parts.add(switch (op) {
                case "In" -> key + " in (" + String.join(",", vs) + ")";
                case "NotIn" -> key + " notin (" + String.join(",", vs) + ")";
                case "DoesNotExist" -> "!" + key;
                default -> key;
            });
        }
        return String.join(",", parts);
    }

    /**
     * Sets apiVersion/kind and namespace, and refuses a body that names another namespace or object;
     * with {@code decode} (a POST or PUT body), first decodes it as the handler does ({@link Decoding}).
     */
    private ObjectNode prepare(ResourceType t, String ns, String urlName, ObjectNode body, WriteOptions decode) {
        ObjectNode obj = body.deepCopy();
        String kind = obj.path("kind").asText("");
        if (!kind.isEmpty() && !kind.equals(t.kind())) {
            throw ApiError.of(400, "BadRequest", t.kind() + " in version \"" + t.version() + "\" cannot be handled as a "
                    + t.kind() + ": the kind in the data (" + kind + ") does not match the expected kind (" + t.kind() + ")", null);
        }
        if (decode != null) {
            Decoding.decodeBody(t, obj, decode, declaredFields(t));
        }
        obj.put("apiVersion", t.apiVersion());
        obj.put("kind", t.kind());
        ObjectNode meta = obj.withObject("/metadata");
        if (t.namespaced()) {
            String bodyNs = meta.path("namespace").asText("");
            if (!bodyNs.isEmpty() && !bodyNs.equals(ns)) {
                throw ApiError.of(400, "BadRequest", "the namespace of the provided object does not match the namespace sent on the request", null);
            }
            meta.put("namespace", ns);
        } else {
            meta.remove("namespace");
        }
        if (urlName != null) {
            String bodyName = meta.path("name").asText("");
            if (bodyName.isEmpty()) {
                meta.put("name", urlName);
            } else if (!bodyName.equals(urlName)) {
                throw ApiError.of(400, "BadRequest", "the name of the object (" + bodyName
                        + ") does not match the name on the URL (" + urlName + ")", null);
            }
        }
        return obj;
    }

    private void requireNamespace(String ns) {
        ResourceType namespaces = catalog.byResource("", "namespaces").orElseThrow();
        if (store.get(namespaces, "", ns) == null) {
            throw ApiError.notFound("", "namespaces", ns);
        }
    }

    private static String nsOf(ResourceType t, String ns) {
        return t.namespaced() ? ns : "";
    }

    /** Five characters like apiserver's names.SimpleNameGenerator. */
    private static String randomSuffix() {
        String alphabet = "bcdfghjklmnpqrstvwxz2456789";
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            b.append(alphabet.charAt(ThreadLocalRandom.current().nextInt(alphabet.length())));
        }
        return b.toString();
    }

}
