package dev.stsresize.converge;

import java.util.List;

/**
 * The end of one StatefulSet's converge, as the Result document shows it. Built from what was read
 * back from the cluster, never from what was asked.
 *
 * @param reason for refused, blocked and failed: the reason word ({@code forbidden}, {@code locked},
 *     {@code other-immutable}, {@code resize-timeout}, …); empty otherwise
 */
public record StatefulSetResult(String namespace, String name, Outcome outcome, String reason, String detail,
        List<ClaimResult> claims, List<PodResult> pods, List<String> warnings, List<PhaseTime> phases) {

    public StatefulSetResult {
        reason = reason == null ? "" : reason;
        claims = List.copyOf(claims);
        pods = List.copyOf(pods);
        warnings = List.copyOf(warnings);
        phases = List.copyOf(phases);
    }

    /** A result whose run timed no phase (it ended before its lock, or was not run here). */
    public StatefulSetResult(String namespace, String name, Outcome outcome, String reason, String detail,
            List<ClaimResult> claims, List<PodResult> pods, List<String> warnings) {
        this(namespace, name, outcome, reason, detail, claims, pods, warnings, List.of());
    }

    /** The same result with the phases as timed. */
    public StatefulSetResult withPhases(List<PhaseTime> timed) {
        return new StatefulSetResult(namespace, name, outcome, reason, detail, claims, pods, warnings, timed);
    }

    /**
     * How long one phase of the run took, as this process measured it: {@code grow} (the claim patches),
     * {@code wait} (for capacity), {@code orphan-delete} (the delete and its wait for 404), {@code re-apply},
     * {@code verify} (the adoption), {@code file-systems} (each claim followed to its file system), {@code restart}
     * (pods restarted for their file systems). A phase run
     * twice (a resume) adds up.
     */
    public record PhaseTime(String phase, java.time.Duration took) {
        /** "1m02.5s", "12.4s", "0.3s": tenths of a second. */
        public String words() {
            long tenths = took.toMillis() / 100;
            long minutes = tenths / 600;
            long rest = tenths % 600;
            String seconds = (rest / 10) + "." + (rest % 10) + "s";
            return minutes > 0 ? minutes + "m" + (rest < 100 ? "0" : "") + seconds : seconds;
        }
    }

    /** Whether the run did what it set out to: converged, or its claims grown where no recreate was needed. */
    public boolean succeeded() {
        return outcome == Outcome.CONVERGED || outcome == Outcome.CLAIMS_GROWN;
    }

    /** Whether the run only grew claims (no recreate was needed): the StatefulSet kept its UID. */
    public boolean claimsOnly() {
        return outcome == Outcome.CLAIMS_GROWN;
    }

    /** How a view says the end of a run in one line: outcome, reason, detail. */
    public String sentence() {
        return outcome.label() + (reason.isEmpty() || reason.equals(outcome.label()) ? "" : " (" + reason + ")") + ": " + detail;
    }

    /**
     * One claim: its request before, the target, and the capacity last read ("" when unknown); where its file
     * system stands ({@code fileSystem}, null when the run did not follow it: refused, blocked, stopped before)
     * and the capacity the kubelet's summary reported for it ({@code fileSystemBytes}, -1 when none).
     */
    public record ClaimResult(String name, String from, String to, String capacity, FileSystem fileSystem, long fileSystemBytes,
            Copied copied) {
        public ClaimResult(String name, String from, String to, String capacity) {
            this(name, from, to, capacity, null, -1, null);
        }

        public ClaimResult(String name, String from, String to, String capacity, FileSystem fileSystem, long fileSystemBytes) {
            this(name, from, to, capacity, fileSystem, fileSystemBytes, null);
        }

        public ClaimResult withFileSystem(FileSystem fs, long bytes) {
            return new ClaimResult(name, from, to, capacity, fs, bytes, copied);
        }

        public ClaimResult withCapacity(String c) {
            return new ClaimResult(name, from, to, c, fileSystem, fileSystemBytes, copied);
        }

        public ClaimResult withCopied(Copied c) {
            return new ClaimResult(name, from, to, capacity, fileSystem, fileSystemBytes, c);
        }

        /**
         * Whether the kubelet reported for the claim's volume a capacity far above the claim's own ({@link FileSystems#SHARED}
         * times its target): a folder on the node's disk (hostPath CSI, local-path), whose space is the node's, shared
         * with every pod there, not the size the claim asks for.
         */
        public boolean fileSystemShared() {
            dev.stsresize.plan.Quantity target = dev.stsresize.plan.Quantity.parseOrNull(to);
            return fileSystemBytes >= 0 && target != null && target.value().signum() > 0
                    && java.math.BigDecimal.valueOf(fileSystemBytes).compareTo(target.value().multiply(java.math.BigDecimal.valueOf(FileSystems.SHARED))) > 0;
        }
    }

    /**
     * How a claim moved in a copy migration: the volume it left (kept Released with Retain, for the operator to free),
     * the volume it is bound to now, and what its copy pod proved ({@code files} and {@code bytes} -1, {@code fileSystem}
     * "" when the proof was read by an earlier process of the run).
     */
    public record Copied(String previousVolume, String volume, long files, long bytes, String fileSystem) {}

    /**
     * One pod: its UID before the delete and after the re-apply ("" when it is gone); {@code restarted} when
     * this run evicted it for its file system (a new UID then is the point, not a loss).
     */
    public record PodResult(String name, String uidBefore, String uidAfter, boolean restarted) {
        public PodResult(String name, String uidBefore, String uidAfter) {
            this(name, uidBefore, uidAfter, false);
        }
    }

    /** The same result with {@code claims}, {@code detail}, {@code pods} and {@code warnings} replaced (its phase times kept). */
    public StatefulSetResult with(String newDetail, List<ClaimResult> newClaims, List<PodResult> newPods, List<String> newWarnings) {
        return new StatefulSetResult(namespace, name, outcome, reason, newDetail, newClaims, newPods, newWarnings, phases);
    }
}
