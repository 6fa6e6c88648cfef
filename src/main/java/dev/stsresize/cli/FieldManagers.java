package dev.stsresize.cli;

/**
 * A field manager's name as kube-apiserver checks it (apimachinery's
 * {@code pkg/apis/meta/v1/validation.ValidateFieldManager}): at most 128 bytes, printable characters only.
 * Checked before anything is sent, so that the re-apply, the last write of a run, cannot be refused for it.
 */
final class FieldManagers {
    static final int MAX_LENGTH = 128;

    private FieldManagers() {}

    /** "" when kube-apiserver would take {@code name}; else one sentence naming the flag and the fix. */
    static String problem(String name) {
        // Go's len() counts bytes
        if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_LENGTH) {
            return "--field-manager takes a name of at most " + MAX_LENGTH + " bytes, as kube-apiserver does; this one has "
                    + name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + ". Pass a shorter name, or leave the flag out"
                    + " to keep the manager that owns spec.template.";
        }
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            if (!printable(c)) {
                return "--field-manager takes printable characters only, as kube-apiserver does; this one has "
                        + String.format("U+%04X", c) + " at position " + i + ". Pass a plain name.";
            }
            i += Character.charCount(c);
        }
        return "";
    }

    /** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    private static boolean printable(int c) {
        if (c == ' ') {
            return true;
        }
        return switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER, Character.MODIFIER_LETTER,
                    Character.OTHER_LETTER, Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK,
                    Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER, Character.OTHER_NUMBER, Character.CONNECTOR_PUNCTUATION,
                    Character.DASH_PUNCTUATION, Character.START_PUNCTUATION, Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
                    Character.FINAL_QUOTE_PUNCTUATION, Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
                    Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL -> true;
            default -> false;
        };
    }
}
