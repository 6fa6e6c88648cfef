package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.CsiDriverList;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.cluster.ResourceAccess;
import dev.stsresize.cluster.StorageClassList;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decider;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.LiveState;
import dev.stsresize.plan.PersistentVolumes;
import dev.stsresize.plan.Resizers;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.StorageFacts;
import dev.stsresize.plan.Verdict;
import dev.stsresize.cluster.ObjectList;
import dev.stsresize.cluster.PersistentVolumeList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Steps 1–3: read, decide, prove. Reads with one LIST of StatefulSets and one of claims per namespace
 * the manifest touches (or once each cluster-wide), StorageClasses and CSIDrivers once; decides with the pure
 * {@link Decider}; proves with the server. Writes nothing: every request it sends is a read, an
 * access review or a dry run.
 */
public final class Assessor {
    /** The 422 prefix by which the server refuses a change of an immutable StatefulSet field. */
    static final String IMMUTABLE_PREFIX = "spec: Forbidden: updates to statefulset spec for fields other than";

    /**
     * How much to prove: {@code PLAN} the access reviews (asked once per namespace and verb, for the
     * StatefulSets with work) and the apply dry run, so a plan says "blocked: forbidden" where apply
     * would; {@code APPLY} also the claim-patch and orphan-delete dry runs.
     */
    public enum Depth { PLAN, APPLY }

    private final Cluster cluster;
    private final Progress progress;
    /** The cluster-wide LISTs sent ahead by {@link #prefetchAllNamespaces}, or null. */
    private Future<List<Object>> prefetched;
    /** The operator's opt-in to the copy migration ({@code --copy}); none unless asked. */
    private CopyOptIn copy = CopyOptIn.NONE;

    public Assessor(Cluster cluster, Progress progress) {
        this.cluster = cluster;
        this.progress = progress;
    }

    /**
     * Reads, decides and proves every declared StatefulSet.
     *
     * @param allNamespaces LIST cluster-wide once instead of once per namespace
     * @param restartPods the run will evict pods (one more permission to check)
     * @param fieldManager {@code --field-manager}
     */
    public Assessment assess(List<ObjectNode> declared, boolean allNamespaces, Depth depth, boolean restartPods,
            Optional<String> fieldManager) {
        return prove(readAndDecide(declared, allNamespaces, fieldManager), depth, restartPods);
    }

    /**
     * Steps 1 and 2 alone: the LISTs and each decision made from the objects read, nothing proved yet
     * (the UI draws its first list from this while {@link #prove} asks the server).
     *
     * @param fieldManager {@code --field-manager}
     */
    public Assessment readAndDecide(List<ObjectNode> declared, boolean allNamespaces, Optional<String> fieldManager) {
        List<String> notes = new ArrayList<>();
        LiveState live = volumesForCopy(declared, read(declared, allNamespaces, notes), notes);
        Map<String, ObjectNode> declaredByKey = new HashMap<>();
        declared.forEach(d -> declaredByKey.put(Objects.key(d), d));
        Map<String, ObjectNode> liveByKey = new HashMap<>();
        live.statefulSets().forEach(s -> liveByKey.put(Objects.key(s), s));

        List<Assessed> out = new ArrayList<>();
        List<Decision> decided = new ArrayList<>();
        for (Decision d : decide(declared, live, copy)) {
            decided.add(PreFlight.limits(d, live.storageClasses()));
        }
        for (Decision d : PreFlight.lastResizeFailed(decided, live.claims(), cluster)) {
            String key = Metadata.key(d.namespace(), d.name());
            ObjectNode l = liveByKey.get(key);
            ObjectNode decl = declaredByKey.get(key);
            // only a decision with work is ever re-applied (a proof can refuse it, never give work to
            // one without): building the object for every StatefulSet copied the whole manifest
            ObjectNode reapply = l == null || !d.verdict().hasWork() ? null : ReapplyObject.of(decl, l);
            String manager = l == null ? "" : ReapplyObject.fieldManager(l, fieldManager);
            Assessed a = new Assessed(d, decl, l, reapply, manager, null);
            progress.on(ProgressEvent.info(d.namespace(), d.name(), Phase.DECIDE, d.verdict().label() + ": " + d.detail()));
            for (String w : d.warnings()) {
                progress.on(ProgressEvent.warn(d.namespace(), d.name(), Phase.DECIDE, w));
            }
            out.add(a);
        }
        return new Assessment(out, notes, Set.of(), live.claims());
    }

