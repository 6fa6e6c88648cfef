package dev.stsresize.sim.usage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The usage model in a state file: a document of the simulator's own kind, never stored nor served
 * (the plugin cannot see it), read by {@code SimCluster.load} and written by {@code snapshot()}:
 * <pre>
 * apiVersion: sim.stsresize.dev/v1
 * kind: VolumeUsage
 * metadata: {name: volume-usage}
 * seed: 7                       # claims not listed: 10–55 % used, filling in months
 * claims:
 * - {namespace: shop, name: data-db-0, usedFraction: 0.92, bytesPerSecond: 80000}
 * - {namespace: shop, name: data-db-1, usedBytes: 1073741824, bytesPerSecond: 0, reservedFraction: 0}
 * - {namespace: shop, name: data-db-2, reservedFraction: 0.1}   # only its reserve (default 0.05, ext4's)
 * </pre>
 */
public final class UsageDocument {
    public static final String API_VERSION = "sim.stsresize.dev/v1";
    public static final String KIND = "VolumeUsage";
    private static final Set<String> TOP = Set.of("apiVersion", "kind", "metadata", "seed", "claims");
    private static final Set<String> CLAIM = Set.of("namespace", "name", "usedFraction", "usedBytes", "bytesPerSecond", "reservedFraction");

    private UsageDocument() {}

    public static boolean is(JsonNode o) {
        return API_VERSION.equals(o.path("apiVersion").asText()) && KIND.equals(o.path("kind").asText());
    }

    /** Applies a VolumeUsage document to the model; a mistake is refused naming the entry and the fix. */
    public static void apply(JsonNode doc, VolumeUsage usage) {
        unknown(doc, TOP, "the VolumeUsage document");
        if (doc.has("seed")) {
            if (!doc.get("seed").isIntegralNumber()) {
                throw bad("the VolumeUsage document has seed " + doc.get("seed") + "; use a whole number");
            }
            usage.seed(doc.get("seed").asLong());
        }
        int i = 0;
        for (JsonNode c : doc.path("claims")) {
            String where = "VolumeUsage claims[" + i++ + "]";
            unknown(c, CLAIM, where);
            String ns = c.path("namespace").asText("");
            String name = c.path("name").asText("");
            if (ns.isEmpty() || name.isEmpty()) {
                throw bad(where + " lacks namespace or name; give both (the claim's namespace and name)");
            }
            if (c.has("reservedFraction")) {
                double reserved = number(c, "reservedFraction", where, 0);
                if (reserved > 0.5) {
                    throw bad(where + " (" + ns + "/" + name + ") has reservedFraction " + reserved
                            + "; use a fraction from 0 to 0.5 (0.05 = ext4's default, 0 = xfs)");
                }
                usage.reserve(ns, name, reserved);
                if (!c.has("usedFraction") && !c.has("usedBytes") && !c.has("bytesPerSecond")) {
                    continue; // only its reserve
                }
            }
            double rate = number(c, "bytesPerSecond", where, 0);
            Growth g;
            if (c.has("usedFraction") == c.has("usedBytes")) {
                throw bad(where + " (" + ns + "/" + name + ") needs exactly one of usedFraction (0 to 1) and usedBytes");
            } else if (c.has("usedFraction")) {
                double f = number(c, "usedFraction", where, 0);
                if (f > 1) {
                    throw bad(where + " (" + ns + "/" + name + ") has usedFraction " + f + "; use a fraction from 0 to 1 (0.92 = 92 %)");
                }
                g = Growth.fraction(f, rate);
            } else {
                g = Growth.bytes((long) number(c, "usedBytes", where, 0), rate);
            }
            usage.set(ns, name, g);
        }
    }

    /** The model's seed and configured claims as a VolumeUsage document. */
    public static ObjectNode of(VolumeUsage usage) {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("apiVersion", API_VERSION);
        doc.put("kind", KIND);
        doc.putObject("metadata").put("name", "volume-usage");
        doc.put("seed", usage.seed());
        ArrayNode claims = doc.putArray("claims");
        Map<String, Double> reserved = usage.reserved();
        Set<String> keys = new java.util.TreeSet<>(usage.configured().keySet());
        keys.addAll(reserved.keySet());
        for (String key : keys) {
            String[] k = key.split("/", 2);
            ObjectNode c = claims.addObject().put("namespace", k[0]).put("name", k[1]);
            Growth g = usage.configured().get(key);
            if (g != null) {
                if (g.startBytes() >= 0) {
                    c.put("usedBytes", g.startBytes());
                } else {
                    c.put("usedFraction", g.startFraction());
                }
                c.put("bytesPerSecond", g.bytesPerSecond());
            }
            if (reserved.containsKey(key)) {
                c.put("reservedFraction", reserved.get(key));
            }
        }
        return doc;
    }

    private static double number(JsonNode c, String field, String where, double min) {
        JsonNode v = c.path(field);
        if (v.isMissingNode()) {
            return min;
        }
        if (!v.isNumber() || v.asDouble() < min) {
            throw bad(where + " has " + field + ": " + v + "; use a number, " + (long) min + " or more");
        }
        return v.asDouble();
    }

    private static void unknown(JsonNode o, Set<String> known, String where) {
        if (!o.isObject()) {
            throw bad(where + " is not a mapping");
        }
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw bad(where + " has an unknown field \"" + f + "\"; the fields are "
                        + String.join(", ", known.stream().sorted().toList()));
            }
        }
    }

    private static IllegalArgumentException bad(String what) {
        return new IllegalArgumentException(what + ".");
    }
}
