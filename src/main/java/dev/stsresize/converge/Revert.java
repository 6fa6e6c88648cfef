package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The way back from a resize that failed ({@code kubectl stsresize revert}): each claim of one StatefulSet whose
 * resize has not completed (capacity below its request) gets back the request it had before the run
 * ({@link SizeBefore}), where the server accepts it, and the run's Lease and record are freed.
 *
 * <p>What the server accepts is v1.32's {@code ValidatePersistentVolumeClaimUpdate}
 * (pkg/apis/core/validation/validation.go): a lower request only with {@code RecoverVolumeExpansionFailure} on
 * (KEP-1790; alpha from v1.23, beta and on by default from v1.32, GA in v1.34), and then only while it stays
 * strictly above {@code status.capacity} ({@code newSize.Cmp(statusSize) <= 0} is refused "field can not be less
 * than status.capacity"); with the gate off any lower request is refused "field can not be less than previous
 * value". So a claim whose size before is its capacity (the volume never grew) is lowered to the smallest
 * request above it the plugin writes, one MiB more.
 *
 * <p>The patches are dry-run first, all of them; one refused means none is written.
 */
public final class Revert {
    /** How far above {@code status.capacity} a request goes back when the size before is the capacity itself. */
    static final BigDecimal STEP_ABOVE_CAPACITY = BigDecimal.valueOf(1L << 20);

    private final Cluster cluster;
    private final Journal journal;
    private final Clock clock;

    public Revert(Cluster cluster, Journal journal, Clock clock) {
        this.cluster = cluster;
        this.journal = journal;
        this.clock = clock;
    }

    /**
     * One claim of the StatefulSet and what revert does to it.
     *
     * @param target the request it is lowered to, "" when it is left alone
     * @param said why, in words
     */
    public record ClaimStep(String claim, String request, String capacity, String sizeBefore, String target, String said) {
        public boolean lowers() {
            return !target.isEmpty();
        }
    }

    /**
     * What was read and decided: the claims, and {@code problem} ("" when revert may go on) that stops it before
     * any write.
     */
    public record Planned(String namespace, String name, List<ClaimStep> claims, String problem) {
        public List<ClaimStep> lowering() {
            return claims.stream().filter(ClaimStep::lowers).toList();
        }
    }

    /** How it ended: {@code refusal} ("" when accepted) the server's no, as a paragraph; {@code released} the lock and record freed. */
    public record Done(Planned planned, boolean written, String refusal, String released) {}

    /** Reads the StatefulSet, its claims and its Lease, and decides per claim; writes nothing. */
    public Planned plan(String namespace, String name) {
        Optional<ObjectNode> sts = cluster.getStatefulSet(namespace, name);
        if (sts.isEmpty()) {
            return new Planned(namespace, name, List.of(), "StatefulSet " + namespace + "/" + name + " does not exist, so its claims"
                    + " cannot be found by their names; nothing was written (kubectl get statefulsets -n " + namespace + " lists them)");
        }
        Optional<ObjectNode> lease = cluster.getLease(namespace, LeaseLock.leaseName(name));
        String holder = lease.map(l -> LeaseLock.heldBy(l, clock)).orElse("");
        if (!holder.isEmpty()) {
            return new Planned(namespace, name, List.of(), "StatefulSet " + namespace + "/" + name + " is being converged by " + holder
                    + " (Lease " + namespace + "/" + LeaseLock.leaseName(name) + "): revert writes nothing while a run holds it;"
                    + " stop that run (Ctrl-C), then revert");
        }
        String phase = lease.map(LeaseLock::phaseOf).orElse("");
        if (Phase.pastTheDeleteGate(phase)) {
            return new Planned(namespace, name, List.of(), "the run of StatefulSet " + namespace + "/" + name + " stopped at phase " + phase
                    + ", past its orphan delete: lowering the requests cannot undo that. `kubectl stsresize resume " + namespace + "/"
                    + name + "` finishes it. Nothing was written");
        }
        List<ClaimStep> steps = new ArrayList<>();
        for (ObjectNode claim : claimsOf(sts.get())) {
            steps.add(step(claim));
        }
        return new Planned(namespace, name, steps, "");
    }

    /** The claims the live StatefulSet's templates name ({@code <template>-<name>-<ordinal>}), in name order. */
    private List<ObjectNode> claimsOf(ObjectNode sts) {
        String name = Objects.name(sts);
        List<String> prefixes = new ArrayList<>();
        for (JsonNode t : sts.path("spec").path("volumeClaimTemplates")) {
            prefixes.add(t.path("metadata").path("name").asText("") + "-" + name + "-");
        }
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode c : cluster.listClaims(NamespaceScope.of(Objects.namespace(sts))).items()) {
            String n = Objects.name(c);
            for (String p : prefixes) {
                if (n.startsWith(p) && n.length() > p.length() && n.substring(p.length()).chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
                    out.add(c);
                    break;
                }
            }
        }
        out.sort(java.util.Comparator.comparing(Objects::name));
        return out;
    }

    /** One claim's decision, from the claim alone. */
    static ClaimStep step(ObjectNode claim) {
        String name = Objects.name(claim);
        String requestText = Metadata.textOrEmpty(claim, "spec", "resources", "requests", "storage");
        String capacityText = Metadata.textOrEmpty(claim, "status", "capacity", "storage");
        String raw = SizeBefore.raw(claim);
        Quantity request = Quantity.parseOrNull(requestText);
        Quantity capacity = Quantity.parseOrNull(capacityText);
        if (request == null || capacity == null) {
            return new ClaimStep(name, requestText, capacityText, raw, "", "no request or no capacity to compare (not Bound?): left alone");
        }
        if (!capacity.isLessThan(request)) {
            // "completed" only where a raise is recorded: a claim never raised has nothing that completed
            return new ClaimStep(name, requestText, capacityText, raw, "", raw.isEmpty()
                    ? "its capacity (" + capacity + ") is at its request: nothing to give back"
                    : "its resize completed (capacity " + capacity + "): left alone");
        }
        if (raw.isEmpty()) {
            return new ClaimStep(name, requestText, capacityText, raw, "", "no size before a run is recorded on it (annotation "
                    + SizeBefore.ANNOTATION + "): this plugin did not raise it, so it is left alone");
        }
        Optional<Quantity> before = SizeBefore.of(claim);
        if (before.isEmpty()) {
            return new ClaimStep(name, requestText, capacityText, raw, "", "its recorded size before, \"" + raw + "\", is not a quantity"
                    + " below its request: left alone");
        }
        if (capacity.isLessThan(before.get())) {
            return new ClaimStep(name, requestText, capacityText, raw, before.get().toString(), "request " + request + " -> "
                    + before.get() + ", its size before the run");
        }
        Quantity above = justAbove(capacity);
        return new ClaimStep(name, requestText, capacityText, raw, above.toString(), "request " + request + " -> " + above
                + ": its size before, " + raw + ", is its capacity, and the server keeps a lowered request above status.capacity"
                + " (v1.32 ValidatePersistentVolumeClaimUpdate), so it goes to 1Mi above it");
    }

    /** The capacity plus {@link #STEP_ABOVE_CAPACITY}, written in Mi when the capacity is a whole number of them. */
    static Quantity justAbove(Quantity capacity) {
        BigDecimal next = capacity.value().add(STEP_ABOVE_CAPACITY);
        BigDecimal[] mi = next.divideAndRemainder(STEP_ABOVE_CAPACITY);
        if (mi[1].signum() == 0) {
            return Quantity.parse(mi[0].toBigInteger() + "Mi");
        }
        return Quantity.parse(next.setScale(0, java.math.RoundingMode.CEILING).toBigInteger().toString());
    }

    /**
     * Every lowering patch sent with {@code dryRun=All}: "" when all are accepted, else the refusal paragraph
     * (nothing was written).
     */
    public String dryRun(Planned p) {
        for (ClaimStep c : p.lowering()) {
            try {
                cluster.patchClaimStorage(p.namespace(), c.claim(), c.target(), SizeBefore.cleared(), true);
            } catch (ClusterException e) {
                return refusal(p, c, e);
            }
        }
        return "";
    }

    /** The lowering patches, then the run's Lease and record freed. A refusal midway stops it, said with what was written. */
    public Done apply(Planned p) {
        List<String> lowered = new ArrayList<>();
        for (ClaimStep c : p.lowering()) {
            try {
                cluster.patchClaimStorage(p.namespace(), c.claim(), c.target(), SizeBefore.cleared(), false);
                lowered.add(c.claim());
            } catch (ClusterException e) {
                String said = refusal(p, c, e);
                return new Done(p, !lowered.isEmpty(), lowered.isEmpty() ? said : said.replace("Nothing was written.", "Claim(s) "
                        + String.join(", ", lowered) + " were lowered before it; the Lease and record are kept."), "");
            }
        }
        return new Done(p, true, "", LeaseLock.releaseEnded(cluster, journal, p.namespace(), p.name()));
    }

    /**
     * How a revert the operator already said yes to ended (the wizard's dialog), in one sentence.
     *
     * @param sent whether the lowering patches went out (the claims are worth reading again)
     */
    public record Answered(boolean done, boolean sent, String said) {}

    /** A revert already confirmed: planned (each claim's word to {@code each}), every patch dry-run, then sent. */
    public Answered confirmed(String namespace, String name, java.util.function.Consumer<ClaimStep> each) {
        Planned planned = plan(namespace, name);
        if (!planned.problem().isEmpty()) {
            return new Answered(false, false, planned.problem());
        }
        planned.claims().forEach(each);
        if (planned.lowering().isEmpty()) {
            return new Answered(true, false, "nothing to give back: no claim has a raised request this plugin recorded; nothing was"
                    + " written");
        }
        String refused = dryRun(planned);
        if (!refused.isEmpty()) {
            return new Answered(false, false, refused);
        }
        Done done = apply(planned);
        return done.refusal().isEmpty() ? new Answered(true, true, planned.lowering().size() + " claim request(s) given back"
                + (done.released().isEmpty() ? "" : "; " + done.released())) : new Answered(false, true, done.refusal());
    }

    /** The server's no, one paragraph: which claim, why the server says no, what stays as it is, and the ways on. */
    static String refusal(Planned p, ClaimStep c, ClusterException e) {
        String msg = e.getMessage();
        String why;
        if (msg.contains("less than previous value")) {
            why = "this API server does not accept a lower request: it runs without the RecoverVolumeExpansionFailure feature gate"
                    + " (KEP-1790: alpha from v1.23, on by default from v1.32)";
        } else if (msg.contains("less than status.capacity")) {
            why = "the request would not stay above the claim's capacity (it moved since it was read: read it again with"
                    + " kubectl get pvc " + c.claim() + " -n " + p.namespace() + ")";
        } else if (e.code() == 403) {
            why = "you may not patch this claim";
        } else {
            why = "the server refused the patch";
        }
        return "the server refuses to lower the request of claim " + p.namespace() + "/" + c.claim() + " from " + c.request() + " to "
                + c.target() + " (the server: " + msg + "): " + why + ". Nothing was written. What remains: the claim"
                + (p.lowering().size() > 1 ? "s keep" : " keeps") + " the raised request" + (p.lowering().size() > 1 ? "s" : "")
                + " above " + (p.lowering().size() > 1 ? "their capacities" : "its capacity " + c.capacity()) + " and the resizer"
                + " keeps retrying the expansion; either fix what its failure names (kubectl describe pvc " + c.claim() + " -n "
                + p.namespace() + ") so that it completes (the copy migration, --copy, takes only claims whose class cannot expand)";
    }
}
