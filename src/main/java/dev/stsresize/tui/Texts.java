package dev.stsresize.tui;

import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.TemplateSize;
import dev.stsresize.plan.Verdict;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The words the views use for a decision, pure so that the filter and the views agree on them. */
public final class Texts {
    private Texts() {}

    /** GROW, GROW CLAIMS, UP TO DATE, REFUSED: reason, BLOCKED: reason, ABSENT. */
    public static String verdict(Decision d) {
        String word = d.verdict().label().toUpperCase(Locale.ROOT).replace('-', ' ');
        return d instanceof Refusal r ? word + ": " + r.reason().label() : word;
    }

    public static String verdictWord(Verdict v) {
        return v.label().toUpperCase(Locale.ROOT).replace('-', ' ');
    }

    /** The refusal reason in plain words, for someone who has not read the README. */
    public static String plain(Reason r) {
        return switch (r) {
            case TEMPLATE_CHANGED -> "a volume claim template is added, removed, or changed in more than its storage size;"
                    + " that needs a new StatefulSet, not a resize";
            case OTHER_IMMUTABLE -> "a StatefulSet field the API server never lets change differs from the live one";
            case OWNED -> "an operator owns this StatefulSet and would re-create it while it is deleted";
            case SHRINK -> "the manifest asks for a smaller volume, and volumes can only grow";
            case NOT_EXPANDABLE -> "a claim to grow has a StorageClass that does not allow volume expansion";
            case NO_RESIZER -> "a claim to grow has a StorageClass whose provisioner nothing can resize (no CSI driver"
                    + " with a resizer, or kubernetes.io/no-provisioner): its volume would never grow";
            case COPY_READ_WRITE_MANY -> "a claim to copy is ReadWriteMany: other pods could write to it while its pod is down"
                    + " for the copy, and what they wrote would be lost";
            case COPY_BLOCK_VOLUME -> "a claim to copy is a raw block volume: the copy copies files, not devices";
            case COPY_NO_VOLUME -> "the new volumes' StorageClass cannot give one yet: create what the detail names, then refresh";
            case COPY_BUDGET -> "a PodDisruptionBudget does not let a pod go now, and the copy takes each pod down in turn: refresh when it does";
            case CLAIM_UNBOUND -> "a claim to grow is not Bound yet; wait for it to bind, then refresh";
            case RESIZE_FAILED -> "a claim requests the size but its volume did not grow: its resize failed; kubectl"
                    + " stsresize revert gives the requests back, or fix what the failure names and refresh";
            case FORBIDDEN -> "you lack a permission the converge needs";
        };
    }

    /** "data 10Gi→20Gi, logs 1Gi": each template's live → declared size, unchanged ones once. */
    public static String templates(Decision d, Glyphs g) {
        StringBuilder b = new StringBuilder();
        for (TemplateSize t : d.templates()) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(t.name()).append(' ');
            if (t.live() == null) {
                b.append("new ").append(t.declared());
            } else if (t.changes()) {
                b.append(t.live()).append(g.arrow()).append(t.declared());
            } else {
                b.append(t.declared());
            }
        }
        return b.toString();
    }

    /** Claims to grow of all claims: "3/3"; "-" when the StatefulSet has none. */
    public static String claimsToGrow(Decision d) {
        if (d.claims().isEmpty()) {
            return "-";
        }
        long grow = d.claims().stream().filter(ClaimState::grow).count();
        return grow + "/" + d.claims().size();
    }

    /** The claims' StorageClasses with their expansion mark: "fast-online ✓"; "?" when the classes could not be read. */
    public static String classes(Decision d, Glyphs g) {
        Map<String, String> classes = expansionByClass(d, "(none)");
        if (classes.isEmpty()) {
            return "-";
        }
        StringBuilder b = new StringBuilder();
        classes.forEach((name, e) -> b.append(b.length() == 0 ? "" : ", ").append(name).append(' ')
                .append(e.equals("true") ? g.yes() : e.equals("false") ? g.no() : "?"));
        return b.toString();
    }

    /** Each class of the claims with "true", "false" or "unknown": unknown wins, then false (one claim refused is enough). */
    public static Map<String, String> expansionByClass(Decision d, String noClass) {
        Map<String, String> classes = new LinkedHashMap<>();
        for (ClaimState c : d.claims()) {
            classes.merge(c.storageClass() == null ? noClass : c.storageClass(), c.expansion(),
                    (a, b) -> a.equals("unknown") || b.equals("unknown") ? "unknown" : a.equals("false") || b.equals("false") ? "false" : "true");
        }
        return classes;
    }

    /** What the filter matches against: name, verdict with reason, template and class names. */
    public static String searchable(Decision d) {
        return (Loaded.key(d) + " " + verdict(d) + " " + d.verdict().label() + " " + templates(d, Glyphs.ASCII) + " "
                + classes(d, Glyphs.ASCII)).toLowerCase(Locale.ROOT);
    }

    /** Truncates to {@code width} code points, marking the cut. */
    public static String fit(String s, int width, Glyphs g) {
        if (width <= 0) {
            return "";
        }
        int len = s.codePointCount(0, s.length());
        if (len <= width) {
            return s;
        }
        return s.substring(0, s.offsetByCodePoints(0, width - 1)) + g.ellipsis();
    }

    /**
     * {@code s} cut to {@code width} at a space, with an ellipsis: a message cut inside a word can read
     * as another word. A single word longer than the width is cut where the width ends.
     */
    public static String fitWords(String s, int width, Glyphs g) {
        if (width <= 0) {
            return "";
        }
        if (s.codePointCount(0, s.length()) <= width) {
            return s;
        }
        String room = s.substring(0, s.offsetByCodePoints(0, width - 1));
        int space = room.lastIndexOf(' ');
        return (space > 0 ? room.substring(0, space).stripTrailing() + " " : room) + g.ellipsis();
    }

    public static String pad(String s, int width) {
        int len = s.codePointCount(0, s.length());
        return len >= width ? s : s + " ".repeat(width - len);
    }
}
