package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.HashMap;
import java.util.Map;

/**
 * A node factory for one answer that makes one {@link TextNode} of each short text it meets again: a LIST's
 * items repeat the same values (access modes, phases, class names, labels, images) thousands of times, and
 * 8,000 items kept as trees for a whole plan are most of its heap. A TextNode cannot change, so sharing one
 * between items changes nothing a reader sees. Not thread-safe: one per answer read.
 */
final class SharedTexts extends JsonNodeFactory {
    /** Longer texts (annotations, messages) rarely repeat: kept as read. */
    static final int MAX_LENGTH = 64;
    /** A bound on what an answer (untrusted) can make this keep. */
    static final int MAX_ENTRIES = 4096;

    private static final long serialVersionUID = 1L;

    private final transient Map<String, TextNode> seen = new HashMap<>();

    @Override
    public TextNode textNode(String text) {
        if (text == null || text.length() > MAX_LENGTH) {
            return super.textNode(text);
        }
        TextNode shared = seen.get(text);
        if (shared != null) {
            return shared;
        }
        TextNode made = super.textNode(text);
        if (seen.size() < MAX_ENTRIES) {
            seen.put(text, made);
        }
        return made;
    }
}
