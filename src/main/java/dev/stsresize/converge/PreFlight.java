package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.DriverLimits;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * What the plan knows before any write beyond the objects' own rules: the drivers' known limits
 * ({@link DriverLimits}: a class that can never grow is refused, a size a driver refuses while attached is
 * warned of), and the claims whose last resize failed, which the plan names with {@code revert} and never
 * calls matching. Those failures are read from the claims (an infeasible allocation status, a resize error
 * condition) and, only in the namespaces where a claim's request is above its capacity, from the claims'
 * Events ({@code VolumeResizeFailed}); a plan of claims that all have their room costs no request more.
 */
final class PreFlight {
    private PreFlight() {}

    /** Each decision with work checked against the table, by the classes of the claims it grows. */
    static Decision limits(Decision d, List<ObjectNode> classes) {
        if (!d.verdict().hasWork()) {
            return d;
        }
        Map<String, ObjectNode> byName = new HashMap<>();
        classes.forEach(c -> byName.put(Objects.name(c), c));
        Set<String> refused = new TreeSet<>();
        Decision out = d;
        for (ClaimState c : d.claimsToGrow()) {
            ObjectNode sc = c.storageClass() == null ? null : byName.get(c.storageClass());
            if (sc == null) {
                continue;
            }
            String provisioner = Metadata.textOrEmpty(sc, "provisioner");
            String no = DriverLimits.refusal(c.storageClass(), provisioner, sc.path("parameters"));
            if (!no.isEmpty() && refused.add(c.storageClass())) {
                out = Assessor.refusal(out, Reason.NOT_EXPANDABLE, no);
            }
            String warning = DriverLimits.warning(c.name(), provisioner, sc.path("parameters"), c.request(), c.target());
            if (!warning.isEmpty()) {
                out = Assessor.warned(out, warning);
            }
        }
        return out;
    }

    /**
     * Every decision with the claims whose last resize failed said: a warning naming revert (where this plugin
     * recorded the size before), and an up-to-date detail that says the failure instead of "match".
     */
    static List<Decision> lastResizeFailed(List<Decision> decisions, List<ObjectNode> claims, Cluster cluster) {
        Map<String, ObjectNode> byKey = new HashMap<>();
        claims.forEach(c -> byKey.put(Objects.key(c), c));
        Set<String> namespaces = new TreeSet<>();
        for (Decision d : decisions) {
            for (ClaimState c : d.claims()) {
                if (c.request() != null && c.capacity() != null && c.capacity().isLessThan(c.request())) {
                    namespaces.add(d.namespace());
                }
            }
        }
        Map<String, List<ObjectNode>> events = events(cluster, namespaces);
        List<Decision> out = new ArrayList<>();
        for (Decision d : decisions) {
            Map<String, String> failed = new LinkedHashMap<>();
            Map<String, String> stuck = new LinkedHashMap<>();
            boolean revertable = false;
            for (ClaimState c : d.claims()) {
                if (c.request() == null || c.capacity() == null || !c.capacity().isLessThan(c.request())) {
                    continue;
                }
                ObjectNode claim = byKey.get(Metadata.key(d.namespace(), c.name()));
                String why = claim == null ? "" : failure(claim, events.getOrDefault(d.namespace() + "/" + c.name(), List.of()));
                if (!why.isEmpty()) {
                    // a claim the run would not patch whose volume is below the declared size stays there: not "at the target"
                    (!c.grow() && c.capacity().isLessThan(c.target()) ? stuck : failed).put(c.name(), why);
                    revertable |= !SizeBefore.raw(claim).isEmpty();
                }
            }
            Decision said = failed.isEmpty() ? d : said(d, failed, revertable);
            out.add(stuck.isEmpty() || d.verdict() == Verdict.ABSENT ? said : blocked(said, stuck, revertable));
        }
        return out;
    }

