package dev.stsresize.tui.terminal;

import com.googlecode.lanterna.SGR;
import com.googlecode.lanterna.TextColor;
import dev.stsresize.tui.Styled.Style;
import java.util.Map;

/**
 * How a {@link Style} looks. Without colour (NO_COLOR) every style keeps its weight — bold, reverse for
 * the selection — so the UI stays usable; only the colours go.
 */
public record Theme(boolean colour) {
    public static Theme forEnvironment(Map<String, String> env) {
        String noColor = env.get("NO_COLOR");
        return new Theme(noColor == null || noColor.isEmpty());
    }

    TextColor foreground(Style s) {
        if (!colour) {
            return TextColor.ANSI.DEFAULT;
        }
        return switch (s) {
            case GOOD -> TextColor.ANSI.GREEN;
            case BAD -> TextColor.ANSI.RED;
            case WARN -> TextColor.ANSI.YELLOW;
            case ACCENT, CARET -> TextColor.ANSI.CYAN;
            case DIM -> TextColor.ANSI.BLACK_BRIGHT;
            case NORMAL, BOLD -> TextColor.ANSI.DEFAULT;
        };
    }

    boolean bold(Style s) {
        return s == Style.BOLD || (!colour && (s == Style.BAD || s == Style.WARN));
    }

    SGR selection() {
        return SGR.REVERSE;
    }
}
