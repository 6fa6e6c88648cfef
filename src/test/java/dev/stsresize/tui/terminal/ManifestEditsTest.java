package dev.stsresize.tui.terminal;

import dev.stsresize.tui.SizeEdit;
import dev.stsresize.tui.UiEvent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.tui.SizeEdit.Change;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The size edit's effects against real files: only the quantity changes; a file changed since its diff is not written. */
class ManifestEditsTest {
    static final String YAML = """
            # the ledger
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: ledger
              namespace: payments
            spec:
              volumeClaimTemplates:
                - metadata: {name: data}
                  spec:
                    resources:
                      requests:
                        storage: "10Gi"   # keep this comment
            """;

    @TempDir Path dir;

    @Test
    void prepareChangesOnlyTheQuantityAndWritesNothing() throws Exception {
        Path f = Files.writeString(dir.resolve("m.yaml"), YAML);
        UiEvent e = ManifestEdits.prepare(List.of(new Change(f.toString(), "payments", "ledger", "data", "14Gi")));
        assertThat(e).isInstanceOf(UiEvent.EditPrepared.class);
        SizeEdit.FileChange c = ((UiEvent.EditPrepared) e).files().get(0);
        assertThat(c.after()).isEqualTo(YAML.replace("\"10Gi\"", "\"14Gi\""));
        assertThat(c.diff()).contains("-            storage: \"10Gi\"   # keep this comment", "+            storage: \"14Gi\"   # keep this comment");
        assertThat(Files.readString(f)).isEqualTo(YAML);

        assertThat(ManifestEdits.write(List.of(c))).isEqualTo(new UiEvent.EditWritten(List.of(f.toString())));
        assertThat(Files.readString(f)).isEqualTo(c.after());
    }

    @Test
    void aFileChangedSinceItsDiffIsNotWritten() throws Exception {
        Path f = Files.writeString(dir.resolve("m.yaml"), YAML);
        Path g = Files.writeString(dir.resolve("n.yaml"), YAML);
        SizeEdit.FileChange cf = ((UiEvent.EditPrepared) ManifestEdits.prepare(List.of(
                new Change(f.toString(), "payments", "ledger", "data", "14Gi")))).files().get(0);
        SizeEdit.FileChange cg = ((UiEvent.EditPrepared) ManifestEdits.prepare(List.of(
                new Change(g.toString(), "payments", "ledger", "data", "14Gi")))).files().get(0);
        String edited = YAML.replace("# the ledger", "# someone else's edit");
        Files.writeString(g, edited);
        UiEvent e = ManifestEdits.write(List.of(cf, cg));
        assertThat(e).isInstanceOf(UiEvent.EditRefused.class);
        assertThat(((UiEvent.EditRefused) e).message()).contains(g.toString(), "changed since its diff was shown");
        // neither file is written: the first one is not left changed while the second is refused
        assertThat(Files.readString(f)).isEqualTo(YAML);
        assertThat(Files.readString(g)).isEqualTo(edited);
    }

    @Test
    void aHelmTemplateIsRefusedNamingTheFileAndLine() throws Exception {
        Path f = Files.writeString(dir.resolve("m.yaml"), YAML.replace("\"10Gi\"", "\"{{ .Values.size }}\""));
        UiEvent e = ManifestEdits.prepare(List.of(new Change(f.toString(), "payments", "ledger", "data", "14Gi")));
        assertThat(e).isInstanceOf(UiEvent.EditRefused.class);
        assertThat(((UiEvent.EditRefused) e).message()).contains(f.toString(), "13", "Helm template");
    }
}
