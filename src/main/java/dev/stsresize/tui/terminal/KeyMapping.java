package dev.stsresize.tui.terminal;

import com.googlecode.lanterna.input.KeyStroke;
import dev.stsresize.tui.Key.Kind;
import dev.stsresize.tui.Key;

/** lanterna's key strokes in the UI's terms; null for keys the UI has no use for. */
final class KeyMapping {
    private KeyMapping() {}

    static Key of(KeyStroke k) {
        if (k == null) {
            return null;
        }
        return switch (k.getKeyType()) {
            case Character -> {
                char c = k.getCharacter();
                if (k.isCtrlDown() && (c == 'c' || c == 'C')) {
                    yield Key.of(Kind.CTRL_C);
                }
                if (k.isCtrlDown() && (c == 'l' || c == 'L')) {
                    yield Key.of(Kind.CTRL_L);
                }
                yield k.isCtrlDown() || k.isAltDown() ? null : Key.ch(c);
            }
            case Enter -> Key.of(Kind.ENTER);
            case Escape -> Key.of(Kind.ESCAPE);
            case ArrowUp -> Key.of(Kind.UP);
            case ArrowDown -> Key.of(Kind.DOWN);
            case ArrowLeft -> Key.of(Kind.LEFT);
            case ArrowRight -> Key.of(Kind.RIGHT);
            case PageUp -> Key.of(Kind.PAGE_UP);
            case PageDown -> Key.of(Kind.PAGE_DOWN);
            case Home -> Key.of(Kind.HOME);
            case End -> Key.of(Kind.END);
            case Backspace -> Key.of(Kind.BACKSPACE);
            case Tab -> Key.of(Kind.TAB);
            case EOF -> Key.of(Kind.EOF);
            default -> null;
        };
    }
}
