package dev.stsresize.manifest;

import dev.stsresize.UserError;
import dev.stsresize.plan.Quantity;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions.ScalarStyle;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Raises {@code spec.volumeClaimTemplates[name=T].spec.resources.requests.storage} of one StatefulSet in a
 * manifest's text, changing only that scalar's characters: comments, order, quoting, anchors, line endings and
 * every other byte stay. SnakeYAML's composer gives each node its start and end marks; the edit replaces the
 * text between them (inside the quotes when the scalar is quoted). JSON is composed the same way (it is YAML's
 * flow style). Anything this cannot edit in place is refused with the file and line, never rewritten.
 */
public final class ManifestEditor {
    private final String file;
    private final String text;
    private final String defaultNamespace;
    /** The key node of each step of the path being located (null for a list item). */
    private final List<Node> keys = new ArrayList<>();

    /**
     * @param defaultNamespace the namespace of a StatefulSet whose document names none, as {@code -n} (or the
     *     default) decides for every other command
     */
    public ManifestEditor(String file, String text, String defaultNamespace) {
        this.file = file;
        this.text = text;
        this.defaultNamespace = defaultNamespace;
    }

    /** Where a template's size is written: the scalar, and its characters' range in the text. */
    private record Site(String template, ScalarNode scalar, int start, int end) {}

    /**
     * The text with each template's size replaced by the new one (written as given).
     *
     * @param sizes template name → new size, in the order given
     * @throws UserError naming the file and line, when anything is not found, not a plain literal, or not a growth
     */
    public String setSizes(String namespace, String name, Map<String, String> sizes) {
        Map<String, Quantity> wanted = new LinkedHashMap<>();
        sizes.forEach((template, size) -> wanted.put(template, parseNew(template, size)));
        MappingNode sts = statefulSet(namespace, name);
        List<Site> sites = new ArrayList<>();
        for (Map.Entry<String, Quantity> e : wanted.entrySet()) {
            Site site = locate(sts, namespace, name, e.getKey());
            Quantity current = Quantity.parseOrNull(site.scalar.getValue());
            int line = line(site.scalar);
            if (current == null) {
                throw new UserError(where(line) + ": the size of template " + e.getKey() + " of StatefulSet " + namespace + "/" + name
                        + " is \"" + site.scalar.getValue() + "\", not a quantity; fix it by hand first.");
            }
            if (e.getValue().compareTo(current) <= 0) {
                throw new UserError(where(line) + ": template " + e.getKey() + " of StatefulSet " + namespace + "/" + name + " is "
                        + site.scalar.getValue() + "; " + sizes.get(e.getKey()) + " is not larger. Volumes only grow (a PVC cannot"
                        + " shrink): give a size above " + site.scalar.getValue() + ".");
            }
            sites.add(site);
        }
        sites.sort((a, b) -> Integer.compare(b.start, a.start)); // from the end: earlier offsets stay valid
        StringBuilder out = new StringBuilder(text);
        for (Site s : sites) {
            out.replace(s.start, s.end, sizes.get(s.template));
        }
        return out.toString();
    }

    private Quantity parseNew(String template, String size) {
        Quantity q = Quantity.parseOrNull(size);
        if (q == null || q.value().signum() <= 0) {
            throw new UserError("set-size: \"" + size + "\" for template " + template + " is not a storage quantity; write it"
                    + " as the API server reads it, e.g. 20Gi, 500G or 1Ti.");
        }
        return q;
    }

    private MappingNode statefulSet(String namespace, String name) {
        List<String> seen = new ArrayList<>();
        MappingNode found = null;
        for (MappingNode object : objects()) {
            if (!"StatefulSet".equals(scalar(object, "kind"))) {
                continue;
            }
            Node metadata = child(object, "metadata");
            String n = metadata instanceof MappingNode m ? scalar(m, "name") : null;
            String ns = metadata instanceof MappingNode m ? scalar(m, "namespace") : null;
            String effective = ns == null || ns.isEmpty() ? defaultNamespace : ns;
            seen.add(effective + "/" + n + " (line " + line(object) + ")");
            if (namespace.equals(effective) && name.equals(n)) {
                if (found != null) {
                    throw new UserError(file + ": StatefulSet " + namespace + "/" + name + " is declared twice, at lines " + line(found)
                            + " and " + line(object) + "; keep one.");
                }
                found = object;
            }
        }
        if (found == null) {
            throw new UserError(file + ": no StatefulSet " + namespace + "/" + name + " (documents naming no namespace are taken to be in "
                    + defaultNamespace + "; -n changes that). " + (seen.isEmpty() ? "It declares no StatefulSet." + declaredElsewhere()
                    : "It declares " + String.join(", ", seen) + ".") + " Pass the file holding the StatefulSet's manifest.");
        }
        return found;
    }

