package dev.stsresize.manifest;

import java.io.Reader;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * SnakeYAML's reader, making one {@link Mark} per line rather than two or three per token: a mark of this reader
 * holds the exact line, but the index and column of the first mark asked on that line, and no text for a snippet.
 *
 * <p>Only the plain reading ({@code DocumentReader.plainPiece}) uses it, which reads nothing from a mark but the
 * line a document starts on: SnakeYAML's scanner, parser and composer never read a mark's fields (only
 * {@code MarkedYAMLException}'s message does), and any error or refusal there is made again by the whole
 * reading, with SnakeYAML's own reader and exact marks. The marks were an eighth of a large manifest's allocation.
 */
final class LineMarks extends StreamReader {
    private static final int[] NO_TEXT = new int[0];

    private Mark last;

    LineMarks(Reader in) {
        super(in);
    }

    @Override
    public Mark getMark() {
        int line = getLine();
        if (last == null || last.getLine() != line) {
            last = new Mark("'reader'", getIndex(), line, getColumn(), NO_TEXT, 0);
        }
        return last;
    }
}
