package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import static org.assertj.core.api.Assertions.assertThat;

import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.input.KeyStroke;
import com.googlecode.lanterna.input.KeyType;
import com.googlecode.lanterna.screen.TerminalScreen;
import com.googlecode.lanterna.terminal.virtual.DefaultVirtualTerminal;
import dev.stsresize.tui.terminal.TerminalFrame;
import dev.stsresize.tui.terminal.Theme;
import dev.stsresize.tui.terminal.UiLoop;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real loop — input thread, effect threads, redraws — on a virtual terminal, with the fake step
 * runner: what a user does, end to end in one process. Waits are for a screen to appear (bounded,
 * generous), never for a duration.
 */
class UiLoopTest {
    private final DefaultVirtualTerminal vt = new DefaultVirtualTerminal(new TerminalSize(100, 30));
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final BlockingQueue<KeyStroke> keys = new LinkedBlockingQueue<>();
    private Thread ui;

    void start(DecisionSource source, StepRunner steps) throws Exception {
        UiLoop loop = new UiLoop(new TerminalScreen(vt), keys::take, new TerminalFrame(new Theme(true), Glyphs.UNICODE), source, steps);
        Loaded first = source.load();
        ui = new Thread(() -> {
            try {
                loop.run(first);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "ui-under-test");
        ui.start();
        awaitScreen("StatefulSets[9]");
    }

    @AfterEach
    void quit() throws InterruptedException {
        if (ui != null && ui.isAlive()) {
            keys.add(new KeyStroke('c', true, false));
            keys.add(new KeyStroke('c', true, false));
            ui.join(10_000);
        }
    }

    String screen() {
        return VirtualScreen.ofTerminal(vt);
    }

    void awaitScreen(String text) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (!screen().contains(text)) {
            assertThat(Instant.now()).as("waiting for \"%s\" on the screen:\n%s", text, screen()).isBefore(deadline);
            assertThat(failure.get()).isNull();
            Thread.sleep(10);
        }
    }

    void type(String s) {
        for (char c : s.toCharArray()) {
            keys.add(new KeyStroke(c, false, false));
        }
    }

    void key(KeyType t) {
        keys.add(new KeyStroke(t));
    }

    @Test
    void walksTheWizardThroughBothGatesToAVerifiedSummary() throws Exception {
        FakeStepRunner steps = new FakeStepRunner();
        start(DemoDecisions::loaded, steps);
        type("/postgres");
        key(KeyType.Enter);
        key(KeyType.Enter);
        awaitScreen("diff shop/postgres");
        key(KeyType.Enter);
        awaitScreen("Grow 3 claims of shop/postgres to 20Gi?");
        assertThat(steps.ran).containsExactly(Phase.CHECK);
        type("y");
        awaitScreen("Type the StatefulSet's name");
        assertThat(steps.ran).containsExactly(Phase.CHECK, Phase.GROW, Phase.WAIT);
        type("postgrex");
        key(KeyType.Enter);
        awaitScreen("\"postgrex\" is not \"postgres\"");
        assertThat(steps.ran).as("a wrong name deletes nothing").doesNotContain(Phase.ORPHAN_DELETE);
        type("postgres");
        key(KeyType.Enter);
        awaitScreen("Converged and verified");
        awaitScreen("pods adopted, UIDs unchanged");
        assertThat(steps.ran).containsExactlyElementsOf(Phase.checklist(DemoDecisions.named("postgres")));
        type("q");
        ui.join(10_000);
        assertThat(ui.isAlive()).isFalse();
        assertThat(failure.get()).isNull();
    }

    @Test
    void quittingWhileAWriteRunsAsksAndTheAnswerYQuits() throws Exception {
        FakeStepRunner steps = new FakeStepRunner().holding(Phase.GROW);
        start(DemoDecisions::loaded, steps);
        type("/postgres");
        key(KeyType.Enter);
        type("a");
        awaitScreen("Grow 3 claims");
        type("y");
        awaitScreen("a write is in flight");
        type("q");
        awaitScreen("Quit anyway? y/n");
        assertThat(ui.isAlive()).isTrue();
        type("y");
        ui.join(10_000);
        assertThat(ui.isAlive()).as("y quits").isFalse();
        steps.release(Phase.GROW);
    }

    @Test
    void refreshAsksTheSourceAgainAndAFailureIsAFlash() throws Exception {
        AtomicInteger loads = new AtomicInteger();
        DecisionSource source = () -> {
            if (loads.incrementAndGet() > 1) {
                throw new IllegalStateException("snapshot.yaml: no such file");
            }
            return DemoDecisions.loaded();
        };
        start(source, new FakeStepRunner());
        type("r");
        awaitScreen("error: snapshot.yaml: no such file");
        assertThat(loads).hasValue(2);
        assertThat(screen()).as("the list stays").contains("shop/postgres");
    }

    @Test
    void theEndOfInputQuitsAndRestoresTheScreen() throws Exception {
        start(DemoDecisions::loaded, new FakeStepRunner());
        key(KeyType.EOF);
        ui.join(10_000);
        assertThat(ui.isAlive()).isFalse();
        assertThat(screen()).as("the private screen is left").doesNotContain("StatefulSets[9]");
    }

    /**
     * What a terminal does to its cells on a resize is its own (tmux reflows them, xterm crops them):
     * here a scribble stands for that. After the resize every cell is drawn again, so neither the scribble
     * nor a row of the old size survives, and the header and every name are there at the new size.
     */
    @Test
    void aResizeRedrawsTheWholeScreenWhateverTheTerminalDidToIt() throws Exception {
        start(DemoDecisions::loaded, new FakeStepRunner());
        awaitScreen("<enter> diff  <a> apply");
        scribble();
        vt.setTerminalSize(new TerminalSize(60, 20));
        // waiting for the whole screen, not its first rows: the terminal is read while the UI thread may still draw
        awaitUntil(() -> !screen().contains("#####") && screen().startsWith(" stsresize │ context:") && screen().contains("└" + "─".repeat(58) + "┘")
                && DemoDecisions.loaded().decisions().stream().allMatch(d -> screen().contains(Loaded.key(d))), "the list drawn whole at 60x20");
        assertThat(screen().lines()).hasSize(20);
        scribble();
        vt.setTerminalSize(new TerminalSize(100, 30));
        awaitUntil(() -> !screen().contains("#####") && screen().contains("└" + "─".repeat(98) + "┘"), "drawn again at 100x30");
        assertThat(screen()).startsWith(" stsresize │ context:");
    }

    @Test
    void ctrlLDrawsEveryCellAgain() throws Exception {
        start(DemoDecisions::loaded, new FakeStepRunner());
        awaitScreen("<enter> diff  <a> apply"); // the last row: the first draw is on the terminal whole
        String drawn = screen();
        scribble();
        assertThat(screen()).contains("#####");
        keys.add(new KeyStroke('l', true, false));
        awaitUntil(() -> screen().equals(drawn), "the screen as it was drawn before the scribble");
    }

    /** Writes over the terminal's cells behind the screen's back, as a terminal reflowing its contents does. */
    private void scribble() {
        TerminalSize size = vt.getTerminalSize();
        for (int row = 0; row < size.getRows(); row += 2) {
            vt.setCursorPosition(0, row);
            for (int col = 0; col < size.getColumns(); col++) {
                vt.putCharacter('#');
            }
        }
    }

    private void awaitUntil(java.util.function.BooleanSupplier done, String what) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (!done.getAsBoolean()) {
            assertThat(Instant.now()).as("waiting until %s:\n%s", what, screen()).isBefore(deadline);
            assertThat(failure.get()).isNull();
            Thread.sleep(10);
        }
    }
}
