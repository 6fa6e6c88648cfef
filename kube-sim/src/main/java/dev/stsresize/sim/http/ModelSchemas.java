package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.gson.annotations.SerializedName;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * OpenAPI schemas of the served kinds, derived from client-java's generated models (the same source
 * {@code admission.FieldSchema} reads): every {@code @SerializedName} field with its type, lists and
 * maps, {@code x-kubernetes-group-version-kind} on each kind, and the patch strategy and merge key of
 * the lists kubectl's three-way patch merges (the Go struct tags' {@code patchStrategy}/{@code patchMergeKey}).
 * Definitions are named as the real document names them (io.k8s.api.core.v1.PodSpec,
 * io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta); client-java's models carry no descriptions, so
 * none are served. Built once, on the first request that needs them.
 */
final class ModelSchemas {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String MODELS = "io.kubernetes.client.openapi.models.";
    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    private static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
    private static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
    private static final String TIME = META + "Time";
    private static final Set<String> META_TYPES = Set.of("ObjectMeta", "ListMeta", "LabelSelector", "LabelSelectorRequirement",
            "OwnerReference", "ManagedFieldsEntry", "Condition", "Status", "StatusDetails", "StatusCause", "DeleteOptions",
            "Preconditions");
    /** patchMergeKey/patchStrategy struct tags of the lists a manifest commonly holds (k8s.io/api core/v1, meta/v1). */
    private static final Map<String, String[]> PATCH = Map.ofEntries(
            Map.entry("PodSpec.containers", new String[] {"name", "merge"}),
            Map.entry("PodSpec.initContainers", new String[] {"name", "merge"}),
            Map.entry("PodSpec.ephemeralContainers", new String[] {"name", "merge"}),
            Map.entry("PodSpec.volumes", new String[] {"name", "merge,retainKeys"}),
            Map.entry("PodSpec.imagePullSecrets", new String[] {"name", "merge"}),
            Map.entry("PodSpec.hostAliases", new String[] {"ip", "merge"}),
            Map.entry("Container.ports", new String[] {"containerPort", "merge"}),
            Map.entry("Container.env", new String[] {"name", "merge"}),
            Map.entry("Container.volumeMounts", new String[] {"mountPath", "merge"}),
            Map.entry("Container.volumeDevices", new String[] {"devicePath", "merge"}),
            Map.entry("ServiceSpec.ports", new String[] {"port", "merge"}),
            Map.entry("ObjectMeta.ownerReferences", new String[] {"uid", "merge"}),
            Map.entry("ObjectMeta.finalizers", new String[] {null, "merge"}),
            Map.entry("PodStatus.conditions", new String[] {"type", "merge"}),
            Map.entry("PersistentVolumeClaimStatus.conditions", new String[] {"type", "merge"}));

    /** A schema document's flavour: where definitions live and how a reference to one is spelt. */
    enum Flavour {
        V2("#/definitions/"), V3("#/components/schemas/");
        final String refPrefix;

        Flavour(String refPrefix) {
            this.refPrefix = refPrefix;
        }
    }

    private final Map<Class<?>, String> names = new LinkedHashMap<>();
    private final Map<String, Class<?>> byName = new TreeMap<>();
    private final Map<String, ResourceType> kindOf = new LinkedHashMap<>();

    ModelSchemas(Catalog catalog) {
        // core's types first, so a type shared by several groups (PodTemplateSpec) keeps core's name
        List<ResourceType> ordered = catalog.all().stream().sorted((a, b) -> Boolean.compare(!a.group().isEmpty(), !b.group().isEmpty())).toList();
        for (ResourceType t : ordered) {
            model(t).ifPresent(c -> {
                String name = name(c, packageOf(t.group()));
                kindOf.put(name, t);
                walk(c, packageOf(t.group()));
            });
        }
    }

    static Optional<Class<?>> model(ResourceType t) {
        return dev.stsresize.sim.admission.FieldSchema.modelOf(t.apiVersion(), t.kind());
    }

    /** The definition name of a kind's schema, e.g. io.k8s.api.apps.v1.StatefulSet. */
    Optional<String> definitionOf(ResourceType t) {
        return model(t).map(names::get);
    }

    /** Every definition reachable from {@code roots}, as {name: schema}, in the given flavour. */
    ObjectNode definitions(List<ResourceType> roots, Flavour f) {
        ObjectNode out = JSON.objectNode();
        Deque<String> todo = new ArrayDeque<>();
        roots.forEach(t -> definitionOf(t).ifPresent(todo::add));
        todo.add(QUANTITY);
        todo.add(INT_OR_STRING);
        todo.add(TIME);
        while (!todo.isEmpty()) {
            String n = todo.pop();
            if (out.has(n)) {
                continue;
            }
            out.set(n, schemaOf(n, f, todo));
        }
        return out;
    }

    /** All definitions (the v2 document holds every one). */
    ObjectNode allDefinitions(Flavour f) {
        return definitions(List.copyOf(kindOf.values()), f);
    }

