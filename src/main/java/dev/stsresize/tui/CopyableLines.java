package dev.stsresize.tui;

import dev.stsresize.tui.Styled.Line;
import dev.stsresize.tui.Styled.Segment;
import dev.stsresize.tui.Styled.Style;
import java.util.ArrayList;
import java.util.List;

/**
 * Shell commands and JSON laid out on rows so that what an operator copies off the screen still works.
 * A command is broken between its words only, each row but the last ending in {@code " \"} (the shell's
 * line continuation); a word too wide for the indentation starts as far in as it fits; a word wider
 * than a row (a long path, a quoted JSON body) is cut where the shell joins it back: {@code \} ends the
 * row and the next row starts at the first column, with no indentation; inside single quotes the quote
 * is closed before the {@code \} and opened again on the next row ({@code '…,'\} then
 * {@code '"uid":…'}), which the shell reads as the same word, byte for byte. JSON breaks after a comma
 * or an opening brace, outside strings, where whitespace changes nothing. Pure.
 */
public final class CopyableLines {
    private static final String CONTINUED = " \\";
    /** Where a long word is cut, by preference: after JSON's separators, then after a path's slash. */
    private static final String SEPARATORS = ",{";
    private static final String SLASH = "/";

    private CopyableLines() {}

    /** {@code command} after {@code prefix} at {@code width}, rows after the first indented by {@code indent}. */
    public static List<Line> command(Line prefix, String command, Style style, int width, int indent) {
        List<String> words = words(command);
        List<Line> out = new ArrayList<>();
        Row row = new Row(prefix);
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            int after = i < words.size() - 1 ? CONTINUED.length() : 0;
            String spaced = row.hasWord ? " " + word : word;
            if (row.used + length(spaced) + after <= width) {
                row.add(spaced, style);
                continue;
            }
            if (row.hasWord) {
                row.add(CONTINUED, style);
                out.add(row.line());
                row = new Row(indent);
            }
            if (row.used + length(word) + after <= width) {
                row.add(word, style);
                continue;
            }
            if (!out.isEmpty() && !row.hasWord && length(word) + after <= width) {
                // whole, as far in as it fits, rather than cut at the indentation: blanks before a whole word are only
                // the shell's separators, so the row stays with the command's other rows and the command the same
                row = new Row(Math.max(0, width - length(word) - after));
                row.add(word, style);
                continue;
            }
            String rest = word;
            boolean quoted = false; // inside single quotes where the row is cut
            while (row.used + length(rest) + after > width) {
                int room = Math.max(1, width - row.used - 2); // two for '\ (or \ and a spare)
                int cut = cutPoint(rest, room);
                boolean inQuotes = insideSingleQuotes(quoted, rest.substring(0, cut));
                row.add(rest.substring(0, cut) + (inQuotes ? "'\\" : "\\"), style);
                out.add(row.line());
                row = new Row(0); // the shell joins the next row to this word only when it starts at once
                if (inQuotes) {
                    row.add("'", style);
                }
                quoted = inQuotes;
                rest = rest.substring(cut);
            }
            row.add(rest, style);
        }
        out.add(row.line());
        return out;
    }

    /** JSON after {@code prefix} at {@code width}, broken after a comma or an opening brace outside strings. */
    public static List<Line> json(Line prefix, String json, Style style, int width, int indent) {
        List<Line> out = new ArrayList<>();
        Row row = new Row(prefix);
        String rest = json;
        while (row.used + length(rest) > width) {
            int room = width - row.used;
            int cut = -1;
            boolean inString = false;
            for (int i = 0; i < rest.length() && i < room; i++) {
                char c = rest.charAt(i);
                if (c == '"' && (i == 0 || rest.charAt(i - 1) != '\\')) {
                    inString = !inString;
                } else if (!inString && (c == ',' || c == '{')) {
                    cut = i + 1;
                }
            }
            if (cut <= 0) {
                cut = Math.max(1, Math.min(room, rest.length())); // a string wider than a row: nothing keeps it whole
            }
            row.add(rest.substring(0, cut), style);
            out.add(row.line());
            row = new Row(indent);
            rest = rest.substring(cut);
        }
        row.add(rest, style);
        out.add(row.line());
        return out;
    }

    /** The command's words: split at spaces outside single and double quotes. */
    static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote == 0 && c == ' ') {
                if (word.length() > 0) {
                    out.add(word.toString());
                    word.setLength(0);
                }
                continue;
            }
            if (quote == 0 && (c == '\'' || c == '"')) {
                quote = c;
            } else if (c == quote) {
                quote = 0;
            }
            word.append(c);
        }
        if (word.length() > 0) {
            out.add(word.toString());
        }
        return out;
    }

    /** Where to cut a word at most {@code room} long: after the last separator in its second half, else after a slash, else at the room. */
    private static int cutPoint(String word, int room) {
        int limit = Math.min(room, word.length() - 1);
        for (String marks : List.of(SEPARATORS, SLASH)) {
            for (int i = limit; i > limit / 2; i--) {
                if (marks.indexOf(word.charAt(i - 1)) >= 0) {
                    return i;
                }
            }
        }
        return Math.max(1, limit);
    }

    /** Whether the shell is inside single quotes after reading {@code text}, having started inside them or not. */
    private static boolean insideSingleQuotes(boolean startInside, String text) {
        boolean inside = startInside;
        boolean inDouble = false;
        for (char c : text.toCharArray()) {
            if (c == '\'' && !inDouble) {
                inside = !inside;
            } else if (c == '"' && !inside) {
                inDouble = !inDouble;
            }
        }
        return inside;
    }

    private static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    /** A row being filled: its segments and the columns they take. */
    private static final class Row {
        private final List<Segment> segments = new ArrayList<>();
        private int used;
        private boolean hasWord;

        Row(Line prefix) {
            segments.addAll(prefix.segments());
            used = prefix.width();
        }

        Row(int indent) {
            if (indent > 0) {
                segments.add(new Segment(" ".repeat(indent), Style.NORMAL));
            }
            used = indent;
        }

        void add(String text, Style style) {
            segments.add(new Segment(text, style));
            used += length(text);
            hasWord = true;
        }

        Line line() {
            return new Line(segments);
        }
    }
}
