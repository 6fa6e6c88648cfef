package dev.stsresize.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the declared StatefulSets from {@code -f} inputs. Other documents are skipped and counted.
 * Every StatefulSet is checked for what the decision needs (a name; a storage request on each
 * volumeClaimTemplate, parsable as a quantity), and refused with its file, document and line if not.
 */
public final class ManifestReader {
    private final Inputs inputs;
    private final ReadLimits limits;
    private DocumentReader documents;

    public ManifestReader(InputStream stdin, ReadLimits limits) {
        this.inputs = new Inputs(stdin, "-f");
        this.limits = limits;
    }

    /**
     * The reader, made on first use: its JSON mapper and YAML options are slow to make in a cold JVM, a time
     * {@link #readAhead} spends on its own thread rather than the command's (docs/performance.md).
     */
    private synchronized DocumentReader documents() {
        if (documents == null) {
            documents = new DocumentReader(limits);
        }
        return documents;
    }

    /**
     * @param namespace the namespace of StatefulSets that name none ({@code -n}, or the default)
     * @param namespaceExplicit {@code -n} was given: a StatefulSet naming another namespace is an error, as in kubectl
     */
    public Manifest read(List<String> paths, boolean recursive, String namespace, boolean namespaceExplicit) {
        checkNamespace(namespace, namespaceExplicit);
        Declarations declarations = new Declarations(namespace, namespaceExplicit);
        DocumentReader documents = documents();
        List<String> files = new ArrayList<>();
        inputs.forEach(paths, recursive, (file, reader) -> {
            files.add(file);
            documents.read(file, reader, declarations::accept);
        });
        return declarations.manifest(files);
    }

    /**
     * Starts reading the inputs on a thread of its own, before the namespace of StatefulSets that name none is
     * known (the kubeconfig's, read while this runs); {@link Ahead#manifest} then checks them as {@link #read}
     * does, with the same first error: a document's refusal before a later document's syntax error.
     */
    public Ahead readAhead(List<String> paths, boolean recursive) {
        Ahead ahead = new Ahead();
        Thread t = new Thread(() -> {
            try {
                DocumentReader documents = documents();
                inputs.forEach(paths, recursive, (file, reader) -> {
                    ahead.files.add(file);
                    documents.read(file, reader, ahead.read::add);
                });
            } catch (RuntimeException | Error e) {
                ahead.failure = e;
            }
        }, "stsresize-manifest");
        t.setDaemon(true);
        ahead.thread = t;
        t.start();
        return ahead;
    }

    /** A manifest being read by {@link #readAhead}: its documents in order, then what stopped the reading, if anything. */
    public static final class Ahead {
        private final List<Document> read = new ArrayList<>();
        /** The inputs opened, in order: an empty manifest's error names them. */
        private final List<String> files = new ArrayList<>();
        private Throwable failure;
        private Thread thread;

        private Ahead() {}

        /** What {@link #read} gives for these inputs, once they are read. */
        public Manifest manifest(String namespace, boolean namespaceExplicit) {
            checkNamespace(namespace, namespaceExplicit);
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true; // the reading ends by itself; the interrupt is kept for the caller
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            Declarations declarations = new Declarations(namespace, namespaceExplicit);
            read.forEach(declarations::accept);
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            return declarations.manifest(files);
        }
    }

    private static void checkNamespace(String namespace, boolean namespaceExplicit) {
        if (namespaceExplicit && !ApiNames.namespaceProblem(namespace, "-n").isEmpty()) {
            throw new UserError(ApiNames.namespaceProblem(namespace, "-n")); // before reading a byte of the manifests
        }
    }

    /** The documents read so far: the StatefulSets validated, once each, and the other kinds counted. */
    private static final class Declarations {
        private final String namespace;
        private final boolean namespaceExplicit;
        private final List<Document> out = new ArrayList<>();
        private final Map<String, Integer> skipped = new TreeMap<>();
        private final Map<String, Source> seen = new HashMap<>();

        Declarations(String namespace, boolean namespaceExplicit) {
            this.namespace = namespace;
            this.namespaceExplicit = namespaceExplicit;
        }

        void accept(Document doc) {
            if (!doc.is("apps/v1", "StatefulSet")) {
                skipped.merge(describeKind(doc), 1, Integer::sum);
                return;
            }
            Document sts = validated(doc, namespace, namespaceExplicit);
            String key = Metadata.key(sts.object(), "");
            Source earlier = seen.putIfAbsent(key, sts.source());
            if (earlier != null) {
                throw new UserError(sts.source() + ": StatefulSet " + key + " is declared a second time (first at " + earlier
                        + "). Keep one declaration of it.");
            }
            out.add(sts);
        }

        /**
         * The StatefulSets read from {@code files}; none is an error, as kubectl's "no objects passed to apply":
         * a plan of nothing would say "0 StatefulSets" and exit 0 for a wrong path or an empty render.
         */
        Manifest manifest(List<String> files) {
            if (out.isEmpty()) {
                throw new UserError(noStatefulSet(files, skipped));
            }
            return new Manifest(out, skipped);
        }
    }

