package dev.stsresize.sim.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.sim.ApiError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Label selectors (equality- and set-based, k8s.io/apimachinery/pkg/labels) and field selectors
 * (metadata.name and metadata.namespace for every kind, as the generic registry supports them, plus
 * a few per-kind fields), parsed from their query-parameter form.
 */
public final class Selector {
    private static final Set<String> COMMON_FIELDS = Set.of("metadata.name", "metadata.namespace");
    private static final Set<String> POD_FIELDS = Set.of("spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
            "spec.serviceAccountName", "status.phase", "status.podIP", "status.nominatedNodeName", "spec.hostNetwork");
    private static final Set<String> EVENT_FIELDS = Set.of("involvedObject.kind", "involvedObject.namespace",
            "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
            "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type", "regarding.kind", "regarding.name",
            "regarding.namespace", "regarding.uid");

    private Selector() {}

    /** A predicate over objects for a labelSelector query value; null or blank selects everything. */
    public static Predicate<JsonNode> labels(String selector) {
        if (selector == null || selector.isBlank()) {
            return o -> true;
        }
        List<Predicate<JsonNode>> reqs = new ArrayList<>();
        for (String part : splitTopLevel(selector)) {
            reqs.add(labelRequirement(part.trim()));
        }
        return o -> reqs.stream().allMatch(r -> r.test(o.path("metadata").path("labels")));
    }

    private static Predicate<JsonNode> labelRequirement(String r) {
        if (r.isEmpty()) {
            throw bad("found '', expected: identifier");
        }
        String lower = r.replaceAll("\\s+", " ");
        int in = lower.indexOf(" in ");
        int notin = lower.indexOf(" notin ");
        if (notin > 0 || in > 0) {
            boolean negate = notin > 0;
            String key = lower.substring(0, negate ? notin : in).trim();
            String rest = lower.substring((negate ? notin + 7 : in + 4)).trim();
            if (!rest.startsWith("(") || !rest.endsWith(")")) {
                throw bad("found '" + rest + "', expected: '('");
            }
            Set<String> values = Set.of(rest.substring(1, rest.length() - 1).split("\\s*,\\s*"));
            return labels -> {
                JsonNode v = labels.get(key);
                boolean member = v != null && values.contains(v.asText());
                return negate ? !member : member;
            };
        }
        if (r.startsWith("!")) {
            String key = r.substring(1).trim();
            return labels -> !labels.has(key);
        }
        int ne = r.indexOf("!=");
        if (ne > 0) {
            String key = r.substring(0, ne).trim();
            String value = r.substring(ne + 2).trim();
            return labels -> !labels.has(key) || !labels.get(key).asText().equals(value);
        }
        int eq = r.indexOf('=');
        if (eq > 0) {
            String key = r.substring(0, eq).trim();
            String value = r.substring(r.startsWith("==", eq) ? eq + 2 : eq + 1).trim();
            return labels -> labels.has(key) && labels.get(key).asText().equals(value);
        }
        String key = r.trim();
        if (key.contains(" ")) {
            throw bad("found '" + key + "', expected: ',' or 'end of string'");
        }
        return labels -> labels.has(key);
    }

    /** A predicate for a fieldSelector query value; unsupported fields are a 400 like the real one. */
    public static Predicate<JsonNode> fields(ResourceType t, String selector) {
        if (selector == null || selector.isBlank()) {
            return o -> true;
        }
        List<Predicate<JsonNode>> reqs = new ArrayList<>();
        for (String part : selector.split(",")) {
            String p = part.trim();
            boolean negate = p.contains("!=");
            String[] kv = p.split(negate ? "!=" : "==?", 2);
            if (kv.length != 2) {
                throw ApiError.of(400, "BadRequest", "invalid field selector: '" + p + "'", null);
            }
            String field = kv[0].trim();
            String value = kv[1].trim();
            boolean supported = COMMON_FIELDS.contains(field)
                    || (t.kind().equals("Pod") && POD_FIELDS.contains(field))
                    || (t.kind().equals("Event") && EVENT_FIELDS.contains(field))
                    || (t.kind().equals("PersistentVolumeClaim") && field.equals("spec.volumeName"));
            if (!supported) {
                throw ApiError.of(400, "BadRequest", "\"" + field + "\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"", null);
            }
            reqs.add(o -> {
                JsonNode n = o;
                for (String seg : field.split("\\.")) {
                    n = n.path(seg);
                }
                boolean eq = n.asText("").equals(value);
                return negate != eq;
            });
        }
        return o -> reqs.stream().allMatch(r -> r.test(o));
    }

    private static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        StringBuilder cur = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
            if (c == ',' && depth == 0) {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        return parts;
    }

    private static ApiError bad(String why) {
        return ApiError.of(400, "BadRequest", "unable to parse requirement: " + why, null);
    }
}
