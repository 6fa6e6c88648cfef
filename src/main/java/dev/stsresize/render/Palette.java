package dev.stsresize.render;

/** ANSI colours, or none: the table is the same text either way. */
public final class Palette {
    public static final Palette PLAIN = new Palette(false);
    public static final Palette ANSI = new Palette(true);

    private final boolean on;

    private Palette(boolean on) {
        this.on = on;
    }

    public boolean enabled() {
        return on;
    }

    String green(String s) {
        return wrap("32", s);
    }

    String red(String s) {
        return wrap("31", s);
    }

    String yellow(String s) {
        return wrap("33", s);
    }

    String dim(String s) {
        return wrap("2", s);
    }

    String bold(String s) {
        return wrap("1", s);
    }

    private String wrap(String code, String s) {
        return on && !s.isEmpty() ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
    }

    /**
     * {@code --color auto|always|never}: auto means colour only on a terminal. NO_COLOR (any non-empty
     * value, see no-color.org) wins over everything, {@code always} included: the user set it once for
     * every tool, and a flag in a script should not override that.
     */
    public static Palette choose(String flag, boolean terminal, String noColorEnv) {
        if (noColorEnv != null && !noColorEnv.isEmpty()) {
            return PLAIN;
        }
        return switch (flag) {
            case "always" -> ANSI;
            case "never" -> PLAIN;
            case "auto" -> terminal ? ANSI : PLAIN;
            default -> throw new IllegalArgumentException("--color takes auto, always or never, not \"" + flag + "\"");
        };
    }
}