    private ObjectNode schemaOf(String name, Flavour f, Deque<String> todo) {
        ObjectNode s = JSON.objectNode();
        switch (name) {
            case QUANTITY -> {
                s.put("description", "Quantity is a fixed-point representation of a number.");
                if (f == Flavour.V3) {
                    s.putArray("oneOf").add(JSON.objectNode().put("type", "string")).add(JSON.objectNode().put("type", "number"));
                } else {
                    s.put("type", "string");
                }
                return s;
            }
            case INT_OR_STRING -> {
                s.put("description", "IntOrString is a type that can hold an int32 or a string.");
                if (f == Flavour.V3) {
                    // intstr.IntOrString.OpenAPIV3OneOfTypes: no "type", so kubectl explain names it IntOrString
                    s.putArray("oneOf").add(JSON.objectNode().put("type", "integer")).add(JSON.objectNode().put("type", "string"));
                    s.put("x-kubernetes-int-or-string", true);
                } else {
                    s.put("type", "string");
                    s.put("format", "int-or-string");
                }
                return s;
            }
            case TIME -> {
                s.put("description", "Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.");
                s.put("type", "string");
                s.put("format", "date-time");
                return s;
            }
            default -> { }
        }
        Class<?> c = byName.get(name);
        s.put("description", "");
        s.put("type", "object");
        ObjectNode props = s.putObject("properties");
        String simple = simpleName(c);
        for (Field fd : fields(c)) {
            String json = fd.getAnnotation(SerializedName.class).value();
            ObjectNode p = property(fd.getGenericType(), f, todo);
            String[] patch = PATCH.get(simple + "." + json);
            if (patch != null) {
                if (patch[0] != null) {
                    p.put("x-kubernetes-patch-merge-key", patch[0]);
                }
                p.put("x-kubernetes-patch-strategy", patch[1]);
            }
            props.set(json, p);
        }
        ResourceType kind = kindOf.get(name);
        if (kind != null) {
            ObjectNode gvk = s.putArray("x-kubernetes-group-version-kind").addObject();
            gvk.put("group", kind.group());
            gvk.put("kind", kind.kind());
            gvk.put("version", kind.version());
        }
        return s;
    }

    private ObjectNode property(Type type, Flavour f, Deque<String> todo) {
        ObjectNode p = JSON.objectNode();
        if (type instanceof ParameterizedType pt) {
            if (pt.getRawType() == List.class) {
                p.put("type", "array");
                p.set("items", property(pt.getActualTypeArguments()[0], f, todo));
            } else if (pt.getRawType() == Map.class) {
                p.put("type", "object");
                p.set("additionalProperties", property(pt.getActualTypeArguments()[1], f, todo));
            } else {
                p.put("type", "object");
            }
            return p;
        }
        if (!(type instanceof Class<?> c)) {
            return p.put("type", "object");
        }
        String ref = null;
        if (c == String.class || c.isEnum()) {
            p.put("type", "string");
        } else if (c == Integer.class || c == int.class) {
            p.put("type", "integer").put("format", "int32");
        } else if (c == Long.class || c == long.class) {
            p.put("type", "integer").put("format", "int64");
        } else if (c == Boolean.class || c == boolean.class) {
            p.put("type", "boolean");
        } else if (c == Double.class || c == Float.class || c == java.math.BigDecimal.class) {
            p.put("type", "number").put("format", "double");
        } else if (c == byte[].class) {
            p.put("type", "string").put("format", "byte");
        } else if (c.getName().endsWith(".Quantity")) {
            ref = QUANTITY;
        } else if (c.getName().endsWith(".IntOrString")) {
            ref = INT_OR_STRING;
        } else if (c == java.time.OffsetDateTime.class) {
            ref = TIME;
        } else if (names.containsKey(c)) {
            ref = names.get(c);
        } else {
            p.put("type", "object"); // free-form (RawExtension, JSON)
        }
        if (ref != null) {
            todo.add(ref);
            if (f == Flavour.V3) {
                p.putArray("allOf").addObject().put("$ref", f.refPrefix + ref);
            } else {
                p.put("$ref", f.refPrefix + ref);
            }
        }
        return p;
    }

    /** Names every model class reachable from {@code root}: meta types under apimachinery, the rest under the first group that reaches them. */
    private void walk(Class<?> root, String pkg) {
        Deque<Class<?>> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            Class<?> c = todo.pop();
            for (Field fd : fields(c)) {
                for (Class<?> m : modelsIn(fd.getGenericType())) {
                    if (!names.containsKey(m)) {
                        name(m, pkg);
                        todo.push(m);
                    }
                }
            }
        }
    }

    private String name(Class<?> c, String pkg) {
        return names.computeIfAbsent(c, k -> {
            String simple = simpleName(k);
            String n = META_TYPES.contains(simple) ? META + simple : "io.k8s.api." + pkg + ".v1." + simple;
            byName.put(n, k);
            return n;
        });
    }

    private static List<Class<?>> modelsIn(Type t) {
        if (t instanceof ParameterizedType pt) {
            return java.util.Arrays.stream(pt.getActualTypeArguments()).flatMap(a -> modelsIn(a).stream()).toList();
        }
        if (t instanceof Class<?> c && c.getName().startsWith(MODELS) && !c.isEnum()) {
            return List.of(c);
        }
        return List.of();
    }

    private static List<Field> fields(Class<?> c) {
        List<Field> out = new java.util.ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (f.getAnnotation(SerializedName.class) != null && !Modifier.isStatic(f.getModifiers())) {
                out.add(f);
            }
        }
        return out;
    }

    /** V1PodSpec → PodSpec, CoreV1Event → Event, DiscoveryV1EndpointPort → EndpointPort. */
    static String simpleName(Class<?> c) {
        return c.getSimpleName().replaceFirst("^(?:[A-Z][a-z]+)?V\\d+(?:alpha\\d+|beta\\d+)?", "");
    }

    /** The Go package of a group's types: "" → core, "networking.k8s.io" → networking. */
    static String packageOf(String group) {
        if (group.isEmpty()) {
            return "core";
        }
        String first = group.split("\\.")[0];
        return first.equals("rbac") ? "rbac" : first;
    }
}
