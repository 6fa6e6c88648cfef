package dev.stsresize.manifest;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a YAML stream can be cut into pieces that SnakeYAML reads alone exactly as it reads them in the whole
 * stream: before a line that starts with {@code ---} and then a blank or the line's end. The YAML spec forbids
 * that line inside any scalar (1.2.2, 9.1.4: a document marker "must not appear inside a scalar"), and SnakeYAML's
 * scanner agrees: at column 0 it takes such a line for a document start before anything else (ScannerImpl
 * fetchMoreTokens, checkDocumentStart), a plain or block scalar ends before it, and a quoted scalar or a flow
 * collection still open there is an error ("found unexpected document separator"; the piece alone then fails too,
 * at its end). At a document start the scanner and parser keep nothing of the document before (the indents are
 * unwound, the simple keys dropped, the composer's anchors cleared), except the directives before it, so a stream
 * with a {@code %} line is not cut, and the count of aliases to collections, which SnakeYAML's composer keeps for
 * the whole stream, so pieces with anchors are read again whole by the caller.
 */
final class YamlChunks {
    private YamlChunks() {}

    /**
     * Where each piece of {@code text} starts, the first at 0, each later one at a document start; a single piece
     * (no cut) when the stream has a directive.
     */
    static List<Integer> starts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        if (text.startsWith("%") || text.contains("\n%")) {
            return starts;
        }
        int at = text.indexOf("\n---");
        while (at >= 0) {
            int start = at + 1;
            int after = start + 3;
            if (after == text.length() || isBlankOrBreak(text.charAt(after))) {
                starts.add(start);
            }
            at = text.indexOf("\n---", after);
        }
        return starts;
    }

    private static boolean isBlankOrBreak(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    /**
     * The pieces grouped into at most {@code groups} runs of about equal length: the offsets where each run starts,
     * the first at 0, then the end of the text.
     */
    static List<Integer> groups(String text, List<Integer> starts, int groups) {
        List<Integer> bounds = new ArrayList<>();
        bounds.add(0);
        long target = text.length() / Math.max(1, groups);
        for (int start : starts) {
            if (bounds.size() < groups && start >= target * bounds.size() && start > bounds.get(bounds.size() - 1)) {
                bounds.add(start);
            }
        }
        bounds.add(text.length());
        return bounds;
    }

    /**
     * The lines that end before {@code end}, counted as SnakeYAML's reader counts them for its marks (StreamReader
     * forward): a line feed, a carriage return not followed by one, NEL, and the line and paragraph separators.
     */
    static int lineBreaks(String text, int end) {
        int lines = 0;
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\u0085' || c == '\u2028' || c == '\u2029'
                    || c == '\r' && i + 1 < text.length() && text.charAt(i + 1) != '\n') {
                lines++;
            }
        }
        return lines;
    }
}