    /** "no StatefulSet in the files read: a.yaml, b.yaml (they hold 2 documents of other kinds: v1 ConfigMap ×2). …" */
    static String noStatefulSet(List<String> files, Map<String, Integer> skipped) {
        String read = files.isEmpty() ? "no file (the folders given hold no .yaml, .yml or .json file)" : String.join(", ", files);
        StringBuilder others = new StringBuilder();
        skipped.forEach((kind, n) -> others.append(others.length() == 0 ? "" : ", ").append(kind).append(n == 1 ? "" : " ×" + n));
        String held = skipped.isEmpty() ? "no document" : "only " + others;
        return "no StatefulSet passed (read " + read + ": " + held + "). Pass with -f the manifest that declares the"
                + " StatefulSets to grow (with -R for a folder's subfolders).";
    }

    private static String describeKind(Document d) {
        String av = d.apiVersion().isEmpty() ? "(no apiVersion)" : d.apiVersion();
        String k = d.kind().isEmpty() ? "(no kind)" : d.kind();
        return av + " " + k;
    }

    static Document validated(Document doc, String namespace, boolean namespaceExplicit) {
        // completed in place: a document's tree is its own (the reader shares only immutable texts between documents)
        ObjectNode sts = doc.object();
        JsonNode name = sts.path("metadata").path("name");
        if (!name.isTextual() || name.asText().isBlank()) {
            throw new UserError(doc.source() + ": a StatefulSet has no metadata.name. Give it the name of the live"
                    + " StatefulSet it declares.");
        }
        String what = doc.source() + ": StatefulSet " + ApiNames.quote(name.asText());
        // ValidateObjectMeta with ValidateStatefulSetName (NameIsDNSSubdomain), pkg/apis/apps/validation
        List<String> nameErrors = ApiNames.subdomainErrors(name.asText());
        if (!nameErrors.isEmpty()) {
            throw refused(what, ApiNames.invalid("metadata.name", name.asText(), nameErrors),
                    "Give it the name of the live StatefulSet it declares (lower case letters, digits, '-' and '.')");
        }
        String ns = sts.path("metadata").path("namespace").asText("");
        if (ns.isEmpty()) {
            String problem = ApiNames.namespaceProblem(namespace, what + " names no namespace and "
                    + (namespaceExplicit ? "-n" : "the kubeconfig context's namespace") + " is " + ApiNames.quote(namespace)
                    + ", so");
            if (!problem.isEmpty()) {
                throw new UserError(problem);
            }
            ((ObjectNode) sts.get("metadata")).put("namespace", namespace);
        } else if (!ApiNames.labelErrors(ns).isEmpty()) {
            // ValidateObjectMeta: a namespaced object's namespace passes ValidateNamespaceName (NameIsDNSLabel)
            throw refused(what, ApiNames.invalid("metadata.namespace", ns, ApiNames.labelErrors(ns)),
                    "Write the name of an existing namespace (kubectl get namespaces lists them)");
        } else if (namespaceExplicit && !ns.equals(namespace)) {
            throw new UserError(doc.source() + ": StatefulSet \"" + name.asText() + "\" is in namespace \"" + ns
                    + "\", which does not match -n " + namespace + ". Pass -n " + ns + ", or drop -n.");
        }
        Replicas.check(sts, what);
        int i = 0;
        for (JsonNode t : sts.path("spec").path("volumeClaimTemplates")) {
            String where = doc.source() + ": StatefulSet \"" + name.asText() + "\", spec.volumeClaimTemplates[" + i + "]";
            String tname = t.path("metadata").path("name").asText("");
            if (tname.isEmpty()) {
                throw new UserError(where + " has no metadata.name. Name it as the live template is named (e.g. data).");
            }
            // apps validation leaves templates alone, but the StatefulSet controller mounts each one as a pod
            // volume of that name, and ValidateVolumes (pkg/apis/core/validation) wants a DNS label there
            List<String> templateErrors = ApiNames.labelErrors(tname);
            if (!templateErrors.isEmpty()) {
                throw refused(where, ApiNames.invalid("spec.volumeClaimTemplates[" + i + "].metadata.name", tname,
                        templateErrors) + " (it becomes the pods' volume name)", "Name it as the live template is named");
            }
            JsonNode storage = t.path("spec").path("resources").path("requests").path("storage");
            if (storage.isMissingNode() || storage.isNull() || storage.isContainerNode()) {
                throw new UserError(where + " (\"" + tname + "\") has no spec.resources.requests.storage. Declare its size,"
                        + " e.g. storage: 10Gi.");
            }
            Quantity size;
            try {
                size = Quantity.parse(storage.asText());
            } catch (IllegalArgumentException e) {
                throw new UserError(where + " (\"" + tname + "\"): spec.resources.requests.storage " + e.getMessage()
                        + ". Write the size as the API server accepts it.", e);
            }
            // ValidatePersistentVolumeClaimSpec → ValidatePositiveQuantityValue (pkg/apis/core/validation):
            // every claim made from this template, and any growth patch, would be refused
            if (size.value().signum() <= 0) {
                throw refused(where + " (\"" + tname + "\")", ApiNames.invalid("spec.resources.requests[storage]",
                        size.toString(), List.of("must be greater than zero")),
                        "Declare the size the claims should have, e.g. storage: 10Gi");
            }
            i++;
        }
        return new Document(sts, doc.source());
    }

    /** One paragraph: where, the API server's own words, that nothing was sent, and the fix. */
    static UserError refused(String where, String apiServerSays, String fix) {
        return new UserError(where + ": kube-apiserver would refuse it: " + apiServerSays + ". Nothing was sent. " + fix + ".");
    }
}