    /**
     * The decision blocked ({@link Reason#RESIZE_FAILED}) by the claims that request their target but whose resize
     * failed below it, each marked: a run would otherwise leave them alone as grown and re-create the StatefulSet over
     * volumes that do not have its size (and a plan would call them at the target).
     */
    private static Decision blocked(Decision d, Map<String, String> stuck, boolean revertable) {
        List<ClaimState> claims = d.claims().stream().map(c -> stuck.containsKey(c.name()) ? c.withResizeFailed() : c).toList();
        List<String> names = List.copyOf(stuck.keySet());
        ClaimState first = d.claims().stream().filter(c -> c.name().equals(names.get(0))).findFirst().orElseThrow();
        boolean one = names.size() == 1;
        String words = (one ? "claim \"" : "claims \"") + String.join("\", \"", names) + "\" " + (one ? "requests " : "request ")
                + first.request() + " but " + (one ? "its volume is " : "their volumes are ") + first.capacity() + " of the declared "
                + first.target() + ": " + (one ? "its" : "their") + " resize failed (claim \"" + names.get(0) + "\": " + stuck.get(names.get(0))
                + "). Nothing is written while a volume lacks the size its claim requests (re-creating the StatefulSet would"
                + " declare a size its volumes do not have): " + (revertable ? "`kubectl stsresize revert " + d.namespace() + "/"
                + d.name() + "` gives the requests back, or fix" : "fix") + " what the failure names (kubectl describe pvc "
                + names.get(0) + " -n " + d.namespace() + ") and run again once the volumes have grown";
        List<Finding> findings = new ArrayList<>();
        findings.add(new Finding(Reason.RESIZE_FAILED, words));
        if (d instanceof Refusal r) {
            findings.addAll(r.findings());
            return r.with(findings, claims, r.warnings());
        }
        return new Refusal(d.namespace(), d.name(), findings, d.templates(), claims, d.warnings());
    }

    private static Decision said(Decision d, Map<String, String> failed, boolean revertable) {
        List<String> each = new ArrayList<>();
        failed.forEach((c, why) -> each.add("claim \"" + c + "\": " + why));
        String words = "the last resize of " + String.join("; ", each) + ". Its request stays above its capacity and the resizer"
                + " keeps retrying: " + (revertable ? "`kubectl stsresize revert " + d.namespace() + "/" + d.name() + "` gives the"
                + " requests back, or fix" : "fix") + " what the failure names (kubectl describe pvc) and run again";
        if (d instanceof Plan p && p.verdict() == Verdict.UP_TO_DATE) {
            return new Plan(p.namespace(), p.name(), p.verdict(), p.templates(), p.claims(), p.warnings(), "nothing to write, but " + words);
        }
        return Assessor.warned(d, words);
    }

    /** Why the claim's last resize failed, "" when nothing says it did. */
    static String failure(ObjectNode claim, List<ObjectNode> events) {
        String allocation = Metadata.textOrEmpty(claim, "status", "allocatedResourceStatuses", "storage");
        if (allocation.endsWith("Infeasible")) {
            return allocation + ClaimGrower.conditionMessage(claim, "ControllerResizeError", "NodeResizeError").map(m -> ": " + m).orElse("");
        }
        Optional<String> condition = ClaimGrower.conditionMessage(claim, "ControllerResizeError", "NodeResizeError");
        if (condition.isPresent()) {
            return condition.get();
        }
        String uid = Objects.uid(claim);
        return events.stream().filter(e -> "VolumeResizeFailed".equals(e.path("reason").asText()))
                .filter(e -> e.path("involvedObject").path("uid").asText(uid).equals(uid))
                .filter(e -> DriverLimits.aside(e.path("message").asText()).isEmpty())
                .reduce((a, b) -> b).map(e -> "VolumeResizeFailed: " + e.path("message").asText("")).orElse("");
    }

    /** The claims' Events of each namespace (ns/claim → events), read together; none where they cannot be read. */
    private static Map<String, List<ObjectNode>> events(Cluster cluster, Set<String> namespaces) {
        Map<String, List<ObjectNode>> out = new HashMap<>();
        if (namespaces.isEmpty()) {
            return out;
        }
        List<String> order = new ArrayList<>(namespaces);
        List<Callable<List<ObjectNode>>> reads = new ArrayList<>();
        for (String ns : order) {
            reads.add(() -> {
                try {
                    return cluster.listClaimEvents(ns).items();
                } catch (RuntimeException e) {
                    return List.of(); // advice only: the claims' own status still speaks
                }
            });
        }
        List<List<ObjectNode>> answers = Together.all(reads);
        for (int i = 0; i < order.size(); i++) {
            for (ObjectNode e : answers.get(i)) {
                JsonNode about = e.path("involvedObject");
                out.computeIfAbsent(order.get(i) + "/" + about.path("name").asText(""), k -> new ArrayList<>()).add(e);
            }
        }
        return out;
    }
}
