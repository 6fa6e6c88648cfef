package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.plan.DriverLimits;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the resizers say about the claims of one wait for capacity, read from the claims and from
 * the core Events about them (external-resizer and the expand controller write Events through
 * client-go's recorder: pkg/controller/expand_and_recover.go, pkg/controller/volume/expand/expand_controller.go).
 * Each read gives every claim its latest word ({@link ClaimGrower.ClaimStatus#latest}), and keeps two
 * rules of the wait:
 *
 * <ul>
 *   <li>A resizer that keeps failing ends the wait: external-resizer writes {@code VolumeResizeFailed}
 *       on every failed attempt, transient ones included (it retries with an exponential backoff from
 *       1 s), so one is said, not acted on; {@value #FAILURES_THAT_END} of them since the wait began,
 *       with no capacity gained, end it with the resizer's message. An infeasible status ends it at
 *       once ({@link ClaimGrower.State#INFEASIBLE}).</li>
 *   <li>A claim with no sign of a resizer (no event but the expand controller's
 *       {@code ExternalExpanding}, no {@code allocatedResourceStatuses}, no resize condition) is said
 *       once a minute: without a resizer the claim never grows.</li>
 * </ul>
 *
 * Events are advice: one the user may not list, or a read that fails, leaves the claims' own status.
 * Each Event's count before the claims were patched (or at the wait's first read) is its baseline, so
 * failures of an older resize are not counted again (and no clock of the server is compared with ours).
 * The plugin's own Events are no resizer's word and are left out.
 */
final class ResizeSignals {
    /** Failed attempts, since the wait began, that end it: with external-resizer's backoff (1, 2, 4, 8 s) about 15 s of failing. */
    static final int FAILURES_THAT_END = 5;
    /** How often a claim without a sign of its resizer is said. */
    static final Duration NO_SIGN_EVERY = Duration.ofMinutes(1);

    private final Cluster cluster;
    private final Clock clock;
    private final Progress progress;
    private final String namespace;
    private final String sts;
    private final Map<String, String> targets;
    private final Map<String, String> before;
    private final Instant started;
    /** Event name → its count at the first read (the baseline). */
    private Map<String, Integer> baseline;
    private boolean eventsUnreadable;
    private final Map<String, Integer> failures = new HashMap<>();
    private final Map<String, String> lastFailure = new HashMap<>();
    private final Map<String, Boolean> signed = new HashMap<>();
    private final Map<String, String> capacityAtStart = new HashMap<>();
    /** Each claim's CSI driver, as its provisioner annotation or its resizer's events name it ("" when neither does). */
    private final Map<String, String> drivers = new HashMap<>();
    private int minutesSaid;
    private List<ClaimGrower.ClaimStatus> last = List.of();

    ResizeSignals(Cluster cluster, Clock clock, Progress progress, String namespace, String sts, Map<String, String> targets,
            Map<String, String> before) {
        this(cluster, clock, progress, namespace, sts, targets, before, null);
    }

    /**
     * @param baseline each claim Event's count before the claims were patched ({@link #baseline}), or
     *     null: then the wait's first read is the baseline
     */
    ResizeSignals(Cluster cluster, Clock clock, Progress progress, String namespace, String sts, Map<String, String> targets,
            Map<String, String> before, Map<String, Integer> baseline) {
        this.baseline = baseline == null ? null : new HashMap<>(baseline);
        this.cluster = cluster;
        this.clock = clock;
        this.progress = progress;
        this.namespace = namespace;
        this.sts = sts;
        this.targets = new LinkedHashMap<>(targets);
        this.before = new LinkedHashMap<>(before);
        this.started = clock.instant();
    }

    /**
     * Each claim Event's count in the namespace now (name → count), read before the claims are patched:
     * the failures a wait counts are those after it. Empty when the Events cannot be read.
     */
    static Map<String, Integer> baseline(Cluster cluster, String namespace) {
        Map<String, Integer> out = new HashMap<>();
        try {
            for (ObjectNode e : cluster.listClaimEvents(namespace).items()) {
                out.put(Objects.name(e), count(e));
            }
        } catch (RuntimeException e) {
            // advice only: the wait's first read is the baseline then
        }
        return out;
    }

    /** Every claim read now with its latest word; the rules' counts brought up to date (and the minute's note said). */
    synchronized List<ClaimGrower.ClaimStatus> read() {
        // the Events and every claim asked together: one round trip per tick
        List<java.util.concurrent.Callable<Object>> reads = new ArrayList<>();
        reads.add(this::events);
        for (String name : targets.keySet()) {
            reads.add(() -> cluster.getClaim(namespace, name));
        }
        List<Object> answers = Together.all(reads);
        @SuppressWarnings("unchecked")
        Map<String, List<ObjectNode>> events = (Map<String, List<ObjectNode>>) answers.get(0);
        List<ClaimGrower.ClaimStatus> out = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, String> t : targets.entrySet()) {
            String name = t.getKey();
            Quantity target = Quantity.parse(t.getValue());
            @SuppressWarnings("unchecked")
            Optional<ObjectNode> claim = (Optional<ObjectNode>) answers.get(++i);
            List<ObjectNode> about = claim.map(c -> forClaim(events.getOrDefault(name, List.of()), Objects.uid(c))).orElse(List.of());
            ClaimGrower.ClaimStatus s = ClaimGrower.status(name, before.getOrDefault(name, ""), target, claim);
            capacityAtStart.putIfAbsent(name, s.capacity());
            claim.ifPresent(c -> drivers.put(name, driverOf(c, about)));
            count(name, about);
            if (claim.isPresent() && (signOfResizer(claim.get()) || about.stream().anyMatch(ResizeSignals::fromAResizer))) {
                signed.put(name, true);
            }
            out.add(s.withLatest(latest(claim, about)));
        }
        baselineTaken(events);
        sayNoSign(out);
        last = List.copyOf(out);
        return last;
    }

    /**
     * The claims as their patches answered a moment ago ({@code answered}: claim → object), said without a read:
     * the wait's first tick, which a read would only tell again. No Event is read (the next {@link #read} does).
     */
    synchronized List<ClaimGrower.ClaimStatus> answered(Map<String, ObjectNode> answered) {
        List<ClaimGrower.ClaimStatus> out = new ArrayList<>();
        for (Map.Entry<String, String> t : targets.entrySet()) {
            String name = t.getKey();
            Optional<ObjectNode> claim = Optional.ofNullable(answered.get(name));
            ClaimGrower.ClaimStatus s = ClaimGrower.status(name, before.getOrDefault(name, ""), Quantity.parse(t.getValue()), claim);
            capacityAtStart.putIfAbsent(name, s.capacity());
            claim.ifPresent(c -> drivers.putIfAbsent(name, driverOf(c, List.of())));
            if (claim.isPresent() && signOfResizer(claim.get())) {
                signed.put(name, true);
            }
            out.add(s);
        }
        last = List.copyOf(out);
        return last;
    }

    /** The claims as last read (none before the first {@link #read}). */
    synchronized List<ClaimGrower.ClaimStatus> last() {
        return last;
    }

    /**
     * Why the wait for {@code claim} must end now ("" when it goes on): its resizer failed
     * {@value #FAILURES_THAT_END} times since the wait began and the capacity has not moved.
     */
    synchronized String failure(String claim) {
        int n = failures.getOrDefault(claim, 0);
        String said = lastFailure.getOrDefault(claim, "");
        Optional<DriverLimits.Limit> known = n == 0 ? Optional.empty() : DriverLimits.failure(drivers.getOrDefault(claim, ""), said);
        if (known.isPresent()) {
            // a driver's known limit: no retry of the resizer changes it, so the wait ends at its first word
            String words = said.endsWith(".") ? said.substring(0, said.length() - 1) : said;
            return "the resizer failed to expand claim " + claim + " (VolumeResizeFailed): " + words + ". " + known.get().advice();
        }
        if (n < FAILURES_THAT_END) {
            return "";
        }
        String capacity = last.stream().filter(c -> c.name().equals(claim)).map(ClaimGrower.ClaimStatus::capacity).findFirst().orElse("");
        if (!capacity.equals(capacityAtStart.getOrDefault(claim, capacity))) {
            return ""; // something grew meanwhile: the resizer works, between failures
        }
        return "the resizer failed " + n + " times to expand claim " + claim + " (VolumeResizeFailed): " + lastFailure.getOrDefault(claim, "");
    }

    // ---- the events ------------------------------------------------------------------------------

    /** The claims' events of the namespace by claim name, or none when they cannot be read (said once). */
    private Map<String, List<ObjectNode>> events() {
        Map<String, List<ObjectNode>> out = new HashMap<>();
        if (eventsUnreadable) {
            return out;
        }
        try {
            for (ObjectNode e : cluster.listClaimEvents(namespace).items()) {
                String name = e.path("involvedObject").path("name").asText("");
                if (targets.containsKey(name) && !ours(e)) {
                    out.computeIfAbsent(name, k -> new ArrayList<>()).add(e);
                }
            }
        } catch (RuntimeException e) {
            eventsUnreadable = true; // forbidden or failing: the claims' own status still speaks
            progress.on(ProgressEvent.info(namespace, sts, Phase.GROW, "the claims' Events cannot be read (" + e.getMessage()
                    + "): the waits show each claim's status only"));
        }
        return out;
    }

    /** An Event this plugin wrote (StorageRequestGrown): not a resizer's word. */
    private static boolean ours(JsonNode e) {
        return Events.CONTROLLER.equals(e.path("reportingComponent").asText(""))
                || Events.CONTROLLER.equals(e.path("source").path("component").asText(""))
                || Events.CONTROLLER.equals(e.path("reportingController").asText(""));
    }

    /** The events about this very claim (a claim deleted and re-created under the name is another object). */
    private static List<ObjectNode> forClaim(List<ObjectNode> events, String uid) {
        return events.stream().filter(e -> {
            String about = e.path("involvedObject").path("uid").asText("");
            return about.isEmpty() || uid.isEmpty() || about.equals(uid);
        }).toList();
    }

    private void baselineTaken(Map<String, List<ObjectNode>> events) {
        if (baseline != null) {
            return;
        }
        baseline = new HashMap<>();
        events.values().forEach(l -> l.forEach(e -> baseline.put(Objects.name(e), count(e))));
    }

    private void count(String claim, List<ObjectNode> about) {
        if (baseline == null) {
            return; // the first read is the baseline
        }
        int n = 0;
        String message = "";
        Instant newest = Instant.EPOCH;
        for (ObjectNode e : about) {
            if (!"VolumeResizeFailed".equals(e.path("reason").asText()) || !DriverLimits.aside(e.path("message").asText()).isEmpty()) {
                continue; // a read-only mount's word is no failure of the run (DriverLimits)
            }
            int since = count(e) - baseline.getOrDefault(Objects.name(e), 0);
            if (since > 0) {
                n += since;
                Instant when = when(e);
                if (!when.isBefore(newest)) {
                    newest = when;
                    message = e.path("message").asText("");
                }
            }
        }
        failures.put(claim, n);
        if (!message.isEmpty()) {
            lastFailure.put(claim, message);
        }
    }

    private static int count(JsonNode e) {
        return Math.max(1, e.path("count").asInt(1));
    }

    /** When the event last happened (metav1.Time, seconds), or the epoch when it says nothing readable. */
    private static Instant when(JsonNode e) {
        for (String field : List.of("lastTimestamp", "eventTime", "firstTimestamp")) {
            String t = e.path(field).asText("");
            if (!t.isEmpty() && !"null".equals(t)) {
                try {
                    return Instant.parse(t);
                } catch (java.time.format.DateTimeParseException ignored) {
                    // untrusted input: the next field, or the epoch
                }
            }
        }
        return Instant.EPOCH;
    }

    /**
     * The newer of two events; in the same second (metav1.Time keeps seconds, and external-resizer writes
     * Resizing and VolumeResizeFailed in one attempt) a warning is the newer word.
     */
    private static int newer(JsonNode a, JsonNode b) {
        int byTime = when(a).compareTo(when(b));
        if (byTime != 0) {
            return byTime;
        }
        return Boolean.compare("Warning".equals(a.path("type").asText()), "Warning".equals(b.path("type").asText()));
    }

    /**
     * The claim's CSI driver: its provisioner annotation (set on every dynamically provisioned claim), else the
     * component of a resizer's event ("external-resizer DRIVER").
     */
    private static String driverOf(ObjectNode claim, List<ObjectNode> about) {
        for (String a : List.of("volume.kubernetes.io/storage-provisioner", "volume.beta.kubernetes.io/storage-provisioner")) {
            String p = claim.path("metadata").path("annotations").path(a).asText("");
            if (!p.isEmpty()) {
                return p;
            }
        }
        for (ObjectNode e : about) {
            String component = e.path("source").path("component").asText(e.path("reportingComponent").asText(""));
            if (component.startsWith("external-resizer ")) {
                return component.substring("external-resizer ".length());
            }
        }
        return "";
    }

    /** An event from anyone but the expand controller, whose ExternalExpanding only hands the claim to a resizer. */
    private static boolean fromAResizer(JsonNode e) {
        return !"ExternalExpanding".equals(e.path("reason").asText());
    }

    /** The claim's status shows a resizer at work: an allocation status, or one of the resize conditions. */
    private static boolean signOfResizer(ObjectNode claim) {
        if (!Metadata.textOrEmpty(claim, "status", "allocatedResourceStatuses", "storage").isEmpty()) {
            return true;
        }
        for (String type : List.of("Resizing", "FileSystemResizePending", "ControllerResizeError", "NodeResizeError")) {
            if (Objects.hasCondition(claim, type)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The claim's latest word, for the views: the newest event (reason, how often, its message) and the
     * allocation status; "" when there is none.
     */
    private static String latest(Optional<ObjectNode> claim, List<ObjectNode> about) {
        List<String> parts = new ArrayList<>();
        about.stream().max(ResizeSignals::newer).ifPresent(e -> {
            int n = count(e);
            String message = e.path("message").asText("");
            parts.add(e.path("reason").asText() + (n > 1 ? " ×" + n : "") + ": " + message + DriverLimits.aside(message));
        });
        claim.map(c -> Metadata.textOrEmpty(c, "status", "allocatedResourceStatuses", "storage")).filter(s -> !s.isEmpty())
                .ifPresent(s -> parts.add("allocatedResourceStatuses " + s));
        return String.join("; ", parts);
    }

    /** Once a minute, the claims still waiting with no sign of a resizer. */
    private void sayNoSign(List<ClaimGrower.ClaimStatus> claims) {
        long minutes = Duration.between(started, clock.instant()).dividedBy(NO_SIGN_EVERY);
        if (minutes <= minutesSaid) {
            return;
        }
        minutesSaid = (int) minutes;
        List<String> silent = claims.stream().filter(c -> !c.state().settled() && !signed.getOrDefault(c.name(), false))
                .map(ClaimGrower.ClaimStatus::name).toList();
        if (silent.isEmpty()) {
            return;
        }
        progress.on(ProgressEvent.warn(namespace, sts, Phase.GROW, "no sign of a resizer for " + minutes + " minute(s) on claim(s) "
                + String.join(", ", silent) + ": no Resizing, no VolumeResizeFailed, no allocatedResourceStatuses"
                + " (ExternalExpanding only says the expand controller handed the claim to an external resizer). Without one"
                + " the volume never grows: check that the CSI driver of its StorageClass runs an external-resizer"
                + " (kubectl describe pvc " + silent.get(0) + " -n " + namespace + ")"));
    }
}
