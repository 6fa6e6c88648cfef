package dev.stsresize.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
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
    private final DocumentReader documents;

    public ManifestReader(InputStream stdin, ReadLimits limits) {
        this.inputs = new Inputs(stdin, "-f");
        this.documents = new DocumentReader(limits);
    }

    /**
     * @param namespace the namespace of StatefulSets that name none ({@code -n}, or the default)
     * @param namespaceExplicit {@code -n} was given: a StatefulSet naming another namespace is an error, as in kubectl
     */
    public Manifest read(List<String> paths, boolean recursive, String namespace, boolean namespaceExplicit) {
        List<Document> out = new ArrayList<>();
        Map<String, Integer> skipped = new TreeMap<>();
        Map<String, Source> seen = new HashMap<>();
        inputs.forEach(paths, recursive, (file, reader) -> documents.read(file, reader, doc -> {
            if (!doc.is("apps/v1", "StatefulSet")) {
                skipped.merge(describeKind(doc), 1, Integer::sum);
                return;
            }
            Document sts = validated(doc, namespace, namespaceExplicit);
            String key = sts.object().path("metadata").path("namespace").asText() + "/" + sts.object().path("metadata").path("name").asText();
            Source earlier = seen.putIfAbsent(key, sts.source());
            if (earlier != null) {
                throw new UserError(sts.source() + ": StatefulSet " + key + " is declared a second time (first at " + earlier
                        + "). Keep one declaration of it.");
            }
            out.add(sts);
        }));
        return new Manifest(out, skipped);
    }

    private static String describeKind(Document d) {
        String av = d.apiVersion().isEmpty() ? "(no apiVersion)" : d.apiVersion();
        String k = d.kind().isEmpty() ? "(no kind)" : d.kind();
        return av + " " + k;
    }

    static Document validated(Document doc, String namespace, boolean namespaceExplicit) {
        ObjectNode sts = doc.object().deepCopy();
        JsonNode name = sts.path("metadata").path("name");
        if (!name.isTextual() || name.asText().isBlank()) {
            throw new UserError(doc.source() + ": a StatefulSet has no metadata.name. Give it the name of the live"
                    + " StatefulSet it declares.");
        }
        String ns = sts.path("metadata").path("namespace").asText("");
        if (ns.isEmpty()) {
            ((ObjectNode) sts.get("metadata")).put("namespace", namespace);
        } else if (namespaceExplicit && !ns.equals(namespace)) {
            throw new UserError(doc.source() + ": StatefulSet \"" + name.asText() + "\" is in namespace \"" + ns
                    + "\", which does not match -n " + namespace + ". Pass -n " + ns + ", or drop -n.");
        }
        int i = 0;
        for (JsonNode t : sts.path("spec").path("volumeClaimTemplates")) {
            String where = doc.source() + ": StatefulSet \"" + name.asText() + "\", spec.volumeClaimTemplates[" + i + "]";
            String tname = t.path("metadata").path("name").asText("");
            if (tname.isEmpty()) {
                throw new UserError(where + " has no metadata.name. Name it as the live template is named (e.g. data).");
            }
            JsonNode storage = t.path("spec").path("resources").path("requests").path("storage");
            if (storage.isMissingNode() || storage.isNull() || storage.isContainerNode()) {
                throw new UserError(where + " (\"" + tname + "\") has no spec.resources.requests.storage. Declare its size,"
                        + " e.g. storage: 10Gi.");
            }
            try {
                Quantity.parse(storage.asText());
            } catch (IllegalArgumentException e) {
                throw new UserError(where + " (\"" + tname + "\"): spec.resources.requests.storage " + e.getMessage()
                        + ". Write the size as the API server accepts it.", e);
            }
            i++;
        }
        return new Document(sts, doc.source());
    }
}
