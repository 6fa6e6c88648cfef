package dev.stsresize.manifest;

import dev.stsresize.UserError;
import java.io.IOException;
import java.io.Reader;

/**
 * Reads one input whole while measuring each document's size in UTF-8 bytes, and refuses the first
 * document over the limit as soon as it passes it, before any parser sees it: SnakeYAML scans a long
 * plain scalar in quadratic time (a scalar of some MiB holds the reader for minutes), so its own
 * code-point limit comes too late. YAML documents end at a {@code ---} or {@code ...} line (which
 * the YAML spec forbids inside any scalar); a JSON stream's documents are its top-level values.
 */
final class DocumentSizes {
    /** An input is YAML unless its first non-blank character opens a JSON value, as DocumentReader decides. */
    private final boolean json;
    private final String file;
    private final long maxBytes;
    private final StringBuilder text = new StringBuilder();

    private int document = 1;
    private int documentLine = 1;
    private long documentBytes;
    private int line = 1;
    // YAML: the first characters of the current line, to spot document markers
    private final StringBuilder lineStart = new StringBuilder(4);
    private boolean markerChecked;
    private boolean markerLine;
    private char lineFirst;
    private boolean explicitStart;
    private boolean documentHasContent;
    // JSON: where the scanner stands
    private int depth;
    private boolean inString;
    private boolean escaped;
    private boolean betweenValues = true;
    private boolean startedValue;

    private DocumentSizes(String file, long maxBytes, boolean json) {
        this.file = file;
        this.maxBytes = maxBytes;
        this.json = json;
    }

    /** The whole input, or a refusal naming the file, the document, its first line and the limit. */
    static String read(String file, Reader in, long maxBytes) throws IOException {
        char[] buffer = new char[1 << 16];
        DocumentSizes sizes = null;
        int n;
        while ((n = in.read(buffer)) > 0) {
            for (int i = 0; i < n; i++) {
                if (sizes == null) {
                    char c = buffer[i];
                    if (Character.isWhitespace(c) || c == '\uFEFF') {
                        continue;
                    }
                    sizes = new DocumentSizes(file, maxBytes, c == '{' || c == '[');
                    sizes.text.append(buffer, 0, i); // the leading blanks count for nothing
                    sizes.line += countLines(buffer, i);
                    sizes.documentLine = sizes.line;
                }
                sizes.accept(buffer[i]);
            }
        }
        return sizes == null ? "" : sizes.text.toString();
    }

    private void accept(char c) {
        text.append(c);
        if (json) {
            json(c);
        } else {
            yaml(c);
        }
        documentBytes += utf8Length(c);
        if (documentBytes > maxBytes) {
            throw tooLarge();
        }
        if (c == '\n') {
            line++;
        }
    }

    private void yaml(char c) {
        if (c == '\n') {
            if (!markerChecked) {
                checkMarker(true);
            }
            if (lineFirst != 0 && lineFirst != '#' && !markerLine) {
                documentHasContent = true;
            }
            lineStart.setLength(0);
            markerChecked = false;
            markerLine = false;
            lineFirst = 0;
            return;
        }
        if (lineFirst == 0 && !Character.isWhitespace(c)) {
            lineFirst = c;
        }
        if (!markerChecked) {
            lineStart.append(c);
            if (lineStart.length() == 4) {
                checkMarker(false);
            }
        }
    }

    /**
     * A line starting with "---" and then a blank or its end starts a document, numbered as SnakeYAML
     * numbers them: every explicit start is one, and so is content before the first.
     */
    private void checkMarker(boolean lineEnded) {
        markerChecked = true;
        String s = lineStart.toString();
        char after = s.length() == 4 ? s.charAt(3) : 0;
        if (!s.startsWith("---") || !(lineEnded && s.length() == 3 || after == ' ' || after == '\t' || after == '\r')) {
            return;
        }
        document = explicitStart || documentHasContent ? document + 1 : 1;
        explicitStart = true;
        documentHasContent = s.length() == 4 && after != '\r'; // "--- {a: 1}" holds content; "---" alone does not
        markerLine = true;
        documentLine = documentHasContent ? line : line + 1; // where the parser's Source will say it starts
        documentBytes = 3; // the marker's three ASCII bytes before the character being added
    }

    private void json(char c) {
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
                if (depth == 0) {
                    betweenValues = true;
                }
            }
            return;
        }
        if (Character.isWhitespace(c) || c == '\uFEFF') {
            if (depth == 0) {
                betweenValues = true; // after a top-level number, true or null
            }
            return;
        }
        if (depth == 0 && betweenValues) {
            document = startedValue ? document + 1 : 1;
            startedValue = true;
            documentLine = line;
            documentBytes = 0;
            betweenValues = false;
        }
        switch (c) {
            case '"' -> inString = true;
            case '{', '[' -> depth++;
            case '}', ']' -> {
                depth = Math.max(0, depth - 1);
                if (depth == 0) {
                    betweenValues = true;
                }
            }
            default -> { }
        }
    }

    private UserError tooLarge() {
        return new UserError(file + ", document " + document + " (line " + documentLine + "): refused before reading it,"
                + " the document is larger than " + maxBytes + " bytes (" + ReadLimits.describe(maxBytes) + "), more than"
                + " kube-apiserver accepts in one request. Check that it is the manifest you meant to pass, or split it into"
                + " several documents.");
    }

    private static int utf8Length(char c) {
        if (c < 0x80) {
            return 1;
        }
        if (c < 0x800 || Character.isSurrogate(c)) {
            return 2; // a surrogate pair is 4 bytes, 2 per half
        }
        return 3;
    }

    private static int countLines(char[] buffer, int end) {
        int lines = 0;
        for (int i = 0; i < end; i++) {
            if (buffer[i] == '\n') {
                lines++;
            }
        }
        return lines;
    }
}
