package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.plan.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the record of a stopped run and decides whether it may be acted on. Whatever is stored was
 * written by someone else as far as this reader knows (a Lease by anyone leader election lets write,
 * a Secret by anyone with Secret rights in the namespace, a journal file by the user): so a record is
 * used only if it names the place it was found in, its Secret matches its Lease's digest, the UID it
 * recorded is the live StatefulSet's (while one stands), and the live StatefulSet still is the one it
 * recorded, claim templates and server-kept fields aside. It only says where a run stopped: what
 * gets re-applied comes from the operator's manifest, or is shown and confirmed ({@code resume}).
 *
 * <p>The one reader of the journal and of the records kept in the cluster: {@code apply}, {@code resume}
 * and the UI ask it which runs stopped, without building a Converger.
 */
public final class RunRecords {
    /** Fields the server or the run itself changes: a difference there is not a change by someone else. */
    private static final Set<String> NOISE = Set.of("/metadata/resourceVersion", "/metadata/generation", "/metadata/deletionTimestamp",
            "/metadata/deletionGracePeriodSeconds");

    private final Cluster cluster;
    private final Journal journal;
    private final String server;

    /** @param server the API server URL: only this cluster's runs are found in the journal */
    public RunRecords(Cluster cluster, Journal journal, String server) {
        this.cluster = cluster;
        this.journal = journal;
        this.server = server;
    }

    /** The stopped run of this StatefulSet: this machine's journal first, else its Lease and Secret; checked. */
    public Optional<PendingRun> find(String namespace, String name, boolean inCluster) {
        Optional<PendingRun> found = local(namespace, name);
        if (found.isEmpty() && inCluster) {
            found = stored(namespace, name);
        }
        return found.map(this::checked);
    }

    /** Every stopped run this machine's journal knows for this cluster, checked. */
    public List<PendingRun> allLocal() {
        List<PendingRun> out = new ArrayList<>();
        for (Journal.Entry e : journal.entries()) {
            Record r = e.record();
            if (r.server().isEmpty() || r.server().equals(server)) {
                out.add(checked(new PendingRun(e.namespace(), e.name(), r, true, PendingRun.LOCAL_PREFIX + e.file(), "")));
            }
        }
        return out;
    }

    private Optional<PendingRun> local(String namespace, String name) {
        return journal.read(namespace, name).filter(r -> r.server().isEmpty() || r.server().equals(server))
                .map(r -> new PendingRun(namespace, name, r, true, PendingRun.LOCAL_PREFIX + journal.file(namespace, name), ""));
    }

    private Optional<PendingRun> stored(String namespace, String name) {
        Optional<ObjectNode> lease;
        try {
            lease = LeaseLock.unfinishedLease(cluster, namespace, name);
        } catch (ClusterException e) {
            return Optional.empty(); // no Lease to read: the lock decides when the run starts
        }
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        String where = "Lease " + namespace + "/" + LeaseLock.leaseName(name) + " and Secret " + namespace + "/" + RecordSecret.name(name);
        PendingRun unread = new PendingRun(namespace, name, null, false, where, "");
        String digest = LeaseLock.digestOf(lease.get());
        if (digest.isEmpty()) {
            return Optional.of(unread.withProblem("its Lease, held by " + lease.get().path("spec").path("holderIdentity").asText()
                    + ", names no record digest (" + RecordSecret.DIGEST + ")"));
        }
        try {
            Optional<ObjectNode> secret = cluster.getSecret(namespace, RecordSecret.name(name));
            if (secret.isEmpty()) {
                return Optional.of(unread.withProblem("its Lease names a record but Secret " + namespace + "/" + RecordSecret.name(name)
                        + " does not exist"));
            }
            Record r = RecordSecret.read(secret.get(), digest).withPhase(LeaseLock.phaseOf(lease.get()));
            return Optional.of(new PendingRun(namespace, name, r, false, where, ""));
        } catch (RecordSecret.Unreadable e) {
            return Optional.of(unread.withProblem("Secret " + namespace + "/" + RecordSecret.name(name) + " is not its record: " + e.getMessage()));
        } catch (ClusterException e) {
            return Optional.of(unread.withProblem("Secret " + namespace + "/" + RecordSecret.name(name) + " cannot be read: " + e.getMessage()));
        }
    }

    /** The run with the first reason not to trust it, against the StatefulSet as it is now. */
    PendingRun checked(PendingRun run) {
        if (!run.problem().isEmpty() || run.record() == null) {
            return run;
        }
        return run.withProblem(problem(run, cluster.getStatefulSet(run.namespace(), run.name())));
    }

    static String problem(PendingRun run, Optional<ObjectNode> live) {
        Record r = run.record();
        String place = Metadata.key(run.namespace(), run.name());
        List<String> named = new ArrayList<>();
        named.add(Metadata.key(r.namespace(), r.name()));
        for (JsonNode o : new JsonNode[] {r.live(), r.reapply()}) {
            if (o != null) {
                named.add(Objects.key(o));
            }
        }
        for (String n : named) {
            if (!n.equals(place)) {
                return "it was found as the record of " + place + " but names StatefulSet " + n;
            }
        }
        if (r.live() == null) {
            return "it holds no live object";
        }
        if (live.isEmpty()) {
            return "";
        }
        String liveUid = Objects.uid(live.get());
        if (!r.uid().equals(liveUid)) {
            boolean reapplied = run.local() && (Phase.REAPPLY.recorded().equals(r.phase()) || Phase.VERIFY.recorded().equals(r.phase()));
            // this machine's own run that stopped after its re-apply: only its adoption is verified, nothing is written to it
            return reapplied ? "" : "it recorded StatefulSet UID " + r.uid() + ", but the live StatefulSet " + place + " has UID " + liveUid;
        }
        List<String> changed = staleness(r.live(), live.get());
        if (!changed.isEmpty()) {
            return "StatefulSet " + place + " changed since the run stopped (claim templates and server fields aside): "
                    + String.join("; ", changed) + ". Resuming would undo that change";
        }
        return "";
    }

    /** What changed in the live StatefulSet since it was recorded, outside the claim templates and server-kept fields. */
    static List<String> staleness(ObjectNode recorded, ObjectNode now) {
        return TreeDiff.lines(recorded, now, p -> p.startsWith("/status") || p.startsWith("/spec/volumeClaimTemplates")
                || p.startsWith("/metadata/managedFields") || p.startsWith("/metadata/finalizers") || NOISE.contains(p));
    }
}