    /** Names a line that declares a size outside a StatefulSet (a Helm values file, a JSON 6902 patch): edited by hand. */
    private String declaredElsewhere() {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains("storage") || lines[i].contains("volumeClaimTemplates")) {
                return " Line " + (i + 1) + " (\"" + lines[i].strip() + "\") may declare a size, but not in a StatefulSet's"
                        + " volumeClaimTemplate: a Helm values file, a kustomize JSON patch or a template this command does not"
                        + " edit; change it by hand and render the manifest.";
            }
        }
        return "";
    }

    private Site locate(MappingNode sts, String namespace, String name, String template) {
        String subject = "template " + template + " of StatefulSet " + namespace + "/" + name;
        List<Node> path = new ArrayList<>();
        keys.clear();
        Node spec = step(sts, "spec", path, subject);
        Node templates = step(spec, "volumeClaimTemplates", path, subject);
        if (!(templates instanceof SequenceNode seq)) {
            throw new UserError(where(line(templates)) + ": volumeClaimTemplates of StatefulSet " + namespace + "/" + name
                    + " is not a list; fix the manifest.");
        }
        List<String> names = new ArrayList<>();
        MappingNode claim = null;
        for (Node item : seq.getValue()) {
            Node metadata = item instanceof MappingNode m ? child(m, "metadata") : null;
            String n = metadata instanceof MappingNode m ? scalar(m, "name") : null;
            names.add(String.valueOf(n));
            if (template.equals(n)) {
                claim = (MappingNode) item;
            }
        }
        if (claim == null) {
            throw new UserError(where(line(seq)) + ": StatefulSet " + namespace + "/" + name + " has no volumeClaimTemplate " + template
                    + "; its templates are " + String.join(", ", names) + ".");
        }
        path.add(claim);
        keys.add(null);
        Node size = step(step(step(claim, "spec", path, subject), "resources", path, subject), "requests", path, subject);
        size = step(size, "storage", path, subject);
        for (int i = 0; i < path.size(); i++) {
            Node n = path.get(i);
            if (n.getAnchor() != null) {
                // an alias is composed into the anchored node itself: its marks are the anchor's, the key's are the use's
                int used = i < keys.size() && keys.get(i) != null ? line(keys.get(i)) : line(n);
                throw new UserError(where(used) + ": the size of " + subject + " is shared through the anchor &" + n.getAnchor()
                        + " declared at line " + line(n) + ": changing it there changes every place that refers to it. Write"
                        + " the size as a literal in this template first.");
            }
        }
        if (!(size instanceof ScalarNode s) && sourceLine(line(size)).contains("{{")) {
            throw new UserError(where(line(size)) + ": the size of " + subject + " is a Helm template (" + sourceLine(line(size)).strip()
                    + "): change it in the chart's values file and render the chart.");
        }
        if (!(size instanceof ScalarNode s)) {
            throw new UserError(where(line(size)) + ": the size of " + subject + " is not a single value; fix the manifest.");
        }
        if (s.getValue().contains("{{")) {
            throw new UserError(where(line(s)) + ": the size of " + subject + " is a Helm template (" + s.getValue() + "): change it in"
                    + " the chart's values file and render the chart.");
        }
        return site(s, subject, template);
    }

    /** The characters to replace: the plain scalar, or what is between its quotes; refused unless that reads back. */
    private Site site(ScalarNode s, String subject, String template) {
        ScalarStyle style = s.getScalarStyle();
        int start = offset(s.getStartMark());
        int end = offset(s.getEndMark());
        if (style == ScalarStyle.SINGLE_QUOTED || style == ScalarStyle.DOUBLE_QUOTED) {
            start++;
            end--;
        } else if (style != ScalarStyle.PLAIN) {
            start = -1; // literal or folded block: several lines, not edited
        }
        boolean readsBack = start >= 0 && end <= text.length() && start <= end && text.substring(start, end).equals(s.getValue())
                && s.getStartMark().getLine() == s.getEndMark().getLine();
        if (!readsBack) {
            throw new UserError(where(line(s)) + ": the size of " + subject + " is not written as a plain or quoted value on one"
                    + " line (an escape, a block or a folded scalar), so it cannot be changed in place; write it as storage: 10Gi.");
        }
        return new Site(template, s, start, end);
    }

    /** The mark's index counts code points; the text is indexed by UTF-16 chars. */
    private int offset(Mark mark) {
        return text.offsetByCodePoints(0, Math.min(mark.getIndex(), text.codePointCount(0, text.length())));
    }

    private Node step(Node parent, String key, List<Node> path, String subject) {
        if (parent instanceof MappingNode m) {
            // SnakeYAML's composer keeps both of two equal keys (only its constructor refuses them, as the manifest
            // reader and kubectl do): editing the first would leave the file as unreadable as it was
            List<Node> same = m.getValue().stream().map(NodeTuple::getKeyNode)
                    .filter(k -> k instanceof ScalarNode sk && sk.getValue().equals(key)).toList();
            if (same.size() > 1) {
                throw new UserError(where(line(same.get(1))) + ": " + key + " of " + subject + " is written twice (lines "
                        + line(same.get(0)) + " and " + line(same.get(1)) + "), which kubectl refuses; keep one.");
            }
            Node value = child(m, key);
            if (value != null) {
                path.add(value);
                keys.add(m.getValue().stream().map(NodeTuple::getKeyNode)
                        .filter(k -> k instanceof ScalarNode sk && sk.getValue().equals(key)).findFirst().orElse(null));
                return value;
            }
            if (child(m, "<<") != null) {
                throw new UserError(where(line(m)) + ": " + key + " of " + subject + " comes through a merge key (<<): changing it"
                        + " there changes every place that merges it. Write " + key + " in this template first.");
            }
        }
        throw new UserError(where(line(parent)) + ": " + subject + " declares no " + key + " here (expected"
                + " spec.resources.requests.storage); add the size to the manifest first.");
    }

    private List<MappingNode> objects() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(ReadLimits.DEFAULT.maxAliases());
        List<MappingNode> out = new ArrayList<>();
        try {
            for (Node document : new Yaml(options).composeAll(new StringReader(text))) {
                if (!(document instanceof MappingNode m)) {
                    continue;
                }
                Node items = child(m, "items");
                String kind = scalar(m, "kind");
                if (kind != null && kind.endsWith("List") && items instanceof SequenceNode seq) {
                    seq.getValue().stream().filter(MappingNode.class::isInstance).map(MappingNode.class::cast).forEach(out::add);
                } else {
                    out.add(m);
                }
            }
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            int line = mark == null ? -1 : mark.getLine() + 1;
            String helm = text.contains("{{") ? " It contains {{ }}: a Helm template is edited through its values file, not here." : "";
            throw new UserError(where(line) + ": not valid YAML or JSON (" + e.getProblem() + "), so it is not edited." + helm, e);
        } catch (YAMLException | NumberFormatException e) {
            // SnakeYAML's scanner reads a hex escape cut off by the end of the text with Integer.parseInt
            throw new UserError(file + ": not valid YAML or JSON (" + e.getMessage() + "), so it is not edited.", e);
        }
        return out;
    }

    private String sourceLine(int line) {
        String[] lines = text.split("\n", -1);
        return line > 0 && line <= lines.length ? lines[line - 1] : "";
    }

    private static Node child(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                return t.getValueNode();
            }
        }
        return null;
    }

    private static String scalar(MappingNode m, String key) {
        return child(m, key) instanceof ScalarNode s ? s.getValue() : null;
    }

    private static int line(Node n) {
        return n.getStartMark().getLine() + 1;
    }

    private String where(int line) {
        return line > 0 ? file + ", line " + line : file;
    }
}
