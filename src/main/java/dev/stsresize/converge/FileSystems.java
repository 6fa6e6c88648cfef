package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.WatchedKind;
import dev.stsresize.plan.Bytes;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import dev.stsresize.usage.SummaryVolumes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Each claim followed to the file system its pod writes to, after the re-apply (or the claims-only
 * grow): the volume having grown is not the pod having the space. The kubelet grows a mounted file
 * system online on the pod's next sync, seconds after the resizer; it has done so when the claim
 * keeps no {@code FileSystemResizePending} condition and no {@code NodeResizePending} or
 * {@code NodeResizeInProgress} in {@code allocatedResourceStatuses} (KEP-1790: pkg/volume/util/resize_util.go
 * MarkNodeExpansionFinishedWithRecovery clears both), and, where its summary can be read (nodes/proxy),
 * when the capacity it reports for the volume is the target less the file system's own overhead
 * ({@link #OVERHEAD}). A driver that grows only unpublished volumes refuses while the pod runs
 * ({@code NodeResizeError}, MarkNodeExpansionFailedCondition): that file system waits for a restart.
 * Every wait goes through the {@link Waiter}, bounded by the run's file system deadline.
 */
final class FileSystems {
    /**
     * How far below its target a grown file system may report its capacity: ext4's inode tables and
     * journal take 1.5–3 % of a volume, XFS's less. A file system not grown reports at most its old size,
     * below the target by the growth itself.
     */
    static final double OVERHEAD = 0.05;
    /** A reported capacity more than this many times the target is not the claim's own file system (the node's disk). */
    static final double SHARED = 2.0;
    /** How long one summary may take: it is advice about the wait, never a reason to wait longer. */
    private static final Duration SUMMARY_TIMEOUT = Duration.ofSeconds(10);

    /** One claim's file system as last read: its state, the capacity the kubelet reported (-1 none), its pod, why. */
    record Checked(String claim, FileSystem state, long bytes, String pod, String why) {}

    /**
     * How long a pod or a kubelet's summary, once read, stands for the present: one wait stretch
     * ({@link Waiter#TICK}). The kubelet refreshes its volume stats once per its volume measure period
     * (pkg/kubelet/server/stats/volume_stat_calculator.go, every --volume-stats-agg-period, 1m by
     * default), so reading its summary at each change of a claim would only read the same numbers again.
     */
    static final Duration FRESH = Waiter.TICK;

    private final Cluster cluster;
    private final Waiter waiter;
    private final Clock clock;
    private volatile boolean summariesForbidden;
    /** Each node whose summary could not be read, with why, in name order: the summaries are read together. */
    private final Map<String, String> unreadable = new java.util.concurrent.ConcurrentSkipListMap<>();
    /** A read and when it was made. */
    private record Seen<T>(T value, Instant at) {}
    /** Pods by name as last read ({@link #FRESH}). */
    private final Map<String, Seen<Optional<ObjectNode>>> pods = new java.util.concurrent.ConcurrentHashMap<>();
    /** Each node's volume capacities (namespace/claim → bytes) as its kubelet last reported them ({@link #FRESH}); null: unreadable. */
    private final Map<String, Seen<Map<String, Long>>> summaries = new java.util.concurrent.ConcurrentHashMap<>();

    /** Claims and pods read just before (by the verification), at {@code at}: the first look's reads where they are fresh. */
    record Seeds(Instant at, Map<String, Optional<ObjectNode>> claims, Map<String, Optional<ObjectNode>> pods) {}

    /** The claims as the {@link Seeds} gave them, and when they were read (none: read them). */
    private Seen<Map<String, Optional<ObjectNode>>> seededClaims;

    /** Takes {@code seeds} as read: the pods as any pod read, the claims for the first look, each within {@link #FRESH}. */
    void seed(Seeds seeds) {
        seeds.pods().forEach((name, pod) -> pods.put(name, new Seen<>(pod, seeds.at())));
        seededClaims = new Seen<>(seeds.claims(), seeds.at());
    }

    FileSystems(Cluster cluster, Waiter waiter, Clock clock) {
        this.cluster = cluster;
        this.waiter = waiter;
        this.clock = clock;
    }

    /** Why no summary was read ("" when each was, or none was needed): said once in the result. */
    String summaryNote() {
        if (summariesForbidden) {
            return "the kubelets' summaries cannot be read (get nodes/proxy is forbidden): file systems verified from"
                    + " the claims' status only";
        }
        if (unreadable.isEmpty()) {
            return "";
        }
        if (unreadable.size() == 1) {
            Map.Entry<String, String> one = unreadable.entrySet().iterator().next();
            return "the summary of node " + one.getKey() + " could not be read (" + one.getValue() + "): its file systems verified"
                    + " from the claims' status only";
        }
        java.util.List<String> each = new java.util.ArrayList<>();
        unreadable.forEach((node, why) -> each.add(node + " (" + why + ")"));
        return "the summaries of nodes " + String.join(", ", each) + " could not be read: their file systems verified from the"
                + " claims' status only";
    }

    /**
     * Each claim of {@code targets} followed until its file system is grown, cannot grow without a pod
     * (re)start, or {@code deadline}; a stop request or the driver going on ({@code goneOn}) ends every
     * wait, the claims then read as they are. {@code claims} reads every claim for the wait's ticks.
     */
    Map<String, Checked> follow(String ns, String sts, Map<String, String> targets, Instant deadline, StopRequest goneOn,
            java.util.function.Supplier<java.util.List<ClaimGrower.ClaimStatus>> claims) {
        Instant since = clock.instant();
        Map<String, Optional<ObjectNode>> read = readTogether(ns, sts, targets);
        Map<String, Checked> out = new LinkedHashMap<>();
        boolean cut = false;
        boolean waited = false;
        for (Map.Entry<String, String> t : targets.entrySet()) {
            String claim = t.getKey();
            Quantity target = Quantity.parse(t.getValue());
            // a claim read before an earlier claim's wait is read again: it may have grown meanwhile, and neither the
            // result nor a wait may stand on the older read
            Optional<ObjectNode> last = waited ? cluster.getClaim(ns, claim) : read.get(claim);
            Checked c = check(ns, sts, claim, target, last);
            while (!cut && c.state() == FileSystem.PENDING && clock.instant().isBefore(deadline)) {
                // one stretch at a time: the summary is not watched, so it is read again once a stretch has passed;
                // the ticks count down to the run's deadline, not the stretch's end
                Instant stretch = min(deadline, clock.instant().plus(Waiter.TICK));
                Checked[] seen = {c};
                waited = true;
                Waiter.Result r = waiter.until(Waiter.Wait.of(ns, sts, Phase.FILE_SYSTEMS, "the kubelet to grow the file system of claim "
                        + claim + " to " + target, WatchedKind.PERSISTENT_VOLUME_CLAIM, claim, o -> {
                            seen[0] = check(ns, sts, claim, target, o);
                            return seen[0].state() != FileSystem.PENDING;
                        }, stretch).withGoneOn(goneOn).withClaims(claims).from(last.orElse(null)).within(since, deadline));
                c = seen[0];
                last = r.object();
                cut = r.end() == Waiter.End.STOPPED || r.end() == Waiter.End.WENT_ON;
            }
            out.put(claim, c);
        }
        return out;
    }

    /**
     * Every claim of {@code targets} and its pod read together, then the summary of each node whose claims
     * it may settle, together: what the first check of every claim needs, in two round trips.
     */
    private Map<String, Optional<ObjectNode>> readTogether(String ns, String sts, Map<String, String> targets) {
        java.util.List<String> names = java.util.List.copyOf(targets.keySet());
        Seen<Map<String, Optional<ObjectNode>>> seeded = seededClaims;
        seededClaims = null;
        boolean useSeeds = seeded != null && fresh(seeded) && seeded.value().keySet().containsAll(names);
        java.util.List<java.util.concurrent.Callable<Optional<ObjectNode>>> reads = new java.util.ArrayList<>();
        for (String claim : names) {
            reads.add(useSeeds ? () -> seeded.value().get(claim) : () -> cluster.getClaim(ns, claim));
            reads.add(() -> pod(ns, podOf(sts, claim)));
        }
        java.util.List<Optional<ObjectNode>> answers = Together.all(reads);
        Map<String, Optional<ObjectNode>> claims = new LinkedHashMap<>();
        java.util.Set<String> nodes = new java.util.LinkedHashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String claim = names.get(i);
            Optional<ObjectNode> c = answers.get(2 * i);
            claims.put(claim, c);
            Optional<ObjectNode> p = answers.get(2 * i + 1).filter(x -> mounts(x, claim));
            if (c.isPresent() && p.isPresent() && !kubeletUnfinished(c.get()) && grownByStatus(c.get(), Quantity.parse(targets.get(claim)))) {
                nodeToAsk(p.get()).ifPresent(nodes::add);
            }
        }
        java.util.List<java.util.concurrent.Callable<Object>> asks = new java.util.ArrayList<>();
        nodes.forEach(n -> asks.add(() -> summary(n)));
        Together.all(asks);
        return claims;
    }

    /** Drops every pod and summary read: after a pod restart they say nothing of the present. */
    void forget() {
        pods.clear();
        summaries.clear();
    }

    /**
     * Whether the kubelet has yet to grow the claim's file system: a {@code FileSystemResizePending}
     * condition, or a node resize status in {@code allocatedResourceStatuses} ({@code NodeResizePending},
     * {@code NodeResizeInProgress}, {@code NodeResizeInfeasible}: the v1.32 values of core/v1
     * ClaimResourceStatus on the node's side; pkg/volume/util/resize_util.go MarkNodeExpansionFinishedWithRecovery
     * clears the status once the kubelet has grown it, and an infeasible node expansion has not). The one
     * reading of it, for the wait and for every later look at a run's result.
     */
    static boolean kubeletUnfinished(ObjectNode claim) {
        String resizing = Metadata.textOrEmpty(claim, "status", "allocatedResourceStatuses", "storage");
        return Objects.hasCondition(claim, "FileSystemResizePending") || NODE_RESIZING.contains(resizing);
    }

    private static final java.util.Set<String> NODE_RESIZING = java.util.Set.of("NodeResizePending", "NodeResizeInProgress",
            "NodeResizeInfeasible");

    private static boolean grownByStatus(ObjectNode claim, Quantity target) {
        Quantity capacity = Quantity.parseOrNull(Metadata.textOrEmpty(claim, "status", "capacity", "storage"));
        return capacity != null && !capacity.isLessThan(target);
    }

    private static String podOf(String sts, String claim) {
        return sts + claim.substring(claim.lastIndexOf('-'));
    }

    /** Where the file system of {@code claim} (as read; empty when gone) stands now. */
    Checked check(String ns, String sts, String claim, Quantity target, Optional<ObjectNode> read) {
        if (read.isEmpty()) {
            return new Checked(claim, FileSystem.UNKNOWN, -1, "", "the claim no longer exists");
        }
        ObjectNode c = read.get();
        String podName = podOf(sts, claim);
        Optional<ObjectNode> pod = pod(ns, podName).filter(p -> mounts(p, claim));
        String pod0 = pod.isPresent() ? podName : "";
        String resizing = Metadata.textOrEmpty(c, "status", "allocatedResourceStatuses", "storage");
        if (kubeletUnfinished(c)) {
            if (pod.isEmpty()) {
                return new Checked(claim, FileSystem.NO_POD, -1, "", "no pod mounts it: its file system grows when a pod next mounts it");
            }
            Optional<String> refused = Objects.conditionMessage(c, "NodeResizeError");
            if (refused.isPresent()) {
                return new Checked(claim, FileSystem.WAITS_FOR_RESTART, -1, pod0, "the kubelet could not grow it while pod " + podName
                        + " runs (" + refused.get() + ")");
            }
            return new Checked(claim, FileSystem.PENDING, -1, pod0, "the kubelet has not grown it yet"
                    + (resizing.isEmpty() ? " (FileSystemResizePending)" : " (" + resizing + ")"));
        }
        Quantity capacity = Quantity.parseOrNull(Metadata.textOrEmpty(c, "status", "capacity", "storage"));
        if (capacity == null || capacity.isLessThan(target)) {
            return new Checked(claim, FileSystem.UNKNOWN, -1, pod0, "its volume has not reached " + target + " (capacity "
                    + (capacity == null ? "unknown" : capacity.toString()) + ")");
        }
        if (pod.isEmpty()) {
            return new Checked(claim, FileSystem.GROWN, -1, "", "grown, as its status says (no pod mounts it now)");
        }
        long bytes = summaryCapacity(ns, claim, pod.get());
        long targetBytes = bytesOf(target);
        if (bytes < 0) {
            return new Checked(claim, FileSystem.GROWN, -1, pod0, "grown, as its status says");
        }
        if (bytes > SHARED * targetBytes) {
            return new Checked(claim, FileSystem.GROWN, bytes, pod0, "grown, as its status says (the kubelet reports a shared file"
                    + " system of " + Bytes.human(bytes) + " for it)");
        }
        if (bytes >= targetBytes * (1 - OVERHEAD)) {
            return new Checked(claim, FileSystem.GROWN, bytes, pod0, "grown: the kubelet reports " + Bytes.human(bytes));
        }
        return new Checked(claim, FileSystem.PENDING, bytes, pod0, "its status says grown, but the kubelet's summary still reports "
                + Bytes.human(bytes) + " (below " + target + " less " + Math.round(OVERHEAD * 100) + " % for the file system's own"
                + " metadata)");
    }

    /**
     * Whether the pods can write to the new space now, in words, from each claim's {@code fileSystem}: "file
     * systems grown: …" when every one is, else how many stand where. "" when no claim was followed.
     */
    static String sentence(java.util.List<StatefulSetResult.ClaimResult> claims) {
        Map<FileSystem, Integer> count = new java.util.EnumMap<>(FileSystem.class);
        for (StatefulSetResult.ClaimResult c : claims) {
            if (c.fileSystem() != null) {
                count.merge(c.fileSystem(), 1, Integer::sum);
            }
        }
        int all = count.values().stream().mapToInt(Integer::intValue).sum();
        if (all == 0) {
            return "";
        }
        int grown = count.getOrDefault(FileSystem.GROWN, 0);
        long shared = claims.stream().filter(StatefulSetResult.ClaimResult::fileSystemShared).count();
        // a claim on the node's own disk (hostPath CSI, local-path) has no space of its own to grow: said where the result is read
        String sharedSaid = shared == 0 ? "" : "; " + (shared == 1 ? "1 is" : shared + " are") + " on a file system shared with the"
                + " node (the kubelet reports the node's disk for " + (shared == 1 ? "it" : "them") + "): the space is the node's,"
                + " not the claim's size";
        if (grown == all) {
            return (all == 1 ? "file system grown" : all + " file systems grown") + ": the pods can write to the new space" + sharedSaid;
        }
        boolean podsWait = count.keySet().stream().anyMatch(FileSystem::keepsAPodWaiting);
        java.util.List<String> parts = new java.util.ArrayList<>();
        if (grown > 0) {
            parts.add(grown + " grown");
        }
        count.forEach((state, n) -> {
            switch (state) {
                case WAITS_FOR_RESTART -> parts.add(n + " wait" + (n == 1 ? "s" : "") + " for a pod restart");
                case PENDING -> parts.add(n + " still growing (the kubelet had not finished when the run stopped following it)");
                case NO_POD -> parts.add(n + " mounted by no pod (grown when a pod mounts it)");
                case UNKNOWN -> parts.add(n + " not known (the volume itself has not grown)");
                default -> { }
            }
        });
        return "file systems: " + String.join(", ", parts) + (podsWait ? ": the pods cannot use all of the new space yet"
                : ": the pods can write to the new space") + sharedSaid;
    }

    private static boolean mounts(JsonNode pod, String claim) {
        return !pod.path("metadata").has("deletionTimestamp")
                && pod.path("spec").path("volumes").findValuesAsText("claimName").contains(claim);
    }

    /** The pod as read within {@link #FRESH}, else read now. */
    private Optional<ObjectNode> pod(String ns, String name) {
        Seen<Optional<ObjectNode>> s = pods.get(name);
        if (s != null && fresh(s)) {
            return s.value();
        }
        Optional<ObjectNode> p = cluster.getPod(ns, name);
        pods.put(name, new Seen<>(p, clock.instant()));
        return p;
    }

    private boolean fresh(Seen<?> s) {
        return Duration.between(s.at(), clock.instant()).compareTo(FRESH) < 0;
    }

    /** The node whose summary may settle a claim the pod mounts: a running pod's, while summaries may be read. */
    private Optional<String> nodeToAsk(ObjectNode pod) {
        String node = pod.path("spec").path("nodeName").asText("");
        if (summariesForbidden || node.isEmpty() || !"Running".equals(pod.path("status").path("phase").asText())) {
            return Optional.empty();
        }
        return Optional.of(node);
    }

    /** The capacity the kubelet of the pod's node reports for the claim's volume; -1 when it cannot be read or says nothing. */
    private long summaryCapacity(String ns, String claim, ObjectNode pod) {
        Optional<String> node = nodeToAsk(pod);
        if (node.isEmpty()) {
            return -1;
        }
        Map<String, Long> capacities = summary(node.get());
        Long bytes = capacities == null ? null : capacities.get(Metadata.key(ns, claim));
        return bytes == null ? -1 : bytes;
    }

    /** Each volume's capacity as the node's kubelet reports it, read at most once per {@link #FRESH}; null when unreadable. */
    private Map<String, Long> summary(String node) {
        Seen<Map<String, Long>> s = summaries.get(node);
        if (s != null && fresh(s)) {
            return s.value();
        }
        Map<String, Long> read = readSummary(node);
        summaries.put(node, new Seen<>(read, clock.instant()));
        return read;
    }

    private Map<String, Long> readSummary(String node) {
        if (summariesForbidden) {
            return null;
        }
        try {
            return SummaryVolumes.capacities(cluster.nodeSummary(node, SUMMARY_TIMEOUT));
        } catch (ClusterException e) {
            if (e.code() == 403) {
                summariesForbidden = true;
            } else {
                unreadable.put(node, String.valueOf(e.getMessage()));
            }
            return null;
        } catch (RuntimeException e) {
            unreadable.put(node, String.valueOf(e.getMessage()));
            return null;
        }
    }

    private static long bytesOf(Quantity q) {
        return q.value().setScale(0, RoundingMode.CEILING).min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue();
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

}
