package dev.stsresize.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * "Did you mean" for a mistyped command or flag, the way kubectl (cobra) does it: a candidate within
 * two edits, or one the typed word is a prefix of. Edits are optimal-string-alignment distance, so a
 * swapped pair of letters ({@code paln}) counts as one edit where cobra's Levenshtein counts two.
 */
final class Suggestions {
    static final int MAX_DISTANCE = 2;

    private Suggestions() {}

    /** The candidates close to {@code typed}, nearest first, in the order given among equals. */
    static List<String> near(String typed, Collection<String> candidates) {
        List<String> found = new ArrayList<>();
        for (int d = 0; d <= MAX_DISTANCE; d++) {
            for (String c : candidates) {
                if (!found.contains(c) && distance(typed, c) == d) {
                    found.add(c);
                }
            }
        }
        for (String c : candidates) {
            if (!found.contains(c) && typed.length() >= 2 && c.startsWith(typed)) {
                found.add(c);
            }
        }
        return found;
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
