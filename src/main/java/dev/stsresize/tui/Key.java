package dev.stsresize.tui;

/**
 * One key press, in the UI's own terms: {@link Update} stays free of lanterna, so its tests are plain
 * data. {@code ch} is set only for {@link Kind#CHAR}. {@link Kind#CTRL_L} asks, as in any terminal program, for the
 * whole screen to be drawn again.
 */
public record Key(Kind kind, char ch) {
    public enum Kind { CHAR, ENTER, ESCAPE, UP, DOWN, LEFT, RIGHT, PAGE_UP, PAGE_DOWN, HOME, END, BACKSPACE, TAB, CTRL_C, CTRL_L, EOF }

    public static Key of(Kind kind) {
        return new Key(kind, '\0');
    }

    public static Key ch(char c) {
        return new Key(Kind.CHAR, c);
    }

    public boolean is(char c) {
        return kind == Kind.CHAR && ch == c;
    }
}
