package dev.stsresize.usage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.cluster.ObjectList;
import dev.stsresize.cluster.ServerUnreachable;
import dev.stsresize.plan.ClaimNames;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Durations;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.SizingPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How full the claims of some StatefulSets are, read through the {@link Cluster} port: one pod LIST and one
 * ResourceQuota LIST per namespace scope, then ONE kubelet summary per node running a pod of those
 * StatefulSets, {@value #PARALLEL} at a time, all within one deadline; Prometheus' series when a source is given.
 *
 * <p>Usage is advice: nothing here throws or blocks a verdict. What cannot be read becomes a note, said once
 * ({@code usage unknown (cannot get nodes/proxy)}; a node that did not answer, named; a Prometheus not used).
 * What the kubelets and Prometheus answer is untrusted: negative or non-numeric bytes are skipped, and only
 * claims named {@code <template>-<statefulset>-<ordinal>} of a listed StatefulSet are kept.
 */
public final class UsageReader {
    public static final String NODES_PROXY_FORBIDDEN = "usage unknown (cannot get nodes/proxy)";
    /** Summaries in flight at once: enough to read 200 nodes in a few round trips, few enough for any API server. */
    static final int PARALLEL = 32;
    /** Nodes named one by one in the notes; more are counted. */
    static final int NAMED_NODES = 3;

    private final Cluster cluster;
    private final Duration timeout;
    private final Optional<PrometheusSource> prometheus;
    private final Clock clock;

    public UsageReader(Cluster cluster, Duration timeout, Optional<PrometheusSource> prometheus, Clock clock) {
        this.cluster = cluster;
        this.timeout = timeout;
        this.prometheus = prometheus;
        this.clock = clock;
    }

    /**
     * What was measured, before it is matched to StatefulSets and sized: the claims by {@code namespace/claim},
     * their times to full (Prometheus), each namespace's quota room, and the notes; and what tells why a claim was
     * not measured ({@link Unmeasured}).
     */
    public record Measurement(Map<String, ClaimUsage> claims, Map<String, Optional<Duration>> fillsIn, Map<String, Long> quotaRoom,
            List<String> notes, Instant readAt, Unmeasured unmeasured) {
        public Measurement(Map<String, ClaimUsage> claims, Map<String, Optional<Duration>> fillsIn, Map<String, Long> quotaRoom,
                List<String> notes, Instant readAt) {
            this(claims, fillsIn, quotaRoom, notes, readAt, Unmeasured.NOTHING);
        }
    }

    /**
     * @param statefulSets the live StatefulSets to read the usage of
     * @param scopes where to LIST pods and quotas: all namespaces, or each namespace of the StatefulSets
     */
    public UsageReport read(List<ObjectNode> statefulSets, List<NamespaceScope> scopes, SizingPolicy policy) {
        return read(statefulSets, scopes, Optional.empty(), policy);
    }

    /** As {@link #read(List, List, SizingPolicy)}, with the pods already listed by the caller (none listed again). */
    public UsageReport read(List<ObjectNode> statefulSets, List<NamespaceScope> scopes, Optional<List<ObjectNode>> pods,
            SizingPolicy policy) {
        Set<String> keys = new java.util.HashSet<>();
        targets(statefulSets).forEach(t -> keys.add(t.key()));
        return report(measure(keys, scopes, pods), statefulSets, policy);
    }

    /**
     * Measures the claims of the StatefulSets named by {@code statefulSetKeys} ({@code namespace/name}) without
     * their objects, so that it can run while the plan's own LISTs and dry runs do; {@link #report} sizes them.
     */
    public Measurement measure(Set<String> statefulSetKeys, List<NamespaceScope> scopes, Optional<List<ObjectNode>> pods) {
        if (statefulSetKeys.isEmpty()) {
            return new Measurement(new HashMap<>(), new HashMap<>(), Map.of(), new ArrayList<>(), clock.instant());
        }
        return measure(start(scopes, pods), statefulSetKeys);
    }

    /**
     * The requests that do not need the StatefulSets' names, sent now: the pod and ResourceQuota LISTs of
     * {@code scopes} and, when those are all namespaces, Prometheus' queries ({@code plan -A} starts them before
     * it reads the manifest). {@link #measure(Started, Set)} goes on from them.
     */
    public Started start(List<NamespaceScope> scopes) {
        return start(scopes, Optional.empty());
    }

    private Started start(List<NamespaceScope> scopes, Optional<List<ObjectNode>> pods) {
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL, r -> {
            Thread t = new Thread(r, "stsresize-usage");
            t.setDaemon(true); // a node that hangs past the deadline never holds the command's exit
            return t;
        });
        Instant started = clock.instant();
        // the pods become their nodes by StatefulSet as soon as they are read: 6,000 pod trees held to the end of the
        // plan were copied by every young collection after them
        Future<Map<String, List<Unmeasured.Placed>>> podList = pods.isPresent() ? null
                : pool.submit(() -> placements(listAll(scopes, cluster::listPods)));
        Future<List<ObjectNode>> quotaList = pool.submit(() -> listAll(scopes, cluster::listResourceQuotas));
        Future<PrometheusReading> promFuture = prometheus.isPresent() && scopes.stream().anyMatch(NamespaceScope::isAll)
                ? pool.submit(() -> PrometheusReading.read(prometheus.get(), Set.of(), pool)) : null;
        return new Started(pool, scopes, pods, podList, quotaList, promFuture, started);
    }

    /** What {@link #start} sent, under way; {@link #measure(Started, Set)} takes it over and ends its threads. */
    public static final class Started {
        private final ExecutorService pool;
        private final List<NamespaceScope> scopes;
        private final Optional<List<ObjectNode>> pods;
        private final Future<Map<String, List<Unmeasured.Placed>>> podList;
        private final Future<List<ObjectNode>> quotaList;
        private final Future<PrometheusReading> promFuture;
        private final Instant at;

        private Started(ExecutorService pool, List<NamespaceScope> scopes, Optional<List<ObjectNode>> pods,
                Future<Map<String, List<Unmeasured.Placed>>> podList, Future<List<ObjectNode>> quotaList, Future<PrometheusReading> promFuture,
                Instant at) {
            this.pool = pool;
            this.scopes = scopes;
            this.pods = pods;
            this.podList = podList;
            this.quotaList = quotaList;
            this.promFuture = promFuture;
            this.at = at;
        }
    }

    /** Goes on from {@code s} with the StatefulSets' names: the summaries of the nodes that run their pods. */
    public Measurement measure(Started s, Set<String> statefulSetKeys) {
        List<String> notes = new ArrayList<>();
        Map<String, ClaimUsage> measured = new HashMap<>(); // by namespace/claim
        Map<String, Optional<Duration>> fillsIn = new HashMap<>();
        try {
            if (statefulSetKeys.isEmpty()) {
                return new Measurement(measured, fillsIn, Map.of(), notes, s.at);
            }
            Future<PrometheusReading> promFuture = s.promFuture;
            if (promFuture == null && prometheus.isPresent()) {
                Set<String> namespaces = namespacesOf(s.scopes, statefulSetKeys);
                promFuture = s.pool.submit(() -> PrometheusReading.read(prometheus.get(), namespaces, s.pool));
            }
            int notesBefore = notes.size();
            Map<String, List<Unmeasured.Placed>> placed = s.pods.map(UsageReader::placements).orElseGet(() -> awaitPods(s.podList, notes));
            boolean podsListed = notes.size() == notesBefore;
            Map<String, List<Unmeasured.Placed>> own = new HashMap<>();
            Set<String> nodes = new TreeSet<>();
            for (String k : statefulSetKeys) {
                List<Unmeasured.Placed> pods = placed.getOrDefault(k, List.of());
                own.put(k, pods);
                // the kubelet mounts only a scheduled pod's claims, and summarises only its running pods
                pods.stream().filter(Unmeasured.Placed::running).forEach(p -> nodes.add(p.node()));
            }
            Summaries summaries = readSummaries(s.pool, nodes, notes, measured);
            Unmeasured unmeasured = new Unmeasured(podsListed, own, summaries.forbidden(), summaries.unread(), summaries.unusable());

            Map<String, Long> quotaRoom = quotaRoom(awaitQuotas(s.quotaList, notes));
            if (promFuture != null) {
                PrometheusReading reading = awaitPrometheus(promFuture);
                reading.note().ifPresent(notes::add);
                merge(reading, measured, fillsIn);
            }
            return new Measurement(measured, fillsIn, quotaRoom, notes, s.at, unmeasured);
        } finally {
            s.pool.shutdownNow();
        }
    }

    /**
     * The measured claims matched to {@code statefulSets} (by {@code <template>-<name>-<ordinal>}) and sized; the claims
     * of their ordinals that were not measured, each with why.
     */
    public static UsageReport report(Measurement m, List<ObjectNode> statefulSets, SizingPolicy policy) {
        List<UsageReport.Target> targets = targets(statefulSets);
        return new UsageReport(targets, claimsOf(targets, m.claims(), m.fillsIn()), m.quotaRoom(), policy, m.notes(), m.readAt(),
                m.unmeasured().of(targets, m.claims().keySet()));
    }

    // ---- the StatefulSets, their pods and nodes ----

    private static List<UsageReport.Target> targets(List<ObjectNode> statefulSets) {
        List<UsageReport.Target> out = new ArrayList<>();
        for (ObjectNode sts : statefulSets) {
            Map<String, String> templates = new LinkedHashMap<>();
            for (JsonNode t : sts.path("spec").path("volumeClaimTemplates")) {
                String name = t.path("metadata").path("name").asText("");
                String size = t.path("spec").path("resources").path("requests").path("storage").asText("");
                if (!name.isEmpty() && !size.isEmpty()) {
                    templates.put(name, size);
                }
            }
            String ns = sts.path("metadata").path("namespace").asText("");
            String name = sts.path("metadata").path("name").asText("");
            // the API server defaults replicas to 1 and ordinals.start to 0; anything else read is untrusted
            JsonNode replicas = sts.path("spec").path("replicas");
            JsonNode start = sts.path("spec").path("ordinals").path("start");
            int count = replicas.isIntegralNumber() && replicas.canConvertToInt() ? Math.max(0, replicas.intValue()) : 1;
            int first = start.isIntegralNumber() && start.canConvertToInt() ? Math.max(0, start.intValue()) : 0;
            if (!templates.isEmpty() && !ns.isEmpty() && !name.isEmpty()) {
                out.add(new UsageReport.Target(ns, name, templates, first, count));
            }
        }
        return out;
    }

    /**
     * The pods of each StatefulSet ({@code namespace/name} of its controller): where each runs and in what phase, so
     * that the nodes to ask are known and a claim no summary measured can be told why.
     */
    private static Map<String, List<Unmeasured.Placed>> placements(List<ObjectNode> pods) {
        Map<String, List<Unmeasured.Placed>> out = new HashMap<>();
        for (ObjectNode pod : pods) {
            JsonNode meta = pod.path("metadata");
            for (JsonNode ref : meta.path("ownerReferences")) {
                if (ref.path("controller").asBoolean(false) && "StatefulSet".equals(ref.path("kind").asText())) {
                    String key = Metadata.key(meta.path("namespace").asText(""), ref.path("name").asText(""));
                    out.computeIfAbsent(key, k -> new ArrayList<>()).add(new Unmeasured.Placed(meta.path("name").asText(""),
                            pod.path("spec").path("nodeName").asText(""), pod.path("status").path("phase").asText(""),
                            meta.hasNonNull("deletionTimestamp")));
                }
            }
        }
        return out;
    }

    // ---- summaries ----

    /** What the summaries left unread: forbidden, nodes that did not answer (node → why), volumes not usable (key → why). */
    private record Summaries(boolean forbidden, Map<String, String> unread, Map<String, String> unusable) {}

    private Summaries readSummaries(ExecutorService pool, Set<String> nodes, List<String> notes, Map<String, ClaimUsage> measured) {
        // the bound is the summaries' own: the LISTs before them are ordinary API requests, as the plan's are
        Instant started = clock.instant();
        Map<String, Future<ObjectNode>> pending = new LinkedHashMap<>();
        for (String node : nodes) {
            pending.put(node, pool.submit(() -> cluster.nodeSummary(node, remaining(started))));
        }
        boolean forbidden = false;
        Map<String, String> silent = new TreeMap<>();
        Map<String, String> unusable = new HashMap<>();
        for (Map.Entry<String, Future<ObjectNode>> e : pending.entrySet()) {
            try {
                long left = Math.max(1, remaining(started).toMillis());
                summaryVolumes(e.getValue().get(left, TimeUnit.MILLISECONDS), measured, unusable);
            } catch (TimeoutException x) {
                e.getValue().cancel(true);
                silent.put(e.getKey(), "it did not answer within " + Durations.brief(timeout));
            } catch (ExecutionException x) {
                Throwable cause = x.getCause();
                if (cause instanceof ClusterException c && c.code() == 403) {
                    forbidden = true;
                } else if (cause instanceof ServerUnreachable) {
                    silent.put(e.getKey(), "it did not answer within " + Durations.brief(timeout));
                } else {
                    silent.put(e.getKey(), cause.getMessage());
                }
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                notes.add("usage reading interrupted");
                return new Summaries(true, silent, unusable);
            }
        }
        if (forbidden) {
            notes.add(NODES_PROXY_FORBIDDEN);
        }
        notes.addAll(silentNotes(silent));
        return new Summaries(forbidden, silent, unusable);
    }

    /** One note per node that did not answer; past {@value #NAMED_NODES} nodes, one note per reason naming the first few. */
    static List<String> silentNotes(Map<String, String> silent) {
        List<String> out = new ArrayList<>();
        if (silent.size() <= NAMED_NODES) {
            silent.forEach((node, why) -> out.add("usage on node " + node + " unknown: " + why));
            return out;
        }
        Map<String, List<String>> byWhy = new TreeMap<>();
        silent.forEach((node, why) -> byWhy.computeIfAbsent(why, w -> new ArrayList<>()).add(node));
        byWhy.forEach((why, list) -> out.add(list.size() == 1 ? "usage on node " + list.get(0) + " unknown: " + why : "usage on " + list.size() + " nodes unknown (" + String.join(", ", list.subList(0, Math.min(NAMED_NODES, list.size())))
                + (list.size() > NAMED_NODES ? ", …" : "") + "): " + why.replace("it did not", "they did not")));
        return out;
    }

    private Duration remaining(Instant started) {
        Duration left = timeout.minus(Duration.between(started, clock.instant()));
        return left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left;
    }

    /**
     * {@code pods[].volume[]} with a {@code pvcRef}: the kubelet's own measure of each mounted claim (statfs's, see
     * {@link ClaimUsage}). All three figures are needed: without {@code availableBytes} the alert's measure is not
     * known, and capacity − used would hide the reserved blocks; such a volume is told why in {@code unusable}.
     */
    private static void summaryVolumes(ObjectNode summary, Map<String, ClaimUsage> measured, Map<String, String> unusable) {
        if (summary == null) {
            return;
        }
        for (JsonNode pod : summary.path("pods")) {
            for (JsonNode v : pod.path("volume")) {
                JsonNode ref = v.path("pvcRef");
                String ns = ref.path("namespace").asText("");
                String claim = ref.path("name").asText("");
                if (ns.isEmpty() || claim.isEmpty()) {
                    continue;
                }
                long used = bytes(v.path("usedBytes"));
                long capacity = bytes(v.path("capacityBytes"));
                long available = bytes(v.path("availableBytes"));
                String key = Metadata.key(ns, claim);
                if (used < 0 || capacity <= 0 || available < 0) {
                    String missing = capacity <= 0 ? "capacityBytes" : available < 0 ? "availableBytes" : "usedBytes";
                    unusable.put(key, "the kubelet's summary has no usable " + missing + " for it");
                    continue;
                }
                measured.put(key, new ClaimUsage(claim, used, capacity, available, Optional.empty()));
                unusable.remove(key);
            }
        }
    }

    private static long bytes(JsonNode n) {
        return n.canConvertToLong() && n.isIntegralNumber() ? n.asLong() : -1;
    }

    // ---- Prometheus ----

    private PrometheusReading awaitPrometheus(Future<PrometheusReading> f) {
        try {
            // its own requests are bounded by the timeout: a little more for the four of them in a row
            return f.get(timeout.toMillis() * 4 + 1000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            f.cancel(true);
            return PrometheusReading.failed(prometheus.get(), "no answer within " + Durations.brief(timeout));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PrometheusReading.none();
        }
    }

    /**
     * Prometheus fills in claims no summary measured (nodes/proxy forbidden) and gives every claim its rate; a claim
     * needs all three series, as from a summary: the alert's measure is available ÷ capacity.
     */
    private static void merge(PrometheusReading reading, Map<String, ClaimUsage> measured, Map<String, Optional<Duration>> fillsIn) {
        reading.byClaim().forEach((key, s) -> {
            ClaimUsage known = measured.get(key);
            if (known == null && s.used() >= 0 && s.capacity() > 0 && s.available() >= 0) {
                known = new ClaimUsage(key.substring(key.indexOf('/') + 1), (long) s.used(), (long) s.capacity(), (long) s.available(),
                        Optional.empty());
                measured.put(key, known);
            }
            if (known != null) {
                fillsIn.put(key, PrometheusReading.fillsIn(known.availableBytes(), s.rate()));
            }
        });
    }

    private static Set<String> namespacesOf(List<NamespaceScope> scopes, Set<String> keys) {
        if (scopes.stream().anyMatch(NamespaceScope::isAll)) {
            return Set.of();
        }
        Set<String> out = new TreeSet<>();
        keys.forEach(k -> out.add(k.substring(0, k.indexOf('/'))));
        return out;
    }

    // ---- claims by StatefulSet ----

    private static Map<String, List<ClaimUsage>> claimsOf(List<UsageReport.Target> targets, Map<String, ClaimUsage> measured,
            Map<String, Optional<Duration>> fillsIn) {
        // each claim looked up by the names it can carry (<template>-<statefulset>-<ordinal>, one StatefulSet per
        // template), not every StatefulSet tried against every claim: 2,000 x 6,000 checks sat on the plan's critical path
        Map<String, UsageReport.Target> byKey = new HashMap<>();
        Map<String, Set<String>> templatesByNamespace = new HashMap<>();
        for (UsageReport.Target t : targets) {
            byKey.put(t.key(), t);
            templatesByNamespace.computeIfAbsent(t.namespace(), n -> new TreeSet<>()).addAll(t.templates().keySet());
        }
        Map<String, List<ClaimUsage>> found = new HashMap<>();
        measured.forEach((key, c) -> {
            String ns = key.substring(0, key.indexOf('/'));
            for (String template : templatesByNamespace.getOrDefault(ns, Set.of())) {
                int last = c.claim().lastIndexOf('-');
                if (!c.claim().startsWith(template + "-") || last <= template.length() + 1) {
                    continue;
                }
                String name = c.claim().substring(template.length() + 1, last);
                UsageReport.Target t = byKey.get(Metadata.key(ns, name));
                if (t != null && t.templates().containsKey(template) && ClaimNames.ordinalOf(c.claim(), template, name).isPresent()) {
                    found.computeIfAbsent(t.key(), k -> new ArrayList<>()).add(fillsIn.containsKey(key) ? c.withFillsIn(fillsIn.get(key)) : c);
                }
            }
        });
        Map<String, List<ClaimUsage>> out = new LinkedHashMap<>();
        for (UsageReport.Target t : targets) {
            List<ClaimUsage> own = new ArrayList<>(found.getOrDefault(t.key(), List.of()));
            own.sort(java.util.Comparator.comparing(ClaimUsage::claim));
            if (!own.isEmpty()) {
                out.put(t.key(), own);
            }
        }
        return out;
    }

    // ---- lists and quotas ----

    private interface Lister {
        ObjectList list(NamespaceScope scope);
    }

    private static List<ObjectNode> listAll(List<NamespaceScope> scopes, Lister lister) {
        List<ObjectNode> out = new ArrayList<>();
        for (NamespaceScope s : scopes) {
            out.addAll(lister.list(s).items());
        }
        return out;
    }

    private static Map<String, List<Unmeasured.Placed>> awaitPods(Future<Map<String, List<Unmeasured.Placed>>> f, List<String> notes) {
        return await(f, Map.of(), notes, (forbidden, why) -> forbidden ? "usage unknown (cannot list pods)" : "usage unknown: " + why);
    }

    private static List<ObjectNode> awaitQuotas(Future<List<ObjectNode>> f, List<String> notes) {
        return await(f, List.of(), notes, (forbidden, why) -> "storage quota unknown"
                + (forbidden ? " (cannot list resourcequotas)" : ": " + why) + "; suggestions not capped");
    }

    /** What {@code f} answers; on a failure {@code none} and one note (told whether it was a 403, and the message). */
    private static <T> T await(Future<T> f, T none, List<String> notes, java.util.function.BiFunction<Boolean, String, String> note) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            notes.add(note.apply(cause instanceof ClusterException c && c.code() == 403, cause.getMessage()));
            return none;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return none;
        }
    }

    /** Per namespace, the least room any quota on {@code requests.storage} leaves (hard − used). */
    static Map<String, Long> quotaRoom(List<ObjectNode> quotas) {
        Map<String, Long> room = new HashMap<>();
        for (ObjectNode q : quotas) {
            Quantity hard = Quantity.parseOrNull(q.path("status").path("hard").path("requests.storage").asText(
                    q.path("spec").path("hard").path("requests.storage").asText("")));
            Quantity used = Quantity.parseOrNull(q.path("status").path("used").path("requests.storage").asText(""));
            String ns = q.path("metadata").path("namespace").asText("");
            if (hard == null || used == null || ns.isEmpty()) {
                continue; // not on storage, or not yet counted by the quota controller
            }
            long left = hard.value().subtract(used.value()).max(java.math.BigDecimal.ZERO).min(java.math.BigDecimal.valueOf(Long.MAX_VALUE))
                    .longValue();
            room.merge(ns, left, Math::min);
        }
        return room;
    }
}
