package dev.stsresize.plan;

import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The StatefulSet controller names claim {@code <template>-<statefulset>-<ordinal>}. A claim belongs
 * to a template only when its name is exactly that, with a plain decimal ordinal, so that dashes in
 * names cannot confuse it: {@code data-db-backup} is not a claim of {@code db}, and
 * {@code data-web-app-0} (template data, StatefulSet web-app) is not a claim of {@code web}.
 */
public final class ClaimNames {
    private static final Pattern ORDINAL = Pattern.compile("0|[1-9][0-9]{0,8}");

    private ClaimNames() {}

    /** The ordinal when {@code claim} is exactly {@code <template>-<statefulSet>-<ordinal>}. */
    public static OptionalInt ordinalOf(String claim, String template, String statefulSet) {
        String prefix = template + "-" + statefulSet + "-";
        if (claim == null || !claim.startsWith(prefix)) {
            return OptionalInt.empty();
        }
        String rest = claim.substring(prefix.length());
        return ORDINAL.matcher(rest).matches() ? OptionalInt.of(Integer.parseInt(rest)) : OptionalInt.empty();
    }
}
