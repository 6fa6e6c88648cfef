package dev.stsresize.tui.terminal;

import dev.stsresize.tui.SizeEdit;
import dev.stsresize.tui.UiEvent;

import dev.stsresize.manifest.ManifestEditor;
import dev.stsresize.manifest.ManifestFile;
import dev.stsresize.manifest.UnifiedDiff;
import dev.stsresize.tui.SizeEdit.Change;
import dev.stsresize.tui.SizeEdit.FileChange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two effects of the UI's size edit, each answering one event: the files changed in memory by
 * {@link ManifestEditor} (only the quantities' characters), then written as reviewed. Any refusal is the
 * editor's one paragraph, naming the file and line.
 */
final class ManifestEdits {
    private ManifestEdits() {}

    static UiEvent prepare(List<Change> changes) {
        try {
            Map<String, List<Change>> byFile = new LinkedHashMap<>();
            changes.forEach(c -> byFile.computeIfAbsent(c.file(), f -> new ArrayList<>()).add(c));
            List<FileChange> out = new ArrayList<>();
            for (Map.Entry<String, List<Change>> f : byFile.entrySet()) {
                String before = ManifestFile.read(f.getKey());
                String after = before;
                Map<String, Map<String, String>> bySts = new LinkedHashMap<>();
                f.getValue().forEach(c -> bySts.computeIfAbsent(c.namespace() + "/" + c.name(), k -> new LinkedHashMap<>())
                        .put(c.template(), c.size()));
                for (Map.Entry<String, Map<String, String>> sts : bySts.entrySet()) {
                    String ns = sts.getKey().substring(0, sts.getKey().indexOf('/'));
                    String name = sts.getKey().substring(sts.getKey().indexOf('/') + 1);
                    // the decision's namespace is the default: a document naming none was read into it
                    after = new ManifestEditor(f.getKey(), after, ns).setSizes(ns, name, sts.getValue());
                }
                out.add(new FileChange(f.getKey(), before, after, UnifiedDiff.of(f.getKey(), before, after)));
            }
            return new UiEvent.EditPrepared(out);
        } catch (RuntimeException e) {
            return new UiEvent.EditRefused(EffectRunner.message(e));
        }
    }

    /** Every file is checked unchanged before the first is written, so a refusal writes none. */
    static UiEvent write(List<FileChange> files) {
        try {
            for (FileChange f : files) {
                if (!ManifestFile.read(f.file()).equals(f.before())) {
                    ManifestFile.replace(f.file(), f.before(), f.after()); // throws, naming the file
                }
            }
            List<String> written = new ArrayList<>();
            for (FileChange f : files) {
                ManifestFile.replace(f.file(), f.before(), f.after());
                written.add(f.file());
            }
            return new UiEvent.EditWritten(written);
        } catch (RuntimeException e) {
            return new UiEvent.EditRefused(EffectRunner.message(e));
        }
    }
}
