package dev.stsresize.sim.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.sim.ApiError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The fault rules of {@code simulate --faults FILE}: a YAML (or JSON) document
 * {@code {faults: [rule, …]}} whose rules are those of the Java API ({@link FaultRule}, {@link Fault}):
 * which requests (verb, resource or "resource/subresource", name; the nth only, a seeded probability,
 * at most {@code times}), and what happens to them (latencyMillis, then a Status answer with
 * {@code status}/{@code reason}/{@code message}/{@code retryAfterSeconds}, or {@code drop}, or
 * {@code cutWatchAfterEvents}, or {@code hang: true} (no answer until the client gives up), or, on a
 * {@code nodes/proxy} or {@code services/proxy} rule, {@code unreachable: true} (the proxy's 503
 * "error trying to reach service: …"; {@link Fault#unreachable()}). A mistake is refused with the
 * rule's index and the field to fix.
 *
 * <p>Beside {@code faults}, or instead of them, {@code down: [{component, afterSeconds, forSeconds}, …]}
 * takes a process of the cluster down for a while ({@link Outage}): {@code kube-controller-manager}
 * (its garbage collector, StatefulSet, volume and quota controllers), {@code kubelet} or
 * {@code csi-resizer}.
 *
 * <p>And {@code featureGates: {RecoverVolumeExpansionFailure: false}} serves what a server without that gate
 * answers (one older than v1.32, where it was alpha and off): a lowered claim request is refused "field can not
 * be less than previous value".
 */
public final class FaultFile {
    private static final Set<String> RULE_FIELDS = Set.of("verb", "resource", "name", "nth", "times", "probability", "seed",
            "status", "reason", "message", "retryAfterSeconds", "latencyMillis", "drop", "cutWatchAfterEvents", "hang", "unreachable");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private FaultFile() {}

    /** A component down from {@code after} the start, for {@code lasting}. */
    public record Outage(String component, java.time.Duration after, java.time.Duration lasting) {}

    private static final Set<String> OUTAGE_FIELDS = Set.of("component", "afterSeconds", "forSeconds");

    /** The rules of {@code file}, in order (the first that fires decides). */
    public static List<FaultRule> read(Path file) {
        return entries(file, "faults", FaultFile::rule);
    }

    /** The feature gates {@code file} sets ({@code featureGates:}), by name. */
    public static java.util.Map<String, Boolean> featureGates(Path file) {
        java.util.Map<String, Boolean> out = new java.util.LinkedHashMap<>();
        JsonNode gates = document(file).path("featureGates");
        for (Iterator<String> it = gates.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!gates.get(name).isBoolean()) {
                throw new IllegalArgumentException(file + ", featureGates." + name + " is " + gates.get(name) + "; give true or false");
            }
            out.put(name, gates.get(name).asBoolean());
        }
        return out;
    }

    /** The outages of {@code file} ({@code down:}), in order. */
    public static List<Outage> outages(Path file) {
        return entries(file, "down", FaultFile::outage);
    }

    /** Each entry of the list under {@code key}, read with where it stands ("FILE, key[i]") for its refusals to name. */
    private static <T> List<T> entries(Path file, String key, BiFunction<JsonNode, String, T> read) {
        List<T> entries = new ArrayList<>();
        int i = 0;
        for (JsonNode entry : document(file).path(key)) {
            entries.add(read.apply(entry, file + ", " + key + "[" + i++ + "]"));
        }
        return entries;
    }

    /** Refuses {@code entry} unless it is a mapping of {@code fields} only; an unknown field is named with every known one. */
    private static void mappingOf(JsonNode entry, Set<String> fields, Function<String, IllegalArgumentException> refusal) {
        if (!entry.isObject()) {
            throw refusal.apply("is not a mapping");
        }
        for (Iterator<String> it = entry.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!fields.contains(f)) {
                throw refusal.apply("has an unknown field \"" + f + "\"; the fields are " + String.join(", ",
                        fields.stream().sorted().toList()));
            }
        }
    }

    private static JsonNode document(Path file) {
        JsonNode doc;
        try {
            doc = YAML.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the fault file " + file + ": " + e.getMessage(), e);
        }
        boolean faults = doc != null && doc.path("faults").isArray();
        boolean down = doc != null && doc.path("down").isArray();
        boolean gates = doc != null && doc.path("featureGates").isObject();
        if (!faults && !down && !gates || doc.has("faults") && !faults || doc.has("down") && !down
                || doc.has("featureGates") && !gates) {
            throw new IllegalArgumentException("the fault file " + file + " must hold a list under \"faults:\", \"down:\" or both,"
                    + " or a mapping under \"featureGates:\" "
                    + "(e.g. faults: [{verb: patch, resource: persistentvolumeclaims, status: 503}], "
                    + "down: [{component: kube-controller-manager, afterSeconds: 20, forSeconds: 120}], "
                    + "featureGates: {RecoverVolumeExpansionFailure: false})");
        }
        return doc;
    }

    static Outage outage(JsonNode o, String where) {
        mappingOf(o, OUTAGE_FIELDS, what -> badOutage(where, what));
        String component = o.path("component").asText("");
        if (!dev.stsresize.sim.controller.ControllerManager.COMPONENTS.contains(component)) {
            throw badOutage(where, "has component " + o.path("component") + "; use one of " + String.join(", ",
                    dev.stsresize.sim.controller.ControllerManager.COMPONENTS.stream().sorted().toList()));
        }
        int lasting = integer(o, "forSeconds", where);
        if (lasting == 0) {
            throw badOutage(where, "has no forSeconds; say how long " + component + " stays down, in seconds (1 or more)");
        }
        return new Outage(component, java.time.Duration.ofSeconds(integer(o, "afterSeconds", where)), java.time.Duration.ofSeconds(lasting));
    }

    private static IllegalArgumentException badOutage(String where, String what) {
        return new IllegalArgumentException("outage " + where + " " + what + ".");
    }

    static FaultRule rule(JsonNode r, String where) {
        mappingOf(r, RULE_FIELDS, what -> bad(where, what));
        Fault fault = fault(r, where);
        String verb = text(r, "verb");
        String resource = text(r, "resource");
        if (fault.backendUnreachable() && (resource == null || !resource.endsWith("/proxy"))) {
            throw bad(where, "has unreachable: true without resource nodes/proxy or services/proxy; only a proxy has a "
                    + "backend to miss");
        }
        String name = text(r, "name");
        int nth = integer(r, "nth", where);
        FaultRule rule;
        if (r.has("probability")) {
            if (nth > 0) {
                throw bad(where, "names both nth and probability; keep one");
            }
            double p = r.path("probability").asDouble(-1);
            if (!r.path("probability").isNumber() || p <= 0 || p > 1) {
                throw bad(where, "has probability " + r.path("probability") + "; use a number in (0, 1]");
            }
            rule = FaultRule.withProbability(verb, resource, name, p, r.path("seed").asLong(0), fault);
        } else if (nth > 0) {
            rule = FaultRule.onNth(verb, resource, name, nth, fault);
        } else {
            rule = FaultRule.on(verb, resource, name, fault);
        }
        int times = integer(r, "times", where);
        return times > 0 ? rule.times(times) : rule;
    }

    private static Fault fault(JsonNode r, String where) {
        long latency = integer(r, "latencyMillis", where);
        boolean drop = r.path("drop").asBoolean(false);
        boolean hang = r.path("hang").asBoolean(false);
        boolean unreachable = r.path("unreachable").asBoolean(false);
        Integer cut = r.has("cutWatchAfterEvents") ? integer(r, "cutWatchAfterEvents", where) : null;
        ApiError error = null;
        if (r.has("status")) {
            int code = integer(r, "status", where);
            if (code < 400 || code > 599) {
                throw bad(where, "has status " + code + "; an injected answer is an error, 400-599");
            }
            String reason = r.has("reason") ? r.path("reason").asText() : reasonOf(code);
            String message = r.has("message") ? r.path("message").asText() : messageOf(code);
            error = ApiError.of(code, reason, message, null);
        } else if (r.has("reason") || r.has("message") || r.has("retryAfterSeconds")) {
            throw bad(where, "has reason, message or retryAfterSeconds without status; add status: <code>");
        }
        int effects = (error != null ? 1 : 0) + (drop ? 1 : 0) + (cut != null ? 1 : 0) + (hang ? 1 : 0) + (unreachable ? 1 : 0);
        if (effects > 1) {
            throw bad(where, "names more than one of status, drop, cutWatchAfterEvents, hang and unreachable; a request meets one fate");
        }
        if (effects == 0 && latency == 0) {
            throw bad(where, "does nothing; give it status, drop, cutWatchAfterEvents, hang, unreachable or latencyMillis");
        }
        Integer retryAfter = r.has("retryAfterSeconds") ? integer(r, "retryAfterSeconds", where) : null;
        return new Fault(latency, error, retryAfter, drop, cut, hang, unreachable);
    }

    /** The reason and message apimachinery's errors give these codes (NewTooManyRequests, NewServiceUnavailable…). */
    private static String reasonOf(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 409 -> "Conflict";
            case 410 -> "Expired";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> "InternalError";
        };
    }

    private static String messageOf(int code) {
        return switch (code) {
            case 429 -> "Too many requests, please try again later.";
            case 503 -> "The server is currently unable to handle the request";
            case 504 -> "The server was unable to return a response in the time allotted, but may still be processing the request";
            default -> "injected fault (status " + code + ")";
        };
    }

    private static String text(JsonNode r, String f) {
        return r.has(f) && !r.get(f).isNull() ? r.get(f).asText() : null;
    }

    private static int integer(JsonNode r, String f, String where) {
        if (!r.has(f)) {
            return 0;
        }
        JsonNode v = r.get(f);
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 0) {
            throw bad(where, "has " + f + ": " + v + "; use a whole number, 0 or more");
        }
        return v.asInt();
    }

    private static IllegalArgumentException bad(String where, String what) {
        return new IllegalArgumentException("fault rule " + where + " " + what + ".");
    }
}
