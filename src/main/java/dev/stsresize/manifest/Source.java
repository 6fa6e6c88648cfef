package dev.stsresize.manifest;

/**
 * Where a document came from, for error messages: the file (or {@code <stdin>}), the document's
 * 1-based index in it, the line it starts on, and its 1-based item index when it sat in a List.
 */
public record Source(String file, int document, int line, int item) {
    public static final int NOT_IN_A_LIST = 0;

    public Source inItem(int itemIndex) {
        return new Source(file, document, line, itemIndex);
    }

    /** {@code db.yaml, document 2 (line 14)} or {@code live.yaml, document 1 (line 1), item 3}. */
    @Override
    public String toString() {
        return file + ", document " + document + " (line " + line + ")" + (item == NOT_IN_A_LIST ? "" : ", item " + item);
    }
}
