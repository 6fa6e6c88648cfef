package dev.stsresize.sim.patch;

import java.util.ArrayList;
import java.util.List;

/** An RFC 6901 JSON pointer split into its unescaped reference tokens. */
record JsonPointer(List<String> tokens) {

    /** Parses "/a/b~1c/~0d"; "" is the whole document. Returns null when the text is not a pointer. */
    static JsonPointer parse(String text) {
        if (text == null) {
            return null;
        }
        if (text.isEmpty()) {
            return new JsonPointer(List.of());
        }
        if (text.charAt(0) != '/') {
            return null;
        }
        List<String> tokens = new ArrayList<>();
        for (String raw : text.substring(1).split("/", -1)) {
            // ~1 first, so that "~01" becomes "~1" and not "/" (RFC 6901 section 4)
            tokens.add(raw.replace("~1", "/").replace("~0", "~"));
        }
        return new JsonPointer(List.copyOf(tokens));
    }

    boolean isRoot() {
        return tokens.isEmpty();
    }

    String last() {
        return tokens.get(tokens.size() - 1);
    }

    List<String> parent() {
        return tokens.subList(0, tokens.size() - 1);
    }

    /** True when this pointer is {@code other} or lies under it. */
    boolean startsWith(JsonPointer other) {
        return tokens.size() >= other.tokens.size() && tokens.subList(0, other.tokens.size()).equals(other.tokens);
    }
}
