package dev.stsresize.manifest;

import java.util.ArrayList;
import java.util.List;

/**
 * The unified diff ({@code diff -u}) of a file before and after {@link ManifestEditor}. The editor replaces
 * characters inside one line and never adds or removes a line, so line i of the old text pairs with line i of
 * the new: the changed lines are found by comparing pairs, without a general diff algorithm.
 */
public final class UnifiedDiff {
    private static final int CONTEXT = 3;

    private UnifiedDiff() {}

    /** The diff, "" when nothing changed; lines are shown without their terminators (CR included). */
    public static String of(String file, String before, String after) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        if (a.size() != b.size()) {
            throw new IllegalArgumentException("the edit changed the number of lines");
        }
        List<Integer> changed = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equals(b.get(i))) {
                changed.add(i);
            }
        }
        if (changed.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("--- " + file + "\n+++ " + file + "\n");
        int k = 0;
        while (k < changed.size()) {
            int from = Math.max(0, changed.get(k) - CONTEXT);
            int last = k;
            while (last + 1 < changed.size() && changed.get(last + 1) - changed.get(last) <= 2 * CONTEXT) {
                last++; // hunks whose context would touch are one hunk, as diff -u prints them
            }
            int to = Math.min(a.size(), changed.get(last) + CONTEXT + 1);
            int n = to - from;
            out.append("@@ -").append(from + 1).append(',').append(n).append(" +").append(from + 1).append(',').append(n).append(" @@\n");
            for (int i = from; i < to; i++) {
                if (a.get(i).equals(b.get(i))) {
                    out.append(' ').append(a.get(i)).append('\n');
                } else {
                    out.append('-').append(a.get(i)).append('\n').append('+').append(b.get(i)).append('\n');
                }
            }
            k = last + 1;
        }
        return out.toString();
    }

    private static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        for (String l : text.split("\n", -1)) {
            out.add(l.endsWith("\r") ? l.substring(0, l.length() - 1) : l);
        }
        if (out.size() > 1 && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1); // the text ends with a line break
        }
        return out;
    }
}
