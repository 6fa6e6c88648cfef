package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.manifest.Source;
import dev.stsresize.plan.Decision;
import dev.stsresize.tui.Key.Kind;
import dev.stsresize.tui.SizeEdit.Change;
import dev.stsresize.tui.SizeEdit.FileChange;
import dev.stsresize.tui.SizeEdit.Stage;
import dev.stsresize.tui.UpdateTest.After;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The manifest edited from the UI, as plain data: marks, the form, the file's diff, the write and the reload. */
class EditFlowTest {
    static final String FILE = "demo/manifest.yaml";

    /** The demo's decisions, each declared in {@code file} (line = its index, for the messages). */
    static Loaded declaredIn(String file) {
        Loaded l = DemoDecisions.loaded();
        Map<String, Source> sources = new HashMap<>();
        for (int i = 0; i < l.decisions().size(); i++) {
            sources.put(Loaded.key(l.decisions().get(i)), new Source(file, i + 1, 10 * i + 1, Source.NOT_IN_A_LIST));
        }
        return l.withSources(sources);
    }

    static After at(String name, Loaded l) {
        UiState s = Update.apply(UiState.initial(80, 24), new UiEvent.DecisionsLoaded(l)).state();
        for (int i = 0; i < s.visible().size(); i++) {
            if (s.visible().get(i).name().equals(name)) {
                return new After(s.withCursor(i), List.of());
            }
        }
        throw new AssertionError(name);
    }

    static After ledger() {
        return at("ledger", declaredIn(FILE));
    }

    static FileChange change() {
        return new FileChange(FILE, "storage: 10Gi\n", "storage: 20Gi\n", "--- " + FILE + "\n+++ " + FILE + "\n@@ -1,1 +1,1 @@\n-storage: 10Gi\n+storage: 20Gi\n");
    }

