package dev.stsresize.tui;

import dev.stsresize.plan.Quantity;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifest edited from the UI ({@code e}): one editable size per template of the StatefulSets chosen, then the
 * files' diffs to confirm. Plain data; reading and writing the files are {@link Effect}s.
 *
 * @param rows one per template to change, in list order
 * @param focus the row being typed into
 * @param caret where typing goes in the focused row's value: 0 before its first character, its length after the last
 * @param stage where the edit is
 * @param files the prepared change of each file (empty until {@link Stage#REVIEW})
 */
public record SizeEdit(List<Row> rows, int focus, int caret, Stage stage, List<FileChange> files) {
    public enum Stage {
        /** Typing the sizes. */
        FORM,
        /** The files are read and edited in memory. */
        PREPARING,
        /** The files' diffs are shown: {@code y} writes. */
        REVIEW,
        /** Writing the files. */
        WRITING,
        /** Written: the next load opens the first StatefulSet's diff. */
        WRITTEN
    }

    /**
     * One template's size in the form.
     *
     * @param file the manifest file that declares the StatefulSet
     * @param declared the size the file declares now
     * @param value what the field holds
     * @param hint why this value was offered (the suggestion's reason), "" when none
     */
    public record Row(String namespace, String name, String template, String file, String declared, String value, String hint) {
        public String key() {
            return namespace + "/" + name;
        }

        Row withValue(String v) {
            return new Row(namespace, name, template, file, declared, v, hint);
        }

        /** Why the field cannot be written as it is, or "" when it can. */
        public String problem() {
            Quantity q = Quantity.parseOrNull(value.strip());
            if (value.isBlank() || q == null || q.value().signum() <= 0) {
                return key() + " " + template + ": \"" + value + "\" is not a size; write it as the API server reads it, e.g. 20Gi.";
            }
            Quantity now = Quantity.parseOrNull(declared);
            if (now != null && q.compareTo(now) <= 0) {
                return key() + " " + template + ": " + value.strip() + " is not larger than " + declared + " (" + file
                        + "). Volumes only grow: give a size above " + declared + ".";
            }
            return "";
        }
    }

    /** One file's text before and after, and its unified diff. */
    public record FileChange(String file, String before, String after, String diff) {}

    /** One size to write: the effect's input. */
    public record Change(String file, String namespace, String name, String template, String size) {}

    public SizeEdit {
        rows = List.copyOf(rows);
        files = List.copyOf(files);
        caret = rows.isEmpty() ? 0 : Math.max(0, Math.min(caret, rows.get(Math.min(focus, rows.size() - 1)).value().length()));
    }

    /** The form, the caret after the first field's value (where an operator types a change). */
    static SizeEdit form(List<Row> rows) {
        return new SizeEdit(rows, 0, rows.isEmpty() ? 0 : rows.get(0).value().length(), Stage.FORM, List.of());
    }

    Row focused() {
        return rows.get(Math.min(focus, rows.size() - 1));
    }

    /** {@code c} typed at the caret, which moves past it. */
    SizeEdit typed(char c) {
        String v = focused().value();
        return withValue(v.substring(0, caret) + c + v.substring(caret), caret + 1);
    }

    /** Backspace: the character before the caret erased (none at the start). */
    SizeEdit erased() {
        String v = focused().value();
        return caret == 0 ? this : withValue(v.substring(0, caret - 1) + v.substring(caret), caret - 1);
    }

    /** The caret moved to {@code at}, kept within the value. */
    SizeEdit caretAt(int at) {
        return new SizeEdit(rows, focus, at, stage, files);
    }

    private SizeEdit withValue(String value, int newCaret) {
        List<Row> next = new ArrayList<>(rows);
        next.set(focus, focused().withValue(value));
        return new SizeEdit(next, focus, newCaret, stage, files);
    }

    /** Another field focused, the caret after its value. */
    SizeEdit focus(int f) {
        int at = Math.floorMod(f, rows.size());
        return new SizeEdit(rows, at, rows.get(at).value().length(), stage, files);
    }

    SizeEdit at(Stage s) {
        return new SizeEdit(rows, focus, caret, s, files);
    }

    SizeEdit prepared(List<FileChange> f) {
        return new SizeEdit(rows, focus, caret, Stage.REVIEW, f);
    }

    /** The first problem of any row, "" when every row can be written. */
    String problem() {
        return rows.stream().map(Row::problem).filter(p -> !p.isEmpty()).findFirst().orElse("");
    }

    List<Change> changes() {
        return rows.stream().map(r -> new Change(r.file(), r.namespace(), r.name(), r.template(), r.value().strip())).toList();
    }

    /** The StatefulSets edited, in order, once each. */
    List<String> keys() {
        return rows.stream().map(Row::key).distinct().toList();
    }

    /** The diff lines of every file, in order. */
    List<String> diffLines() {
        List<String> out = new ArrayList<>();
        for (FileChange f : files) {
            out.addAll(List.of(f.diff().split("\n")));
        }
        return out;
    }
}
