package dev.stsresize.cli;

import dev.stsresize.render.Palette;
import picocli.CommandLine.Option;

/** {@code --color}, as every command that prints a table takes it ({@code @Mixin}); a value outside the three is refused by picocli. */
public final class ColorOption {
    /** When to colour: the three words git and ls take. */
    enum When { auto, always, never }

    @Option(names = "--color", defaultValue = "auto", paramLabel = "WHEN",
            description = "auto (only on a terminal), always or never. NO_COLOR in the environment always wins.")
    When when = When.auto;

    /** The palette for output that goes to a terminal when {@code terminal}, NO_COLOR as the environment says. */
    Palette palette(boolean terminal, String noColorEnv) {
        return Palette.choose(when.name(), terminal, noColorEnv);
    }
}