    @Test
    void eOpensTheFormPrefilledWithTheDeclaredSizeWhenNothingIsSuggested() {
        After a = ledger().keys("e");
        assertThat(a.state().view()).isEqualTo(View.EDIT);
        assertThat(a.state().edit().stage()).isEqualTo(Stage.FORM);
        assertThat(a.state().edit().rows()).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo("payments/ledger");
            assertThat(r.template()).isEqualTo("data");
            assertThat(r.value()).isEqualTo("10Gi");
            assertThat(r.file()).isEqualTo(FILE);
        });
        assertThat(a.effects()).isEmpty();
    }

    @Test
    void aSizeNotLargerIsRefusedInTheFormAndNothingIsRead() {
        After a = ledger().keys("e", Kind.ENTER);
        assertThat(a.effects()).isEmpty();
        assertThat(a.state().edit().stage()).isEqualTo(Stage.FORM);
        assertThat(a.state().flash().level()).isEqualTo(Flash.Level.ERROR);
        assertThat(a.state().flash().text()).contains("10Gi is not larger than 10Gi", FILE);
    }

    @Test
    void theFormTakesEveryCharacterQIncludedAndEnterAsksForTheFileChangedInMemory() {
        After a = ledger().keys("e", Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, "q?");
        assertThat(a.effects()).isEmpty();
        assertThat(a.state().edit().focused().value()).isEqualTo("q?");
        a = a.keys(Kind.BACKSPACE, Kind.BACKSPACE, "20Gi", Kind.ENTER);
        assertThat(a.state().edit().stage()).isEqualTo(Stage.PREPARING);
        assertThat(a.effects()).containsExactly(new Effect.PrepareEdit(List.of(new Change(FILE, "payments", "ledger", "data", "20Gi"))));
    }

    @Test
    void theCaretMovesWithTheArrowsHomeAndEndAndTypingAndBackspaceActWhereItIs() {
        After a = ledger().keys("e");
        assertThat(a.state().edit().caret()).as("after the value, where an operator types").isEqualTo(4);
        // 10Gi → 16Gi without retyping the unit: Left twice, Backspace, 6
        a = a.keys(Kind.LEFT, Kind.LEFT, Kind.BACKSPACE, "6");
        assertThat(a.state().edit().focused().value()).isEqualTo("16Gi");
        assertThat(a.state().edit().caret()).isEqualTo(2);
        a = a.keys(Kind.HOME, Kind.BACKSPACE, "2");
        assertThat(a.state().edit().focused().value()).as("Backspace at the start erases nothing").isEqualTo("216Gi");
        a = a.keys(Kind.LEFT, Kind.END, Kind.RIGHT, "x");
        assertThat(a.state().edit().focused().value()).as("the caret never leaves the value").isEqualTo("216Gix");
        assertThat(a.effects()).isEmpty();
    }

    @Test
    void theCaretOnACharacterIsDrawnReversedOnItAndAtTheEndAsAnUnderscore() {
        After a = ledger().keys("e");
        String atEnd = EditLines.of(a.state().edit(), 78).get(2).text();
        assertThat(atEnd).contains("[10Gi_]");
        a = a.keys(Kind.LEFT, Kind.LEFT);
        Styled.Line line = EditLines.of(a.state().edit(), 78).get(2);
        assertThat(line.text()).contains("[10Gi]");
        assertThat(line.segments()).filteredOn(seg -> seg.style() == Styled.Style.CARET).singleElement()
                .satisfies(seg -> assertThat(seg.text()).isEqualTo("G"));
    }

    @Test
    void theDiffIsShownThenYWritesAndTheReloadOpensTheStatefulSetsDiff() {
        After a = ledger().keys("e", Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, "20Gi", Kind.ENTER)
                .then(new UiEvent.EditPrepared(List.of(change())));
        assertThat(a.state().edit().stage()).isEqualTo(Stage.REVIEW);
        assertThat(EditLines.of(a.state().edit(), 76).stream().map(Styled.Line::text)).contains("-storage: 10Gi", "+storage: 20Gi");

        After written = a.keys("y");
        assertThat(written.effects()).containsExactly(new Effect.WriteEdit(List.of(change())));
        assertThat(written.state().edit().stage()).isEqualTo(Stage.WRITING);

        After reloading = written.then(new UiEvent.EditWritten(List.of(FILE)));
        assertThat(reloading.effects()).containsExactly(new Effect.LoadDecisions());
        assertThat(reloading.state().loading()).isTrue();

        After reloaded = reloading.then(new UiEvent.DecisionsLoaded(declaredIn(FILE)));
        assertThat(reloaded.state().view()).isEqualTo(View.DIFF);
        assertThat(reloaded.state().selected().name()).isEqualTo("ledger");
        assertThat(reloaded.state().edit()).isNull();
        assertThat(reloaded.state().flash().text()).contains("ledger data 10Gi → 20Gi", "Enter runs the wizard");
        // from the diff, the usual wizard
        Decision d = reloaded.state().selected();
        assertThat(reloaded.keys(Kind.ENTER).state().view()).isEqualTo(d.verdict().hasWork() ? View.WIZARD : View.DIFF);
    }

    @Test
    void nInTheDiffGoesBackToTheFormAndWritesNothing() {
        After a = ledger().keys("e", Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, "20Gi", Kind.ENTER)
                .then(new UiEvent.EditPrepared(List.of(change()))).keys("n");
        assertThat(a.effects()).isEmpty();
        assertThat(a.state().edit().stage()).isEqualTo(Stage.FORM);
        assertThat(a.state().edit().focused().value()).isEqualTo("20Gi");
        assertThat(a.keys(Kind.ESCAPE).state().edit()).isNull();
        assertThat(a.keys(Kind.ESCAPE).state().view()).isEqualTo(View.LIST);
    }

    @Test
    void aRefusalIsShownInFullAndTheFormStays() {
        After a = ledger().keys("e", Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, "20Gi", Kind.ENTER)
                .then(new UiEvent.EditRefused(FILE + ", line 12: the size of template data is a Helm template"));
        assertThat(a.state().dialog()).isInstanceOf(Dialog.Error.class);
        assertThat(a.state().dialog().message()).contains(FILE + ", line 12", "Nothing was written.");
        assertThat(a.state().edit().stage()).isEqualTo(Stage.FORM);
        assertThat(a.effects()).isEmpty();
    }

    @Test
    void anAnswerForAFormTheOperatorLeftIsDropped() {
        After a = ledger().keys("e", Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, "20Gi", Kind.ENTER, Kind.ESCAPE)
                .then(new UiEvent.EditPrepared(List.of(change())));
        assertThat(a.state().edit().stage()).isEqualTo(Stage.FORM);
    }

    @Test
    void aStatefulSetFromStdinIsRefusedNamingItsDocumentAndLine() {
        After a = at("ledger", declaredIn("<stdin>")).keys("e");
        assertThat(a.state().view()).isEqualTo(View.LIST);
        assertThat(a.state().dialog().message()).contains("payments/ledger came on standard input", "line ", "set-size -f FILE",
                "Nothing was written.");
        assertThat(a.effects()).isEmpty();
    }

    @Test
    void spaceMarksAndMovesDownAndEEditsTheMarkedTogether() {
        After a = at("ledger", declaredIn(FILE));
        String first = Loaded.key(a.selected());
        a = a.keys(" ");
        String second = Loaded.key(a.selected());
        a = a.keys(" ");
        assertThat(a.state().marked()).containsExactlyInAnyOrder(first, second);
        After edit = a.keys("e");
        assertThat(edit.state().edit().keys()).containsExactlyInAnyOrder(first, second);
        // Space again unmarks; Esc clears every mark
        assertThat(a.keys(Kind.UP, " ").state().marked()).containsExactly(first);
        assertThat(a.keys(Kind.ESCAPE).state().marked()).isEmpty();
    }

    @Test
    void theWriteClearsTheMarks() {
        After a = ledger().keys(" ", Kind.UP, "e");
        a = a.keys(Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, Kind.BACKSPACE, "20Gi", Kind.ENTER)
                .then(new UiEvent.EditPrepared(List.of(change()))).keys("y").then(new UiEvent.EditWritten(List.of(FILE)));
        assertThat(a.state().marked()).isEmpty();
    }
}
