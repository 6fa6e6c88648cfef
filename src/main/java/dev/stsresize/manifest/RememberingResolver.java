package dev.stsresize.manifest;

import java.util.HashMap;
import java.util.Map;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * SnakeYAML's own resolver, remembering its answer for each short plain scalar of one input. A plain scalar's tag
 * is a function of its text alone (the implicit resolvers' regular expressions, chosen by its first character), and a
 * manifest of thousands of StatefulSets repeats the same keys: each of them was matched against the same expressions
 * thousands of times, a quarter of the manifest's reading allocation (docs/performance.md).
 */
final class RememberingResolver extends Resolver {
    /** Longer plain scalars (scripts, certificates) are rarely repeated: resolved each time, as before. */
    private static final int REMEMBERED_LENGTH = YamlTrees.SHARED_TEXT_LENGTH;
    /** A bound on what one input (untrusted) can make this keep: as many as the texts its trees share. */
    private static final int REMEMBERED = YamlTrees.SHARED_TEXTS;

    private final Map<String, Tag> plain = new HashMap<>();

    @Override
    public Tag resolve(NodeId kind, String value, boolean implicit) {
        if (kind != NodeId.scalar || !implicit || value == null || value.length() > REMEMBERED_LENGTH) {
            return super.resolve(kind, value, implicit);
        }
        Tag tag = plain.get(value);
        if (tag == null) {
            tag = super.resolve(kind, value, implicit);
            if (plain.size() < REMEMBERED) {
                plain.put(value, tag);
            }
        }
        return tag;
    }
}
