package dev.stsresize.tui.source;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Assessment;
import dev.stsresize.converge.Assessor;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.PendingRun;
import dev.stsresize.converge.Progress;
import dev.stsresize.converge.Record;
import dev.stsresize.converge.RunRecords;
import dev.stsresize.manifest.Manifest;
import dev.stsresize.manifest.ManifestReader;
import dev.stsresize.manifest.ReadLimits;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.DecisionSource;
import dev.stsresize.tui.InterruptedRun;
import dev.stsresize.tui.Loaded;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decisions from the manifest and the cluster, as {@code plan} makes them: the {@link Assessor} reads
 * (one LIST of StatefulSets and claims per namespace, StorageClasses once) and decides, which the list
 * shows at once ({@link #loadFirst}); then it proves the StatefulSets with work by the server's rules
 * reviews and dry runs ({@link #prove}), which the list fills in. A refresh reads the files and the
 * cluster again; what came on stdin was read once and is reused. The declared objects of the last load
 * are what the wizard converges.
 */
public final class ClusterDecisions implements DecisionSource {
    private final Cluster cluster;
    private final InputStream stdin;
    private final List<String> files;
    private final boolean recursive;
    private final String defaultNamespace;
    private final boolean explicitNamespace;
    private final boolean allNamespaces;
    private final String context;
    private final String server;
    private final Journal journal;
    /** {@code --copy}: every StatefulSet decided with the opt-in, as plan and apply decide with it. */
    private CopyOptIn copy = CopyOptIn.NONE;
    /** The StatefulSets the operator gave the opt-in one at a time (the list's C), by "namespace/name": decided with it again. */
    private final Set<String> copyRows = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private Manifest stdinManifest;
    private volatile Map<String, ObjectNode> declared = Map.of();
    private volatile List<String> namespaces = List.of();
    /** The last first load, read and decided, its proofs not asked yet; null once proved. */
    private Pending pending;
    /** The last load with its proofs in, answered again when asked twice. */
    private Loaded proved;

    /** A load between its LISTs and its proofs. */
    private record Pending(Assessment decided, Manifest manifest) {}

    /**
     * @param defaultNamespace {@code -n}, else the context's namespace
     * @param context what the header names as the context (the kubeconfig context and its file)
     * @param server the API server's URL
     * @param journal where interrupted runs of this machine are recorded (their Leases are read too)
     */
    public ClusterDecisions(Cluster cluster, InputStream stdin, List<String> files, boolean recursive, String defaultNamespace,
            boolean explicitNamespace, boolean allNamespaces, String context, String server, Journal journal) {
        this.journal = journal;
        this.cluster = cluster;
        this.stdin = stdin;
        this.files = List.copyOf(files);
        this.recursive = recursive;
        this.defaultNamespace = defaultNamespace;
        this.explicitNamespace = explicitNamespace;
        this.allNamespaces = allNamespaces;
        this.context = context;
        this.server = server;
    }

    /** Decides every StatefulSet with the operator's opt-in to the copy ({@code ui --copy}), as {@code plan --copy} does. */
    public ClusterDecisions copying(CopyOptIn optIn) {
        this.copy = optIn == null ? CopyOptIn.NONE : optIn;
        return this;
    }

    @Override
    public synchronized Loaded load() {
        loadFirst();
        return prove();
    }

    /**
     * The LISTs and the decisions from the objects alone (one round trip): what the list draws first.
     * The StatefulSets with work are named unproved until {@link #prove} has the server's answers.
     */
    @Override
    public synchronized Loaded loadFirst() {
        Manifest manifest = stdinManifest;
        if (manifest == null) {
            manifest = new ManifestReader(stdin, ReadLimits.DEFAULT).read(files, recursive, defaultNamespace, explicitNamespace);
            if (files.contains("-")) {
                stdinManifest = manifest;
            }
        }
        Assessment decided = withCopyRows(new Assessor(cluster, Progress.NONE).copying(copy).readAndDecide(manifest.objects(), allNamespaces,
                Optional.empty()), manifest);
        Map<String, ObjectNode> objects = new HashMap<>();
        for (ObjectNode o : manifest.objects()) {
            objects.put(Metadata.key(o, defaultNamespace), o);
        }
        declared = Map.copyOf(objects);
        namespaces = List.copyOf(new TreeSet<>(manifest.namespaces()));
        Loaded first = loaded(decided, manifest, List.of());
        Set<String> unproved = new HashSet<>();
        decided.items().stream().filter(x -> x.decision().verdict().hasWork()).forEach(x -> unproved.add(Loaded.key(x.decision())));
        pending = new Pending(decided, manifest);
        proved = null;
        return first.withUnproved(unproved);
    }

    /**
     * The last {@link #loadFirst} proved as {@code plan} proves it (rules reviews, then the dry runs),
     * with the runs of its StatefulSets that stopped before they finished. Asked again, the same answer.
     */
    @Override
    public synchronized Loaded prove() {
        if (pending == null) {
            if (proved == null) {
                throw new IllegalStateException("nothing to prove: the StatefulSets were not read yet");
            }
            return proved;
        }
        Assessment a = new Assessor(cluster, Progress.NONE).prove(pending.decided(), Assessor.Depth.PLAN, false);
        List<Decision> decisions = a.items().stream().map(Assessed::decision).toList();
        proved = loaded(a, pending.manifest(), interrupted(decisions));
        pending = null;
        return proved;
    }

    /**
     * {@code decided} with the StatefulSets given the opt-in one at a time decided again with it (the default image, each
     * claim's own class): a refresh keeps what the operator chose. Nothing to do with {@code --copy}, which decided all.
     */
    private Assessment withCopyRows(Assessment decided, Manifest manifest) {
        if (copy.chosen() || copyRows.isEmpty()) {
            return decided;
        }
        List<ObjectNode> objects = manifest.objects().stream().filter(o -> copyRows.contains(Metadata.key(o, defaultNamespace))).toList();
        if (objects.isEmpty()) {
            return decided;
        }
        Assessment again = new Assessor(cluster, Progress.NONE).copying(CopyOptIn.withDefaults()).readAndDecide(objects, false, Optional.empty());
        Map<String, Assessed> byKey = new HashMap<>();
        again.items().forEach(x -> byKey.put(Metadata.key(x.namespace(), x.name()), x));
        List<Assessed> items = decided.items().stream().map(x -> byKey.getOrDefault(Metadata.key(x.namespace(), x.name()), x)).toList();
        List<String> notes = new ArrayList<>(decided.notes());
        again.notes().stream().filter(n -> !notes.contains(n)).forEach(notes::add);
        return new Assessment(items, notes, decided.namespacesWithoutLeases(), decided.claims());
    }

    /**
     * One refusal decided again with the opt-in to the copy (the default image, each claim's own class) and proved as a
     * plan proves (rules reviews, dry runs): a copy plan, or why the copy cannot take it. The StatefulSet keeps the opt-in
     * in this list's later loads.
     */
    @Override
    public synchronized Decision decideCopy(Decision d) {
        ObjectNode object = declared(d);
        if (object == null) {
            throw new IllegalStateException(Loaded.key(d) + " is no longer in the manifest: refresh the list (r)");
        }
        CopyOptIn optIn = copy.chosen() ? copy : CopyOptIn.withDefaults();
        Assessor assessor = new Assessor(cluster, Progress.NONE).copying(optIn);
        Assessment a = assessor.prove(assessor.readAndDecide(List.of(object), false, Optional.empty()), Assessor.Depth.PLAN, false);
        Decision decided = a.items().get(0).decision();
        copyRows.add(Loaded.key(d));
        if (proved != null) {
            proved = proved.withDecision(decided);
        }
        return decided;
    }

    private Loaded loaded(Assessment a, Manifest manifest, List<InterruptedRun> interrupted) {
        Map<String, String> uids = new HashMap<>();
        Map<String, String> managers = new HashMap<>();
        for (Assessed x : a.items()) {
            if (x.live() != null) {
                uids.put(Metadata.key(x.namespace(), x.name()), x.live().path("metadata").path("uid").asText(""));
                managers.put(Metadata.key(x.namespace(), x.name()), x.fieldManager());
            }
        }
        List<Decision> decisions = a.items().stream().map(Assessed::decision).toList();
        return new Loaded(decisions, uids, context, server,
                allNamespaces ? "all namespaces" : String.join(",", new TreeSet<>(manifest.namespaces())),
                String.join(",", files.stream().map(f -> f.equals("-") ? "stdin" : f).toList()),
                SnapshotDecisions.conditions(a.claims()), interrupted, managers).withSources(Loaded.sourcesOf(manifest)).withCopy(copy);
    }

    /**
     * Runs of the manifest's StatefulSets that stopped before they finished: this machine's journal,
     * and the Lease of each StatefulSet that is absent now (one GET each, only for those).
     */
    private List<InterruptedRun> interrupted(List<Decision> decisions) {
        if (journal == null) {
            return List.of();
        }
        RunRecords reader = new RunRecords(cluster, journal, server);
        Map<String, Decision> byKey = new LinkedHashMap<>();
        decisions.forEach(d -> byKey.put(Loaded.key(d), d));
        // only a record that can be trusted is offered; resume (and a re-run of apply) report the others
        Map<String, Record> records = new LinkedHashMap<>();
        try {
            for (PendingRun p : reader.allLocal()) {
                if (p.trusted() && byKey.containsKey(Metadata.key(p.namespace(), p.name()))) {
                    records.put(Metadata.key(p.namespace(), p.name()), p.record());
                }
            }
        } catch (RuntimeException e) {
            // an unreadable journal file: resume says so; the list still opens
        }
        for (Decision d : decisions) {
            if (d.verdict() == Verdict.ABSENT && !records.containsKey(Loaded.key(d))) {
                reader.find(d.namespace(), d.name(), true).filter(PendingRun::trusted).ifPresent(p -> records.put(Loaded.key(d), p.record()));
            }
        }
        List<InterruptedRun> out = new ArrayList<>();
        for (Record r : records.values()) {
            Decision d = byKey.get(Metadata.key(r.namespace(), r.name()));
            out.add(new InterruptedRun(r.namespace(), r.name(), r.phase(), r.holder(), r.startedAt(), d.verdict() == Verdict.ABSENT));
        }
        return out;
    }

    /** The manifest's object for a decision, as last read (null when the manifest no longer declares it). */
    public ObjectNode declared(Decision d) {
        return declared.get(Loaded.key(d));
    }

    /** Where usage is read: every namespace with -A, else the last manifest's namespaces. */
    public List<dev.stsresize.cluster.NamespaceScope> usageScopes() {
        return allNamespaces ? List.of(dev.stsresize.cluster.NamespaceScope.all())
                : namespaces.stream().map(dev.stsresize.cluster.NamespaceScope::of).toList();
    }
}
