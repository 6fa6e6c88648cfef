package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.ResourceAccess;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Step 4: the lock and record of one StatefulSet's run. A coordination.k8s.io Lease
 * {@code stsresize-<name>} in its namespace holds the lock only: {@code spec.holderIdentity}
 * ("user@host pid"), {@code leaseDurationSeconds}, {@code acquireTime}, {@code renewTime} (renewed every
 * third of the duration while the run works), annotation {@code stsresize.dev/phase} the phase,
 * {@code stsresize.dev/record-sha256} the digest of the record and {@value HolderProcess#ANNOTATION}
 * the holding process (so that this machine can tell when it died). A run stopped on request frees
 * the holder and keeps phase and digest: its record waits for {@code resume}, which need not wait
 * for the Lease to expire. The record itself (the live object as
 * it was and the object to re-apply) goes to {@link RecordSecret} {@code stsresize-<name>}, written
 * once the Lease is ours and removed on release, and to the local {@link Journal} at every phase.
 * Where Leases or Secrets are forbidden, the journal alone is kept.
 */
public final class LeaseLock implements AutoCloseable {
    static final String PHASE = "stsresize.dev/phase";
    /** Where the whole record was kept before it moved to a Secret; removed from any Lease this plugin writes. */
    static final String LEGACY_RECORD = "stsresize.dev/record";
    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private final Cluster cluster;
    private final Journal journal;
    private final Clock clock;
    private final Duration duration;
    private final boolean useLease;
    private final ScheduledExecutorService renewer;
    private Record record;
    private ObjectNode lease;
    private String secretUid = "";
    private volatile String lost;
    /** This process as the Lease describes its holder; empty where the machine cannot say (then no annotation). */
    private final Optional<HolderProcess> self;
    private String tookOver = "";

    private LeaseLock(Cluster cluster, Journal journal, Clock clock, Duration duration, boolean useLease, Record record) {
        this.cluster = cluster;
        this.journal = journal;
        this.clock = clock;
        this.duration = duration;
        this.useLease = useLease;
        this.record = record;
        this.self = HolderProcess.current(record.holder(), HolderProcess.LOCAL);
        this.renewer = useLease ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "stsresize-lease-renew");
            t.setDaemon(true);
            return t;
        }) : null;
    }

    /** The Lease's name prefix; the Job's script (job/stsresize.sh) respects the same lock. */
    public static final String LEASE_PREFIX = "stsresize-";

    public static String leaseName(String statefulSet) {
        String n = LEASE_PREFIX + statefulSet;
        return n.length() > 253 ? n.substring(0, 253) : n;
    }

    /**
     * Takes the lock for {@code record}.
     *
     * @param takeOver take over a Lease whose holder stopped renewing it
     * @param previousHolder a holder this machine's journal names as its own crashed run (taken over as ours), or null
     * @throws Locked when another live holder has it (or an expired one without {@code takeOver})
     */
    public static LeaseLock acquire(Cluster cluster, Journal journal, Clock clock, Duration duration, boolean useLease,
            Record record, boolean takeOver, String previousHolder) {
        LeaseLock lock = new LeaseLock(cluster, journal, clock, duration, useLease, record);
        if (useLease) {
            try {
                lock.takeLease(takeOver, previousHolder);
            } catch (ClusterException e) {
                throw new NotRecorded("Lease " + record.namespace() + "/" + leaseName(record.name()) + " could not be written: "
                        + e.getMessage());
            }
            try {
                lock.writeSecret();
            } catch (ClusterException | NotRecorded e) {
                lock.releaseLease();
                throw new NotRecorded((e instanceof NotRecorded ? "" : "Secret " + record.namespace() + "/"
                        + RecordSecret.name(record.name()) + " could not be written: ") + e.getMessage() + "; the Lease was released again");
            }
            long every = Math.max(1, duration.toMillis() / 3);
            lock.renewer.scheduleWithFixedDelay(lock::renew, every, every, TimeUnit.MILLISECONDS);
        }
        journal.write(record);
        return lock;
    }

    /** The run stopped before its first write because its lock or record could not be written. */
    public static final class NotRecorded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotRecorded(String why) {
            super(why);
        }
    }

    /** The access a run needs to keep its lock and record in the cluster: Lease and Secret verbs. */
    public static java.util.List<ResourceAccess> clusterRecordAccess(String namespace) {
        java.util.List<ResourceAccess> out = new java.util.ArrayList<>();
        for (String verb : java.util.List.of("get", "create", "update")) {
            out.add(new ResourceAccess(verb, "coordination.k8s.io", "leases", "", namespace, ""));
        }
        for (String verb : java.util.List.of("get", "create", "update", "delete")) {
            out.add(new ResourceAccess(verb, "", "secrets", "", namespace, ""));
        }
        return out;
    }

    /**
     * Whether the current user may keep a run's lock and record in {@code namespace}: get, create and
     * update Leases, and get, create, update and delete Secrets (SelfSubjectAccessReviews). Where not,
     * a run keeps its lock and record in the local journal only.
     */
    public static boolean permitted(Cluster cluster, String namespace) {
        for (ResourceAccess a : clusterRecordAccess(namespace)) {
            if (!cluster.selfSubjectAccessReview(a).allowed()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The Lease of a StatefulSet's unfinished run: held (a run in progress, or one that crashed), or
     * freed by a run stopped on request, which kept its digest for resume. A released Lease has neither.
     */
    static Optional<ObjectNode> unfinishedLease(Cluster cluster, String namespace, String statefulSet) {
        return cluster.getLease(namespace, leaseName(statefulSet))
                .filter(l -> !l.path("spec").path("holderIdentity").asText("").isEmpty() || !digestOf(l).isEmpty());
    }

    static String phaseOf(ObjectNode lease) {
        return lease.path("metadata").path("annotations").path(PHASE).asText("");
    }

    static String digestOf(ObjectNode lease) {
        return lease.path("metadata").path("annotations").path(RecordSecret.DIGEST).asText("");
    }

    private void takeLease(boolean takeOver, String previousHolder) {
        String ns = record.namespace();
        String name = leaseName(record.name());
        for (int attempt = 0; attempt < 5; attempt++) {
            Optional<ObjectNode> current = cluster.getLease(ns, name);
            try {
                if (current.isEmpty()) {
                    lease = cluster.createLease(leaseObject(null));
                    return;
                }
                ObjectNode l = current.get();
                String holder = l.path("spec").path("holderIdentity").asText("");
                Optional<HolderProcess> dead = HolderProcess.parse(l.path("metadata").path("annotations")
                        .path(HolderProcess.ANNOTATION).asText("")).filter(p -> p.holder().equals(holder))
                        .filter(p -> p.deadOn(HolderProcess.LOCAL));
                if (!holder.isEmpty() && !holder.equals(record.holder()) && !holder.equals(previousHolder) && dead.isEmpty()) {
                    Instant renewed = parse(l.path("spec").path("renewTime").asText(""));
                    int seconds = l.path("spec").path("leaseDurationSeconds").asInt(60);
                    boolean expired = renewed == null || renewed.plusSeconds(seconds).isBefore(clock.instant());
                    String since = l.path("spec").path("acquireTime").asText("an unknown time");
                    String phase = l.path("metadata").path("annotations").path(PHASE).asText("unknown");
                    if (!expired) {
                        throw new Locked("StatefulSet " + ns + "/" + record.name() + " is being converged by " + holder + " since "
                                + since + " (phase " + phase + ", Lease " + ns + "/" + name + " renewed at "
                                + l.path("spec").path("renewTime").asText() + "); wait for that run to finish, then run again");
                    }
                    if (!takeOver) {
                        throw new Locked("StatefulSet " + ns + "/" + record.name() + " was being converged by " + holder + " since "
                                + since + " (phase " + phase + "), which stopped renewing Lease " + ns + "/" + name
                                + " at " + l.path("spec").path("renewTime").asText() + "; if that run is dead, run again with"
                                + " --take-over (or `resume --take-over`) to finish its work");
                    }
                }
                lease = cluster.updateLease(leaseObject(l));
                if (dead.isPresent() && !holder.equals(record.holder()) && !holder.equals(previousHolder)) {
                    tookOver = "took over the Lease of a run of this machine that is no longer running (" + dead.get().describe()
                            + ", holder " + holder + ")";
                }
                return;
            } catch (ClusterException e) {
                if (!e.isConflict()) {
                    throw e;
                }
                // someone wrote it first: read again and decide again
            }
        }
        throw new Locked("Lease " + ns + "/" + name + " kept changing under us; another run is starting: wait, then run again");
    }

    private ObjectNode leaseObject(ObjectNode current) {
        ObjectNode l = current == null ? Objects.MAPPER.createObjectNode() : current.deepCopy();
        l.put("apiVersion", "coordination.k8s.io/v1").put("kind", "Lease");
        ObjectNode meta = Objects.child(l, "metadata");
        meta.put("name", leaseName(record.name())).put("namespace", record.namespace());
        meta.remove("managedFields");
        Objects.child(meta, "labels").put("app.kubernetes.io/managed-by", "kubectl-stsresize");
        ObjectNode ann = Objects.child(meta, "annotations");
        ann.put(PHASE, record.phase());
        ann.put(RecordSecret.DIGEST, RecordSecret.digest(RecordSecret.payload(record)));
        ann.remove(LEGACY_RECORD);
        if (self.isPresent()) {
            ann.put(HolderProcess.ANNOTATION, self.get().annotation());
        } else {
            ann.remove(HolderProcess.ANNOTATION); // another holder's description must not stand for this one
        }
        ObjectNode spec = Objects.child(l, "spec");
        String now = MICRO.format(clock.instant());
        boolean newHolder = !record.holder().equals(spec.path("holderIdentity").asText(""));
        spec.put("holderIdentity", record.holder());
        spec.put("leaseDurationSeconds", (int) Math.max(1, duration.toSeconds()));
        if (newHolder || !spec.has("acquireTime")) {
            spec.put("acquireTime", now);
            spec.put("leaseTransitions", spec.path("leaseTransitions").asInt(0) + (current == null ? 0 : 1));
        }
        spec.put("renewTime", now);
        return l;
    }

    /** The record into its Secret (created, or over the one a previous run left), once the Lease is ours. */
    private void writeSecret() {
        String ns = record.namespace();
        String name = RecordSecret.name(record.name());
        ObjectNode written;
        try {
            written = cluster.createSecret(RecordSecret.object(record, null));
        } catch (ClusterException e) {
            if (e.code() != 409) {
                throw e;
            }
            // left by a run that stopped, or planted: we hold the Lease, so its content is ours to replace
            ObjectNode current = cluster.getSecret(ns, name).orElseThrow(() -> e);
            if (!RecordSecret.TYPE.equals(current.path("type").asText())) {
                // a Secret's type is immutable (ValidateSecretUpdate): someone else's Secret of this name is not touched
                throw new NotRecorded("Secret " + ns + "/" + name + " exists with type \"" + current.path("type").asText()
                        + "\", not " + RecordSecret.TYPE + ": it is not a run record, so it is left alone; rename or remove it");
            }
            written = cluster.updateSecret(RecordSecret.object(record, current));
        }
        secretUid = Objects.uid(written);
    }

    /** Records a new phase (Lease and journal) before the step that needs it. */
    public synchronized void phase(String phase) {
        record = record.withPhase(phase);
        journal.write(record);
        if (useLease) {
            write(leaseObject(lease));
        }
    }

    /**
     * Records what the run learnt (a copy's volumes, the UID it re-applied) before the write that needs it: the journal
     * first, then the Secret, then the Lease naming the new digest. A crash between the Secret and the Lease leaves a
     * digest that no longer matches: the journal of this machine still resumes the run, and the cluster's record is
     * refused as unreadable rather than trusted.
     */
    public synchronized void update(Record r) {
        record = r;
        journal.write(record);
        if (useLease) {
            writeSecret();
            write(leaseObject(lease));
        }
    }

    public synchronized Record record() {
        return record;
    }

    /** What was said on taking the Lease over from a dead process of this machine, "" when it was not. */
    public String tookOver() {
        return tookOver;
    }

    /** Why the lock was lost (another holder took it), or null while it is ours. */
    public String lost() {
        return lost;
    }

    private synchronized void renew() {
        if (lost != null || lease == null) {
            return;
        }
        try {
            write(leaseObject(lease));
        } catch (RuntimeException e) {
            // a failed renewal is retried at the next tick; a Lease taken by someone else is reported by write
        }
    }

    private void write(ObjectNode l) {
        try {
            lease = cluster.updateLease(l);
        } catch (ClusterException e) {
            if (!e.isConflict()) {
                throw e;
            }
            ObjectNode now = cluster.getLease(record.namespace(), leaseName(record.name())).orElse(null);
            String holder = now == null ? "" : now.path("spec").path("holderIdentity").asText("");
            if (now == null || !holder.equals(record.holder())) {
                lost = "Lease " + record.namespace() + "/" + leaseName(record.name()) + " was taken by "
                        + (holder.isEmpty() ? "nobody (deleted)" : holder);
                throw new Locked(lost);
            }
            lease = now;
            lease = cluster.updateLease(leaseObject(now));
        }
    }

    /**
     * The run is finished: the Lease freed (holder and digest cleared), then the record's Secret
     * deleted (with the UID this run wrote, so a Secret re-created by someone since stays), and the
     * journal entry removed.
     */
    public synchronized void release() {
        close();
        if (useLease && lost == null && lease != null) {
            releaseLease();
            if (!secretUid.isEmpty()) {
                cluster.deleteRecordSecret(record.namespace(), RecordSecret.name(record.name()), secretUid);
            }
        }
        journal.remove(record.namespace(), record.name());
    }

    private void releaseLease() {
        ObjectNode l = withoutHolder(lease);
        ObjectNode ann = Objects.child((ObjectNode) l.path("metadata"), "annotations");
        ann.put(PHASE, "released");
        ann.remove(RecordSecret.DIGEST);
        ann.remove(LEGACY_RECORD);
        lease = cluster.updateLease(l);
    }

    /**
     * The run stopped on request (Ctrl-C, SIGHUP, SIGTERM): renewal stops and the Lease's holder is
     * cleared, its phase and digest kept, so that the run's record (Secret and journal) is found and
     * finished by the next {@code resume} or {@code apply} at once, not after the Lease expires.
     *
     * @return "" when the Lease was freed (or there is none), else why it stays held until it expires
     */
    public synchronized String free() {
        close();
        if (!useLease || lost != null || lease == null) {
            return "";
        }
        try {
            lease = cluster.updateLease(withoutHolder(lease));
            return "";
        } catch (RuntimeException e) {
            // a conflict is someone else's write since ours: whatever it says, it is not ours to clear; and a
            // server that fails now must not turn a clean stop into a crash: the Lease expires in any case
            return "Lease " + record.namespace() + "/" + leaseName(record.name()) + " could not be freed (" + e.getMessage()
                    + "): it stays held until it expires, " + duration.toSeconds() + "s after its last renewal";
        }
    }

    /**
     * A run that will not go on (its requests reverted): its Lease freed and released as {@link #release} leaves it
     * (holder, digest and holding process cleared, phase released), its record Secret deleted by the UID read (only
     * a Secret of the record's type), its journal entry removed. Nothing is written where nothing is held.
     *
     * @return what was freed, in words ("" when there was nothing)
     */
    static String releaseEnded(Cluster cluster, Journal journal, String namespace, String statefulSet) {
        java.util.List<String> freed = new java.util.ArrayList<>();
        Optional<ObjectNode> lease = unfinishedLease(cluster, namespace, statefulSet);
        if (lease.isPresent()) {
            ObjectNode l = withoutHolder(lease.get());
            ObjectNode ann = Objects.child((ObjectNode) l.path("metadata"), "annotations");
            ann.put(PHASE, "released");
            ann.remove(RecordSecret.DIGEST);
            ann.remove(LEGACY_RECORD);
            cluster.updateLease(l);
            freed.add("Lease " + namespace + "/" + leaseName(statefulSet) + " freed");
        }
        Optional<ObjectNode> secret = cluster.getSecret(namespace, RecordSecret.name(statefulSet))
                .filter(s -> RecordSecret.TYPE.equals(s.path("type").asText()));
        if (secret.isPresent()) {
            cluster.deleteRecordSecret(namespace, RecordSecret.name(statefulSet), Objects.uid(secret.get()));
            freed.add("record Secret " + namespace + "/" + RecordSecret.name(statefulSet) + " deleted");
        }
        if (journal.read(namespace, statefulSet).isPresent()) {
            journal.remove(namespace, statefulSet);
            freed.add("journal entry " + journal.file(namespace, statefulSet) + " removed");
        }
        return String.join(", ", freed);
    }

    /**
     * Why a run holding this Lease now forbids another writer ("" when none does): a holder that renews it
     * and is not a dead process of this machine.
     */
    static String heldBy(ObjectNode lease, Clock clock) {
        String holder = lease.path("spec").path("holderIdentity").asText("");
        if (holder.isEmpty()) {
            return "";
        }
        boolean dead = HolderProcess.parse(lease.path("metadata").path("annotations").path(HolderProcess.ANNOTATION).asText(""))
                .filter(p -> p.holder().equals(holder)).filter(p -> p.deadOn(HolderProcess.LOCAL)).isPresent();
        Instant renewed = parse(lease.path("spec").path("renewTime").asText(""));
        int seconds = lease.path("spec").path("leaseDurationSeconds").asInt(60);
        boolean expired = renewed == null || renewed.plusSeconds(seconds).isBefore(clock.instant());
        return dead || expired ? "" : holder + " (phase " + phaseOf(lease) + ", renewed at " + lease.path("spec").path("renewTime").asText() + ")";
    }

    private static ObjectNode withoutHolder(ObjectNode current) {
        ObjectNode l = current.deepCopy();
        l.remove("status");
        ObjectNode meta = (ObjectNode) l.path("metadata");
        meta.remove("managedFields");
        Objects.child(meta, "annotations").remove(HolderProcess.ANNOTATION);
        ((ObjectNode) l.path("spec")).remove("holderIdentity");
        return l;
    }

    /** Whether the Lease is still renewed by this process: a run that ended, stopped or crashed renews nothing. */
    boolean renewing() {
        return renewer != null && !renewer.isShutdown();
    }

    /** Stops renewing, leaving Lease and journal as they are (for a crash-like stop or a resume later). */
    @Override
    public void close() {
        if (renewer != null) {
            renewer.shutdownNow();
        }
    }

    static Instant parse(String micro) {
        try {
            return micro.isEmpty() ? null : Instant.parse(micro);
        } catch (RuntimeException e) {
            return null;
        }
    }

    static String now(Clock clock) {
        return MICRO.format(clock.instant());
    }

    static JsonNode nothing() {
        return Objects.MAPPER.missingNode();
    }
}
