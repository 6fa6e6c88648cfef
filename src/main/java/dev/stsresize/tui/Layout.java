package dev.stsresize.tui;

/**
 * Where things go on the screen, shared by {@link Update} (page sizes, scroll limits) and the views, so
 * both agree without either knowing the other. Rows: title, header, the body's box (top border, body,
 * bottom border), the flash line, the key hints.
 */
public final class Layout {
    public static final int MIN_COLUMNS = 40;
    public static final int MIN_ROWS = 10;
    static final int BODY_TOP = 3;

    private Layout() {}

    public static boolean tooSmall(int columns, int rows) {
        return columns < MIN_COLUMNS || rows < MIN_ROWS;
    }

    /** Lines inside the box. */
    public static int bodyRows(int rows) {
        return Math.max(1, rows - 6);
    }

    /** List rows: the body less its column header. */
    public static int listRows(int rows) {
        return Math.max(1, bodyRows(rows) - 1);
    }

    /** Text width inside the box, one space of padding on each side. */
    public static int bodyWidth(int columns) {
        return Math.max(1, columns - 4);
    }

    /** The first list row shown, so that the cursor is always visible. */
    public static int listTop(int cursor, int rows) {
        int page = listRows(rows);
        return cursor < page ? 0 : cursor - page + 1;
    }
}
