package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The differences between two raw objects as lines a person reads: {@code path: before → after},
 * one per leaf (arrays by index), in path order. Used to show what a resume would re-apply, and why a
 * record no longer matches the live StatefulSet.
 */
public final class TreeDiff {
    /** Longest value shown in a line; an env value of 300 KiB is cut, not printed. */
    private static final int SHOWN = 120;

    private TreeDiff() {}

    /** Every differing leaf whose path {@code ignored} does not match. */
    public static List<String> lines(JsonNode before, JsonNode after, Predicate<String> ignored) {
        return lines(before, after, ignored, true);
    }

    /**
     * The leaves {@code applied} sets to something other than in {@code before}: what a server-side
     * apply of it changes (a field it leaves out keeps its value, or takes its default on a create).
     */
    public static List<String> setBy(JsonNode before, JsonNode applied, Predicate<String> ignored) {
        return lines(before, applied, ignored, false);
    }

    private static List<String> lines(JsonNode before, JsonNode after, Predicate<String> ignored, boolean removals) {
        Map<String, JsonNode> a = new TreeMap<>();
        Map<String, JsonNode> b = new TreeMap<>();
        flatten("", before, a);
        flatten("", after, b);
        TreeMap<String, Boolean> paths = new TreeMap<>();
        a.keySet().forEach(p -> paths.put(p, true));
        b.keySet().forEach(p -> paths.put(p, true));
        List<String> out = new ArrayList<>();
        for (String p : paths.keySet()) {
            JsonNode x = a.get(p);
            JsonNode y = b.get(p);
            if (ignored.test(p) || (x != null && x.equals(y)) || (!removals && y == null)) {
                continue;
            }
            out.add(p + ": " + shown(x) + " → " + shown(y));
        }
        return out;
    }

    private static void flatten(String path, JsonNode n, Map<String, JsonNode> out) {
        if (n == null || n.isMissingNode()) {
            return;
        }
        if (n.isObject() && n.size() > 0) {
            Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                flatten(path + "/" + e.getKey().replace("~", "~0").replace("/", "~1"), e.getValue(), out);
            }
        } else if (n.isArray() && n.size() > 0) {
            for (int i = 0; i < n.size(); i++) {
                flatten(path + "/" + i, n.get(i), out);
            }
        } else {
            out.put(path.isEmpty() ? "/" : path, n);
        }
    }

    private static String shown(JsonNode n) {
        if (n == null) {
            return "(absent)";
        }
        String s = n.toString();
        return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "… (" + s.length() + " characters)";
    }
}
