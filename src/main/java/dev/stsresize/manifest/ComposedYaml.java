package dev.stsresize.manifest;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * What SnakeYAML composes but cannot build into values, found before it tries: an anchor whose value holds an alias
 * to itself (SnakeYAML builds a map that contains itself, which no JSON tree can hold: converting it recurses until
 * the stack overflows), and a standard tag on a node of the wrong kind ({@code !!map data}, {@code !!str [a]}:
 * SnakeYAML's constructors cast and throw a ClassCastException). kubectl's reader (go-yaml, through
 * sigs.k8s.io/yaml) refuses the first with "anchor 'a' value contains itself" (decode.go, decoder.alias).
 */
final class ComposedYaml {
    private static final Set<Tag> MAPPING_TAGS = Set.of(Tag.MAP, Tag.SET);
    private static final Set<Tag> SEQUENCE_TAGS = Set.of(Tag.SEQ, Tag.OMAP, Tag.PAIRS);
    private static final Set<Tag> SCALAR_TAGS = Set.of(Tag.NULL, Tag.BOOL, Tag.INT, Tag.FLOAT, Tag.BINARY, Tag.TIMESTAMP, Tag.STR);

    /** The first such problem and its node, or null when the document can be built. */
    record Problem(String message, Node node) {}

    private final Map<Node, Boolean> checked = new IdentityHashMap<>();
    private final Map<Node, Boolean> onPath = new IdentityHashMap<>();

    private ComposedYaml() {}

    static Problem problem(Node document) {
        return new ComposedYaml().check(document);
    }

    private Problem check(Node n) {
        if (n.getAnchor() == null) {
            // only an anchored node can be met twice (an alias is its anchor's node) or contain itself
            Problem wrongTag = wrongTag(n);
            return wrongTag != null ? wrongTag : checkChildren(n);
        }
        if (checked.containsKey(n)) {
            return null; // an alias to a node already checked, met again elsewhere: the same answer
        }
        if (onPath.containsKey(n)) {
            return new Problem("the anchor &" + n.getAnchor() + " contains itself (an alias to it inside its own value),"
                    + " which no Kubernetes object can hold", n);
        }
        Problem wrongTag = wrongTag(n);
        if (wrongTag != null) {
            return wrongTag;
        }
        onPath.put(n, Boolean.TRUE);
        try {
            Problem p = checkChildren(n);
            if (p != null) {
                return p;
            }
        } finally {
            onPath.remove(n);
        }
        checked.put(n, Boolean.TRUE);
        return null;
    }

    private Problem checkChildren(Node n) {
        if (n instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                Problem p = check(t.getKeyNode());
                if (p == null) {
                    p = check(t.getValueNode());
                }
                if (p != null) {
                    return p;
                }
            }
        } else if (n instanceof SequenceNode s) {
            for (Node child : s.getValue()) {
                Problem p = check(child);
                if (p != null) {
                    return p;
                }
            }
        }
        return null; // a scalar
    }

    private static Problem wrongTag(Node n) {
        Tag tag = n.getTag();
        boolean fits = n instanceof MappingNode ? !SEQUENCE_TAGS.contains(tag) && !SCALAR_TAGS.contains(tag)
                : n instanceof SequenceNode ? !MAPPING_TAGS.contains(tag) && !SCALAR_TAGS.contains(tag)
                : !MAPPING_TAGS.contains(tag) && !SEQUENCE_TAGS.contains(tag);
        if (fits) {
            return null;
        }
        String kind = n instanceof MappingNode ? "a mapping" : n instanceof SequenceNode ? "a list" : "a single value";
        String written = tag.getValue().startsWith(Tag.PREFIX) ? "!!" + tag.getValue().substring(Tag.PREFIX.length()) : tag.getValue();
        return new Problem("the tag " + written + " stands on " + kind + ", which it cannot describe; remove the tag", n);
    }
}
