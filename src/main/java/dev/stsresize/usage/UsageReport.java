package dev.stsresize.usage;

import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Sizing;
import dev.stsresize.plan.SizingPolicy;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.UnmeasuredClaim;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One read of how full the claims of some StatefulSets are: per StatefulSet the claims whose usage is
 * known and the suggested sizes, plus the notes that say what could not be read (never an error).
 *
 * <p>It keeps what sizing needs (each StatefulSet's templates, each namespace's quota room, the policy),
 * so that rates learnt later ({@link UsageSamples}) give new suggestions without another read.
 */
public final class UsageReport {
    /**
     * What one StatefulSet's sizing starts from: its templates (name → quantity as written) in order, and the
     * ordinals it runs ({@code spec.ordinals.start}, {@code spec.replicas}), whose claims are expected to be measured.
     */
    public record Target(String namespace, String name, Map<String, String> templates, int firstOrdinal, int replicas) {
        public Target {
            templates = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(templates));
        }

        /** A StatefulSet whose ordinals are not known: none of its claims is expected. */
        public Target(String namespace, String name, Map<String, String> templates) {
            this(namespace, name, templates, 0, 0);
        }

        public String key() {
            return Metadata.key(namespace, name);
        }
    }

    private final Map<String, Target> targets;
    private final Map<String, List<ClaimUsage>> claims;
    private final Map<String, Long> quotaRoom;
    private final Map<String, List<UnmeasuredClaim>> unmeasured;
    private final SizingPolicy policy;
    private final List<String> notes;
    private final Instant readAt;
    private final Map<String, StatefulSetUsage> byKey = new LinkedHashMap<>();

    /**
     * @param targets the StatefulSets read, in the order to keep
     * @param claims per StatefulSet key ({@code namespace/name}), the claims whose usage is known (keys not
     *     among the targets are dropped)
     * @param quotaRoom per namespace, {@code requests.storage} hard − used, where a quota could be read
     */
    public UsageReport(List<Target> targets, Map<String, List<ClaimUsage>> claims, Map<String, Long> quotaRoom,
            SizingPolicy policy, List<String> notes, Instant readAt) {
        this(targets, claims, quotaRoom, policy, notes, readAt, Map.of());
    }

    /** @param unmeasured per StatefulSet key, its expected claims with no usage and why */
    public UsageReport(List<Target> targets, Map<String, List<ClaimUsage>> claims, Map<String, Long> quotaRoom,
            SizingPolicy policy, List<String> notes, Instant readAt, Map<String, List<UnmeasuredClaim>> unmeasured) {
        this.targets = new LinkedHashMap<>();
        targets.forEach(t -> this.targets.put(t.key(), t));
        Map<String, List<ClaimUsage>> known = new LinkedHashMap<>();
        claims.forEach((key, list) -> {
            if (this.targets.containsKey(key)) {
                known.put(key, List.copyOf(list));
            }
        });
        this.claims = known;
        this.quotaRoom = Map.copyOf(quotaRoom);
        Map<String, List<UnmeasuredClaim>> missing = new LinkedHashMap<>();
        unmeasured.forEach((key, list) -> {
            if (this.targets.containsKey(key) && !list.isEmpty()) {
                missing.put(key, List.copyOf(list));
            }
        });
        this.unmeasured = missing;
        this.policy = policy;
        this.notes = List.copyOf(notes);
        this.readAt = readAt;
        for (Target t : targets) {
            List<ClaimUsage> own = this.claims.getOrDefault(t.key(), List.of());
            if (!own.isEmpty()) {
                byKey.put(t.key(), Sizing.statefulSet(t.namespace(), t.name(), t.templates(), own, policy,
                        Optional.ofNullable(this.quotaRoom.get(t.namespace()))).withUnmeasured(unmeasured(t.namespace(), t.name())));
            }
        }
    }

    /** A report that read nothing, saying why (usage turned off, or nothing to read). */
    public static UsageReport empty(List<String> notes, Instant readAt) {
        return new UsageReport(List.of(), Map.of(), Map.of(), SizingPolicy.DEFAULT, notes, readAt);
    }

    /** The usage of one StatefulSet; empty when none of its claims' usage is known. */
    public Optional<StatefulSetUsage> of(String namespace, String name) {
        return Optional.ofNullable(byKey.get(Metadata.key(namespace, name)));
    }

    /** The claims of one StatefulSet's running ordinals whose usage is not known, each with why; empty when none. */
    public List<UnmeasuredClaim> unmeasured(String namespace, String name) {
        return unmeasured.getOrDefault(Metadata.key(namespace, name), List.of());
    }

    /** Every StatefulSet's unmeasured claims, by {@code namespace/name}, in the order the StatefulSets were given. */
    public Map<String, List<UnmeasuredClaim>> unmeasured() {
        Map<String, List<UnmeasuredClaim>> out = new LinkedHashMap<>();
        targets.keySet().forEach(k -> {
            if (unmeasured.containsKey(k)) {
                out.put(k, unmeasured.get(k));
            }
        });
        return out;
    }

    /** Every StatefulSet whose usage is known, fullest first (ties: soonest full, then by key). */
    public List<StatefulSetUsage> fullestFirst() {
        List<StatefulSetUsage> all = new ArrayList<>(byKey.values());
        all.sort(Comparator.comparingDouble((StatefulSetUsage u) -> u.fullest().map(ClaimUsage::usedPercent).orElse(0.0))
                .reversed()
                .thenComparing(u -> u.fillsIn().orElse(Duration.ofSeconds(Long.MAX_VALUE)))
                .thenComparing(StatefulSetUsage::key));
        return all;
    }

    /** The StatefulSets that were read, in the order given, whether or not their usage is known. */
    public List<Target> targets() {
        return List.copyOf(targets.values());
    }

    /** What could not be read, each said once ("usage unknown (cannot get nodes/proxy)", a node that did not answer…). */
    public List<String> notes() {
        return notes;
    }

    public Instant readAt() {
        return readAt;
    }

    public SizingPolicy policy() {
        return policy;
    }

    /** The room the namespace's storage quota leaves, when it could be read. */
    public Optional<Long> quotaRoom(String namespace) {
        return Optional.ofNullable(quotaRoom.get(namespace));
    }

    /** Every claim usage by {@code namespace/claim}. */
    public Map<String, ClaimUsage> claimsByKey() {
        Map<String, ClaimUsage> all = new LinkedHashMap<>();
        claims.forEach((stsKey, list) -> {
            String ns = targets.get(stsKey).namespace();
            list.forEach(c -> all.put(Metadata.key(ns, c.claim()), c));
        });
        return all;
    }

    /**
     * The same read with the times to full given per {@code namespace/claim} (a claim not named keeps its own),
     * the suggestions sized again from them, and {@code extraNotes} added.
     */
    public UsageReport withFillsIn(Map<String, Optional<Duration>> fillsIn, List<String> extraNotes) {
        Map<String, List<ClaimUsage>> updated = new LinkedHashMap<>();
        claims.forEach((stsKey, list) -> {
            String ns = targets.get(stsKey).namespace();
            updated.put(stsKey, list.stream()
                    .map(c -> fillsIn.containsKey(Metadata.key(ns, c.claim())) ? c.withFillsIn(fillsIn.get(Metadata.key(ns, c.claim()))) : c)
                    .toList());
        });
        List<String> allNotes = new ArrayList<>(notes);
        allNotes.addAll(extraNotes);
        return new UsageReport(List.copyOf(targets.values()), updated, quotaRoom, policy, allNotes, readAt, unmeasured);
    }
}