    /**
     * Step 3 for what {@link #readAndDecide} answered: the permissions and dry runs of every
     * StatefulSet with work, which may turn its decision into a refusal or add warnings.
     *
     * @param restartPods the run will evict pods (one more permission to check)
     */
    public Assessment prove(Assessment decided, Depth depth, boolean restartPods) {
        List<Assessed> out = new ArrayList<>(decided.items());
        Set<String> noLeases = ConcurrentHashMap.newKeySet();
        List<Integer> work = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).decision().verdict().hasWork()) {
                work.add(i);
            }
        }
        Permissions permissions = askPermissions(out, work, restartPods);
        // The StatefulSets are proved together, each one's requests in order; each one's progress is
        // held back and told in declaration order, so the output is the same as one by one.
        List<Callable<Proved>> tasks = new ArrayList<>();
        for (int i : work) {
            Assessed a = out.get(i);
            tasks.add(() -> {
                List<ProgressEvent> told = new ArrayList<>();
                return new Proved(prove(a, depth, restartPods, permissions, noLeases, told::add), told);
            });
        }
        List<Proved> proved = Together.all(tasks, p -> p.events().forEach(progress::on));
        for (int k = 0; k < work.size(); k++) {
            out.set(work.get(k), proved.get(k).assessed());
        }
        out.sort(Comparator.comparing(Assessed::namespace).thenComparing(Assessed::name));
        return new Assessment(out, decided.notes(), noLeases, decided.claims());
    }

    /**
     * The permissions of every namespace with work, before any proof: one rules review per namespace,
     * all at once; where one is incomplete or refused, every access review the namespace's proofs will
     * ask, all at once too. So the proofs that follow ask nothing more (but the core Events review, asked
     * only where events.k8s.io is refused), and the reviews cost one or two round trips, not one per verb.
     */
    private Permissions askPermissions(List<Assessed> out, List<Integer> work, boolean restartPods) {
        Permissions permissions = new Permissions(cluster);
        Map<String, Set<ResourceAccess>> needed = new java.util.TreeMap<>();
        for (int i : work) {
            Assessed a = out.get(i);
            String ns = a.namespace();
            Set<ResourceAccess> verbs = needed.computeIfAbsent(ns, k -> new java.util.LinkedHashSet<>());
            verbs.addAll(claimVerbs(ns));
            verbs.add(createEvents("events.k8s.io", ns));
            verbs.addAll(statefulSetVerbs(ns, a.decision().recreate(), restartPods));
            if (a.decision().verdict() == Verdict.COPY) {
                verbs.addAll(copyVerbs(ns));
            }
            verbs.addAll(LeaseLock.clusterRecordAccess(ns));
        }
        List<Callable<Boolean>> rulesReviews = new ArrayList<>();
        List<String> namespaces = new ArrayList<>(needed.keySet());
        namespaces.forEach(ns -> rulesReviews.add(() -> permissions.readRules(ns)));
        Together.all(rulesReviews);
        List<Callable<Boolean>> accessReviews = new ArrayList<>();
        for (String ns : namespaces) {
            if (!permissions.known(ns)) {
                needed.get(ns).forEach(r -> accessReviews.add(() -> permissions.allowed(r)));
            }
        }
        if (work.stream().anyMatch(i -> out.get(i).decision().verdict() == Verdict.COPY)) {
            copyVolumeVerbs().forEach(r -> accessReviews.add(() -> permissions.allowed(r)));
        }
        Together.all(accessReviews);
        return permissions;
    }

    /**
     * {@link Decider#decide}, with each declared StatefulSet given only the claims it could own by
     * name ({@code <template>-<statefulset>-<digits>}, found in a map) instead of every claim of its
     * namespace: {@link Decider#decideOne} ignores any other, so the decisions are the same, without
     * the StatefulSets × claims walk (2,000 × 300 per namespace in the benchmark).
     */
    static List<Decision> decide(List<ObjectNode> declared, LiveState live) {
        return decide(declared, live, CopyOptIn.NONE);
    }

    /** {@link #decide(List, LiveState)} with the operator's opt-in to the copy migration. */
    static List<Decision> decide(List<ObjectNode> declared, LiveState live, CopyOptIn copy) {
        Map<String, ObjectNode> liveByKey = new HashMap<>();
        live.statefulSets().forEach(s -> liveByKey.put(Objects.key(s), s));
        Map<String, List<ObjectNode>> claimsByPrefix = new HashMap<>();
        for (ObjectNode c : live.claims()) {
            String name = Objects.name(c);
            int dash = name.lastIndexOf('-');
            if (dash > 0 && dash < name.length() - 1 && name.substring(dash + 1).chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
                claimsByPrefix.computeIfAbsent(Objects.namespace(c) + "/" + name.substring(0, dash), k -> new ArrayList<>()).add(c);
            }
        }
        StorageFacts storage = live.storage();
        Function<ObjectNode, Decision> decideOne = d -> {
            String ns = Objects.namespace(d);
            Set<String> templates = new java.util.LinkedHashSet<>();
            d.path("spec").path("volumeClaimTemplates").forEach(t -> templates.add(t.path("metadata").path("name").asText("")));
            List<ObjectNode> candidates = new ArrayList<>();
            for (String t : templates) {
                candidates.addAll(claimsByPrefix.getOrDefault(ns + "/" + t + "-" + Objects.name(d), List.of()));
            }
            return Decider.decideOne(d, liveByKey.get(Objects.key(d)), candidates, storage, copy);
        };
        List<Decision> out = inTwo(declared, decideOne);
        out.sort(Comparator.comparing(Decision::namespace).thenComparing(Decision::name));
        return out;
    }

    /** From this many StatefulSets, deciding is shared with a second thread (a decision is pure: plan's). */
    static final int DECIDE_IN_TWO_FROM = 256;

    /**
     * {@code f} of every item, in order: the two halves sent together ({@link Together}) when there are many and
     * a second processor. The first failure in the items' order is thrown, as a loop would throw it.
     */
    static <T, R> List<R> inTwo(List<T> items, Function<T, R> f) {
        if (items.size() < DECIDE_IN_TWO_FROM || Runtime.getRuntime().availableProcessors() < 2) {
            return each(items, f);
        }
        int half = items.size() / 2;
        List<List<R>> halves = Together.all(List.of(() -> each(items.subList(0, half), f),
                () -> each(items.subList(half, items.size()), f)));
        List<R> out = new ArrayList<>(halves.get(0));
        out.addAll(halves.get(1));
        return out;
    }

    private static <T, R> List<R> each(List<T> items, Function<T, R> f) {
        List<R> out = new ArrayList<>(items.size());
        items.forEach(i -> out.add(f.apply(i)));
        return out;
    }

    /** One StatefulSet's proof and what it told, held back until the ones before it are told. */
    private record Proved(Assessed assessed, List<ProgressEvent> events) {}

    /** Step 3 for one StatefulSet: access reviews, the apply dry run, the claim and delete dry runs (APPLY). */
    private Assessed prove(Assessed a, Depth depth, boolean restartPods, Permissions permissions,
            Set<String> noLeases, Progress told) {
        if (depth == Depth.APPLY || a.failure() == null && a.decision().verdict().hasWork()) {
            a = permissions(a, restartPods, permissions, noLeases);
        }
        if (a.failure() == null && a.decision().verdict().hasWork() && a.decision().recreate()) {
            a = proveApply(a, told);
        }
        if (a.failure() == null && a.decision().verdict().hasWork() && (depth == Depth.APPLY || classUnknown(a.decision()))) {
            a = proveClaims(a, told);
            if (depth == Depth.APPLY && a.failure() == null && a.decision().verdict().hasWork() && a.decision().recreate()) {
                a = proveDelete(a, told);
            }
        }
        if (a.failure() == null && a.decision().verdict() == Verdict.COPY) {
            a = proveEvictions(a, told); // plan too: its verdict is apply's
        }
        return a;
    }

    /**
     * A claim to grow whose StorageClass could not be read (a namespace admin's plan): only the server's dry run of its
     * patch says whether it can grow (the PersistentVolumeClaimResize admission runs on dry runs too), so a plan sends
     * it as apply does, and says the verdict apply will.
     */
    private static boolean classUnknown(Decision d) {
        return d.claimsToGrow().stream().anyMatch(c -> !c.classKnown());
    }

    /** Step 1: LIST StatefulSets and claims per namespace (or cluster-wide), StorageClasses and CSIDrivers once. */
    private LiveState read(List<ObjectNode> declared, boolean allNamespaces, List<String> notes) {
        List<NamespaceScope> scopes = new ArrayList<>();
        if (allNamespaces) {
            scopes.add(NamespaceScope.all());
        } else {
            Set<String> namespaces = new TreeSet<>();
            declared.forEach(d -> namespaces.add(Objects.namespace(d)));
            namespaces.forEach(ns -> scopes.add(NamespaceScope.of(ns)));
        }
        Future<List<Object>> early = allNamespaces ? prefetched : null;
        prefetched = null;
        List<Object> answers = early != null ? Together.join(early) : list(scopes);
        List<ObjectNode> sets = new ArrayList<>();
        List<ObjectNode> claims = new ArrayList<>();
        for (int i = 0; i < scopes.size(); i++) {
            sets.addAll(((ObjectList) answers.get(2 * i)).items());
            claims.addAll(((ObjectList) answers.get(2 * i + 1)).items());
        }
        List<ObjectNode> classes = List.of();
        StorageClassList listed = (StorageClassList) answers.get(answers.size() - 2);
        boolean known = listed instanceof StorageClassList.Visible;
        if (listed instanceof StorageClassList.Visible v) {
            classes = v.items();
        } else {
            String message = ((StorageClassList.Forbidden) listed).message();
            notes.add("StorageClasses cannot be listed (" + message + "); whether each claim can grow is left to the"
                    + " server's dry run of its patch");
        }
        List<ObjectNode> drivers = List.of();
        CsiDriverList driversListed = (CsiDriverList) answers.get(answers.size() - 1);
        if (driversListed instanceof CsiDriverList.Visible v) {
            drivers = v.items();
        } else {
            notes.add("CSIDrivers cannot be listed (" + ((CsiDriverList.Forbidden) driversListed).message() + "); whether a CSI"
                    + " class has a resizer is unchecked, and each StatefulSet growing claims of one says so");
        }
        progress.on(ProgressEvent.info("", "", Phase.READ, sets.size() + " StatefulSet(s), " + claims.size() + " claim(s), "
                + classes.size() + " StorageClass(es), " + drivers.size() + " CSIDriver(s) in "
                + (allNamespaces ? "all namespaces" : scopes.size() + " namespace(s)")));
        return new LiveState(sets, claims, classes, known, drivers, driversListed instanceof CsiDriverList.Visible);
    }

    /** Every LIST at once (StatefulSets and claims per scope, StorageClasses, CSIDrivers), answered in this order. */
    private List<Object> list(List<NamespaceScope> scopes) {
        List<Callable<Object>> lists = new ArrayList<>();
        for (NamespaceScope scope : scopes) {
            lists.add(() -> cluster.listStatefulSets(scope));
            lists.add(() -> cluster.listClaims(scope));
        }
        lists.add(cluster::listStorageClasses);
        lists.add(cluster::listCsiDrivers);
        return Together.all(lists);
    }

    /**
     * Decides with the operator's opt-in to the copy migration ({@code --copy}): a StatefulSet refused only for want of
     * expansion becomes a copy plan ({@link Decider#decideOne}).
     */
    public Assessor copying(CopyOptIn optIn) {
        this.copy = optIn == null ? CopyOptIn.NONE : optIn;
        return this;
    }

    /**
     * The PersistentVolumes, listed only where the opt-in copies a declared StatefulSet's claims into a
     * {@code kubernetes.io/no-provisioner} class (it makes no volume: one must be Available for each claim); any other
     * run sends no request for them. Where they are forbidden, the decision says what to create.
     */
    private LiveState volumesForCopy(List<ObjectNode> declared, LiveState live, List<String> notes) {
        if (!copy.chosen()) {
            return live;
        }
        Set<String> noProvisioner = new TreeSet<>();
        live.storageClasses().forEach(sc -> {
            if (Resizers.NO_PROVISIONER.equals(Metadata.text(sc, "provisioner"))) {
                noProvisioner.add(Objects.name(sc));
            }
        });
        if (noProvisioner.isEmpty()) {
            return live;
        }
        Set<String> prefixes = new java.util.HashSet<>();
        declared.forEach(d -> d.path("spec").path("volumeClaimTemplates").forEach(t -> prefixes.add(
                Objects.namespace(d) + "/" + t.path("metadata").path("name").asText("") + "-" + Objects.name(d) + "-")));
        boolean needed = false;
        for (ObjectNode c : live.claims()) {
            String name = Objects.name(c);
            String prefix = Objects.namespace(c) + "/" + name.substring(0, name.lastIndexOf('-') + 1);
            if (prefixes.contains(prefix) && noProvisioner.contains(copy.classFor(Metadata.text(c, "spec", "storageClassName")))) {
                needed = true;
                break;
            }
        }
        if (!needed) {
            return live;
        }
        PersistentVolumeList listed = cluster.listPersistentVolumes();
        if (listed instanceof PersistentVolumeList.Visible v) {
            return live.withVolumes(PersistentVolumes.of(v.items()));
        }
        String message = ((PersistentVolumeList.Forbidden) listed).message();
        notes.add("PersistentVolumes cannot be listed (" + message + "); a copy into a " + Resizers.NO_PROVISIONER
                + " class says which volumes must exist");
        return live.withVolumes(PersistentVolumes.unreadable(message));
    }

    /**
     * Sends step 1's cluster-wide LISTs now, for the next {@link #assess} with {@code allNamespaces}:
     * with {@code -A} they do not depend on the manifest, so they are answered while it is read.
     * The same four requests, sent earlier; nothing is written.
     */
    public Assessor prefetchAllNamespaces() {
        prefetched = Together.start(() -> list(List.of(NamespaceScope.all())));
        return this;
    }

    /**
     * What a run may do here, each review asked once per namespace. The verbs it needs
     * ({@link #claimVerbs}, {@link #statefulSetVerbs}) block before any write when one is missing; the
     * optional writes only warn, each with what the run does instead: Events are written through the core API when events.k8s.io is refused (the built-in
     * admin and edit roles grant core Events only) and skipped when both are; the lock and record are
     * kept in the local journal when Leases or Secrets are refused.
     */
    private Assessed permissions(Assessed a, boolean restartPods, Permissions reviews, Set<String> noLeases) {
        String ns = a.namespace();
        // asked in this order since the first runs: the claims' verbs, Events, the StatefulSet's
        List<String> missing = missing(claimVerbs(ns), reviews);
        boolean eventsV1 = reviews.allowed(createEvents("events.k8s.io", ns));
        missing.addAll(missing(statefulSetVerbs(ns, a.decision().recreate(), restartPods), reviews));
        List<String> clusterWide = new ArrayList<>();
        if (a.decision().verdict() == Verdict.COPY) {
            missing.addAll(missing(copyVerbs(ns), reviews));
            clusterWide = missing(copyVolumeVerbs(), reviews);
        }
        // the core API is asked only where events.k8s.io is refused
        if (!eventsV1 && !reviews.allowed(createEvents("", ns))) {
            a = a.with(warned(a.decision(), "Events are not recorded in namespace " + ns + ": you cannot create"
                    + " events.events.k8s.io nor events there. The run goes on without them; what it does is in its output and its record"));
        }
        // the lock in a Lease, the record in a Secret (reading it needs Secret rights, at least those that read the StatefulSet)
        List<String> notInCluster = new ArrayList<>();
        for (ResourceAccess r : LeaseLock.clusterRecordAccess(ns)) {
            if (!reviews.allowed(r)) {
                notInCluster.add(r.describe());
            }
        }
        if (!notInCluster.isEmpty()) {
            noLeases.add(ns);
            a = a.with(warned(a.decision(), "the run's lock and record are kept in the local journal only, so another operator"
                    + " does not see the run: you cannot " + String.join(", ", notInCluster) + " in namespace " + ns
                    + " (a run keeps its lock in a Lease and its record in a Secret beside the StatefulSet where it may)"));
        }
        if (missing.isEmpty() && clusterWide.isEmpty()) {
            return a;
        }
        List<String> sentences = new ArrayList<>();
        if (!missing.isEmpty()) {
            sentences.add("you cannot " + String.join(", ", missing) + " in namespace " + ns
                    + "; ask a cluster admin for these verbs (a Role bound to your user), then run again");
        }
        if (!clusterWide.isEmpty()) {
            sentences.add("you cannot " + String.join(", ", clusterWide) + " cluster-wide, which the copy needs to keep each"
                    + " old and new volume with reclaim policy Retain and to point the new one at its claim; ask a cluster admin"
                    + " for these verbs (a ClusterRole with a ClusterRoleBinding to your user: a RoleBinding grants nothing on"
                    + " PersistentVolumes), then run again");
        }
        String who = String.join("; ", sentences) + ". Nothing was written";
        return a.with(refusal(a.decision(), Reason.FORBIDDEN, who));
    }

    private static ResourceAccess createEvents(String group, String ns) {
        return new ResourceAccess("create", group, "events", "", ns, "");
    }

    /** Growing the claims: needed by every run. */
    static List<ResourceAccess> claimVerbs(String ns) {
        // get: every claim is read again before its patch, by the waits and by the result
        return List.of(new ResourceAccess("get", "", "persistentvolumeclaims", "", ns, ""),
                new ResourceAccess("patch", "", "persistentvolumeclaims", "", ns, ""),
                new ResourceAccess("watch", "", "persistentvolumeclaims", "", ns, ""));
    }

    /** Recreating the StatefulSet (and evicting pods when asked): needed only by a run that recreates. */
    static List<ResourceAccess> statefulSetVerbs(String ns, boolean recreate, boolean restartPods) {
        List<ResourceAccess> needed = new ArrayList<>();
        if (recreate) {
            for (String verb : List.of("delete", "create", "patch", "get", "watch")) {
                needed.add(new ResourceAccess(verb, "apps", "statefulsets", "", ns, ""));
            }
            needed.add(new ResourceAccess("list", "", "pods", "", ns, ""));
            needed.add(new ResourceAccess("watch", "", "pods", "", ns, ""));
            needed.add(new ResourceAccess("list", "apps", "controllerrevisions", "", ns, ""));
            if (restartPods) {
                needed.add(new ResourceAccess("create", "", "pods", "eviction", ns, ""));
            }
        }
        return needed;
    }

    /**
     * What a copy needs in the namespace beyond the re-create: evict each pod, run and read its copy pod, create the
     * temporary and the re-created claims and delete the temporary and the original ones.
     */
    static List<ResourceAccess> copyVerbs(String ns) {
        List<ResourceAccess> needed = new ArrayList<>();
        needed.add(new ResourceAccess("create", "", "pods", "eviction", ns, ""));
        for (String verb : List.of("create", "get", "delete")) {
            needed.add(new ResourceAccess(verb, "", "pods", "", ns, ""));
        }
        needed.add(new ResourceAccess("get", "", "pods", "log", ns, ""));
        needed.add(new ResourceAccess("create", "", "persistentvolumeclaims", "", ns, ""));
        needed.add(new ResourceAccess("delete", "", "persistentvolumeclaims", "", ns, ""));
        return needed;
    }

    /**
     * What a copy needs on the volumes, which are cluster-scoped: read each one and patch its reclaim policy and claimRef.
     * A namespace's rules review cannot answer these (it lists the rules of RoleBindings too, which never grant a
     * cluster-scoped resource: rbac's {@code VisitRulesFor} with no namespace visits ClusterRoleBindings only), so each
     * is an access review with no namespace.
     */
    static List<ResourceAccess> copyVolumeVerbs() {
        return List.of(new ResourceAccess("get", "", "persistentvolumes", "", "", ""),
                new ResourceAccess("patch", "", "persistentvolumes", "", "", ""));
    }

    private List<String> missing(List<ResourceAccess> verbs, Permissions reviews) {
        List<String> out = new ArrayList<>();
        for (ResourceAccess r : verbs) {
            if (!reviews.allowed(r)) {
                out.add(r.describe());
            }
        }
        return out;
    }

    /** The decision with one more warning: what an operator should know that does not stop the run. */
    static Decision warned(Decision d, String warning) {
        List<String> warnings = new ArrayList<>(d.warnings());
        warnings.add(warning);
        if (d instanceof Refusal r) {
            return r.with(r.findings(), r.claims(), warnings);
        }
        Plan p = (Plan) d;
        return new Plan(p.namespace(), p.name(), p.verdict(), p.templates(), p.claims(), warnings, p.detail());
    }

    /** The declared object with the LIVE claim templates, dryRun=All force=true: 200 proves only the templates differ. */
    private Assessed proveApply(Assessed a, Progress progress) {
        ObjectNode probe = ReapplyObject.withLiveTemplates(a.reapply(), a.live());
        try {
            cluster.applyStatefulSet(probe, a.fieldManager(), true, true);
            progress.on(ProgressEvent.info(a.namespace(), a.name(), Phase.CHECK,
                    "server dry run: the claim templates are the only immutable difference"));
            return a;
        } catch (ClusterException e) {
            if (e.code() == 422 && afterInvalidPrefix(e.getMessage()).startsWith(IMMUTABLE_PREFIX)) {
                return a.with(refusal(a.decision(), Reason.OTHER_IMMUTABLE, "the server's dry run of the re-apply answers: "
                        + e.getMessage() + "; declare the live value of every field other than the claim templates' sizes"));
            }
            if (e.code() == 403) {
                return a.with(refusal(a.decision(), Reason.FORBIDDEN, "you cannot patch statefulsets.apps in namespace "
                        + a.namespace() + " (the server: " + e.getMessage() + "); ask a cluster admin for the verb. Nothing was written"));
            }
            return a.failed("the server's dry run of the re-apply of StatefulSet " + a.namespace() + "/" + a.name()
                    + " failed: " + e.getMessage() + ". Nothing was written");
        }
    }

    /** Each claim patch, dryRun=All. */
    private Assessed proveClaims(Assessed a, Progress progress) {
        List<Finding> findings = new ArrayList<>();
        // the server refuses each claim of a class that cannot expand alike: one sentence names them all
        Map<String, List<String>> notExpandable = new java.util.LinkedHashMap<>();
        // the patches' dry runs sent together, as a phase's requests; their answers read in the claims' order
        List<ClaimState> claims = a.decision().claimsToGrow();
        List<Callable<Object>> patches = new ArrayList<>();
        for (ClaimState c : claims) {
            patches.add(() -> cluster.patchClaimStorage(a.namespace(), c.name(), c.target().toString(),
                    SizeBefore.written(c.request() == null ? "" : c.request().toString()), true));
        }
        List<Together.Settled<Object>> answers = Together.settled(patches);
        for (int i = 0; i < claims.size(); i++) {
            ClaimState c = claims.get(i);
            RuntimeException failure = answers.get(i).failure();
            if (failure == null) {
                continue;
            }
            if (!(failure instanceof ClusterException e)) {
                throw failure;
            }
            String msg = e.getMessage();
            if (e.code() == 403 && (msg.contains("cannot patch") || msg.contains("User \""))) {
                findings.add(new Finding(Reason.FORBIDDEN, "you cannot patch claim " + c.name() + ": " + msg));
            } else if (e.code() == 403 && msg.contains("exceeded quota")) {
                return a.failed("claim " + a.namespace() + "/" + c.name() + " cannot grow to " + c.target() + ": " + msg
                        + "; raise the ResourceQuota, then run again. Nothing was written");
            } else if (e.code() == 403) {
                notExpandable.computeIfAbsent(msg.replace(c.name(), "\u0000"), k -> new ArrayList<>()).add(c.name());
            } else if (e.code() == 422 && msg.contains("immutable after creation")) {
                findings.add(new Finding(Reason.CLAIM_UNBOUND, "claim \"" + c.name() + "\" is not Bound (the server: " + msg + ")"));
            } else {
                return a.failed("the server's dry run of growing claim " + a.namespace() + "/" + c.name() + " to "
                        + c.target() + " failed: " + msg + ". Nothing was written");
            }
        }
        // --copy is decided from the class (its provisioner, its policy), which this user cannot read: said, not guessed
        String noCopy = copy.chosen() ? "; --copy cannot be decided without reading the StorageClass (list"
                + " storageclasses.storage.k8s.io, cluster-scoped): ask a cluster admin for it, then run again" : "";
        notExpandable.forEach((said, names) -> findings.add(new Finding(Reason.NOT_EXPANDABLE, names.size() == 1
                ? "claim \"" + names.get(0) + "\" cannot grow (the server: " + said.replace("\u0000", names.get(0))
                        + "); a cluster admin can allow expansion on its class" + noCopy
                : "claims \"" + String.join("\", \"", names) + "\" cannot grow (the server, for " + names.get(0) + ": "
                        + said.replace("\u0000", names.get(0)) + "); a cluster admin can allow expansion on their class" + noCopy)));
        if (findings.isEmpty()) {
            if (!claims.isEmpty()) { // a copy patches no claim: nothing was asked, nothing to say
                progress.on(ProgressEvent.info(a.namespace(), a.name(), Phase.CHECK,
                        "server dry run: " + claims.size() + " claim patch(es) accepted"));
            }
            return a;
        }
        return a.with(new Refusal(a.namespace(), a.name(), findings, a.decision().templates(), a.decision().claims(),
                a.decision().warnings()));
    }

    /** The orphan delete with its UID precondition, dryRun=All. */
    private Assessed proveDelete(Assessed a, Progress progress) {
        try {
            cluster.deleteStatefulSetOrphan(a.namespace(), a.name(), Objects.uid(a.live()), true);
            progress.on(ProgressEvent.info(a.namespace(), a.name(), Phase.CHECK,
                    "server dry run: the orphan delete (UID " + Objects.uid(a.live()) + ") is accepted"));
            return a;
        } catch (ClusterException e) {
            if (e.code() == 403) {
                return a.with(refusal(a.decision(), Reason.FORBIDDEN, "you cannot delete statefulsets.apps in namespace "
                        + a.namespace() + " (the server: " + e.getMessage() + "). Nothing was written"));
            }
            return a.failed("the server's dry run of the orphan delete of StatefulSet " + a.namespace() + "/" + a.name()
                    + " failed: " + e.getMessage() + ". Nothing was written; run again to re-read it");
        }
    }

    /**
     * A copy takes each pod down in turn through the Eviction API: the server's dry run of each eviction (sent together)
     * says now, before any write, whether a PodDisruptionBudget lets it go (429: blocked, nothing written).
     */
    private Assessed proveEvictions(Assessed a, Progress progress) {
        String ns = a.namespace();
        List<String> pods = a.decision().claimsToCopy().stream().filter(c -> !c.scaledAway()).map(c -> a.name() + "-" + c.ordinal())
                .distinct().toList();
        List<java.util.concurrent.Callable<Optional<ClusterException>>> asks = new ArrayList<>();
        for (String pod : pods) {
            asks.add(() -> {
                try {
                    cluster.evictPod(ns, pod, true);
                    return Optional.empty();
                } catch (ClusterException e) {
                    return e.isNotFound() ? Optional.empty() : Optional.of(e);
                }
            });
        }
        List<Optional<ClusterException>> answers = Together.all(asks);
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < pods.size(); i++) {
            if (answers.get(i).isEmpty()) {
                continue;
            }
            ClusterException e = answers.get(i).get();
            if (e.code() == 403) {
                return a.with(refusal(a.decision(), Reason.FORBIDDEN, "you cannot evict pods in namespace " + ns + " (the server: "
                        + e.getMessage() + "). Nothing was written"));
            }
            if (e.code() != 429) {
                return a.failed("the server's dry run of the eviction of pod " + ns + "/" + pods.get(i) + " failed: " + e.getMessage()
                        + ". Nothing was written; run again");
            }
            refused.add("pod " + pods.get(i) + ": " + e.getMessage());
        }
        if (!refused.isEmpty()) {
            return a.with(refusal(a.decision(), Reason.COPY_BUDGET, "a PodDisruptionBudget does not let "
                    + (refused.size() == 1 ? "this pod" : "these pods") + " go now (" + String.join("; ", refused) + "), and the copy"
                    + " takes each pod down in turn. Nothing was written; run again when it allows one pod down (kubectl get pdb -n "
                    + ns + ")"));
        }
        progress.on(ProgressEvent.info(ns, a.name(), Phase.CHECK, "server dry run: the eviction of each pod to copy is accepted (its"
                + " budgets let it go now)"));
        return a;
    }

    private static String afterInvalidPrefix(String message) {
        int i = message.indexOf(" is invalid: ");
        return i < 0 ? message : message.substring(i + " is invalid: ".length());
    }

    static Refusal refusal(Decision d, Reason reason, String message) {
        List<Finding> findings = new ArrayList<>();
        findings.add(new Finding(reason, message));
        if (d instanceof Refusal r) {
            findings.addAll(r.findings());
            return r.with(findings, r.claims(), r.warnings());
        }
        return new Refusal(d.namespace(), d.name(), findings, d.templates(), d.claims(), d.warnings());
    }

    static boolean isWork(Decision d) {
        return d.verdict() == Verdict.GROW || d.verdict() == Verdict.GROW_CLAIMS;
    }
}
