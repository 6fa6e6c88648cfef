package dev.stsresize.tui;

import java.util.Locale;
import java.util.Map;

/**
 * The characters that need UTF-8, with their ASCII stand-ins for a terminal whose locale is not UTF-8
 * (a box drawn in UTF-8 there turns into mojibake that hides the text).
 */
public record Glyphs(boolean unicode, String yes, String no, String arrow, String ellipsis, String running, String pending,
        char horizontal, char vertical, char topLeft, char topRight, char bottomLeft, char bottomRight, String dot) {

    public static final Glyphs UNICODE = new Glyphs(true, "✓", "✗", "→", "…", "▶", "·", '─', '│', '┌', '┐', '└', '┘', "·");
    public static final Glyphs ASCII = new Glyphs(false, "+", "x", "->", "~", ">", ".", '-', '|', '+', '+', '+', '+', ",");

    /** As the C library decides: LC_ALL, else LC_CTYPE, else LANG; UTF-8 when the first one set names it. */
    public static Glyphs forLocale(Map<String, String> env) {
        for (String var : new String[] {"LC_ALL", "LC_CTYPE", "LANG"}) {
            String v = env.get(var);
            if (v != null && !v.isEmpty()) {
                String lower = v.toLowerCase(Locale.ROOT);
                return lower.contains("utf-8") || lower.contains("utf8") ? UNICODE : ASCII;
            }
        }
        return ASCII;
    }
}
