package dev.stsresize.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A composed YAML document straight into a Jackson tree, for the documents where that gives exactly the tree
 * SnakeYAML's constructor and Jackson's {@code valueToTree} give: plain maps with string keys, plain lists, and
 * scalars (each built by the constructor's own {@code Construct} for its resolved tag). A manifest of thousands of
 * StatefulSets is read without building every document twice (Java maps and lists, then the tree).
 *
 * <p>Anything else is left to the constructor ({@link #of} answers null): an anchor (an alias shares a node), a
 * merge key ({@code <<}), a key that is not a plain string, a duplicate key (the constructor's error is the one
 * reported), an explicit collection tag ({@code !!set}, {@code !!omap}, a local tag), and a scalar whose value
 * is not a string, boolean, int or null (those go through {@code valueToTree} one by one, as in a map).
 */
final class YamlTrees {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Why the direct reading stops: the constructor reads this document instead. */
    private static final class NotPlain extends RuntimeException {
        NotPlain() {
            super(null, null, false, false);
        }
    }

    private static final NotPlain NOT_PLAIN = new NotPlain();

    /** Texts up to this length are made once per input: thousands of documents repeat the same keys' values. */
    static final int SHARED_TEXT_LENGTH = 64;
    /** A bound on what one input (untrusted) can make this keep. */
    static final int SHARED_TEXTS = 4096;

    private final Function<Node, Object> scalars;
    private final ObjectMapper json;
    /** A TextNode cannot change, so one can stand in every document that holds its text. */
    private final Map<String, TextNode> texts = new HashMap<>();

    /**
     * @param scalars the constructor's value of a scalar node (its {@code Construct} for the node's tag)
     * @param json the mapper whose {@code valueToTree} the constructor's values would go through
     */
    YamlTrees(Function<Node, Object> scalars, ObjectMapper json) {
        this.scalars = scalars;
        this.json = json;
    }

    /** The document's tree, or null where only the constructor can build it (or where it is no mapping). */
    ObjectNode of(Node document) {
        if (!(document instanceof MappingNode)) {
            return null;
        }
        try {
            return (ObjectNode) tree(document);
        } catch (RuntimeException e) {
            // the constructor reads it again, and throws its own error where there is one
            return null;
        }
    }

    private JsonNode tree(Node n) {
        if (n.getAnchor() != null) {
            throw NOT_PLAIN;
        }
        if (n instanceof MappingNode m) {
            if (!m.getTag().equals(Tag.MAP)) {
                throw NOT_PLAIN;
            }
            ObjectNode o = NODES.objectNode();
            for (NodeTuple t : m.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode k) || k.getAnchor() != null || !k.getTag().equals(Tag.STR)) {
                    throw NOT_PLAIN;
                }
                if (o.has(k.getValue())) {
                    throw NOT_PLAIN;
                }
                o.set(k.getValue(), tree(t.getValueNode()));
            }
            return o;
        }
        if (n instanceof SequenceNode s) {
            if (!s.getTag().equals(Tag.SEQ)) {
                throw NOT_PLAIN;
            }
            ArrayNode a = NODES.arrayNode(s.getValue().size());
            for (Node item : s.getValue()) {
                a.add(tree(item));
            }
            return a;
        }
        ScalarNode scalar = (ScalarNode) n;
        if (scalar.getTag().equals(Tag.STR)) {
            return text(scalar.getValue());
        }
        Object value = scalars.apply(scalar);
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof String text) {
            return text(text);
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        return json.valueToTree(value);
    }

    private TextNode text(String value) {
        if (value.length() > SHARED_TEXT_LENGTH) {
            return NODES.textNode(value);
        }
        TextNode shared = texts.get(value);
        if (shared == null) {
            shared = NODES.textNode(value);
            if (texts.size() < SHARED_TEXTS) {
                texts.put(value, shared);
            }
        }
        return shared;
    }
}
