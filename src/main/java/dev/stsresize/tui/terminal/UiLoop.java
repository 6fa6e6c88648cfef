package dev.stsresize.tui.terminal;

import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.input.KeyStroke;
import com.googlecode.lanterna.screen.Screen;
import com.googlecode.lanterna.screen.TerminalScreen;
import com.googlecode.lanterna.terminal.Terminal;
import dev.stsresize.tui.DecisionSource;
import dev.stsresize.tui.Effect;
import dev.stsresize.tui.Key;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.Transition;
import dev.stsresize.tui.UiEvent;
import dev.stsresize.tui.UiState;
import dev.stsresize.tui.Update;
import dev.stsresize.tui.UsageSource;
import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The UI thread: takes events (keys from the input thread, resizes, results from the
 * {@link EffectRunner}), applies {@link Update}, runs the effects, redraws. The screen is stopped —
 * the terminal restored — however the loop ends, and by a shutdown hook when the JVM is killed.
 */
public final class UiLoop {
    /** Where keys come from: the screen in production; a queue in tests (a virtual terminal blocks its output while it waits for input). */
    @FunctionalInterface
    public interface KeySource {
        KeyStroke read() throws IOException, InterruptedException;
    }

    private final Screen screen;
    private final KeySource keys;
    private final TerminalFrame frame;
    private final BlockingQueue<UiEvent> events = new LinkedBlockingQueue<>();
    private final EffectRunner effects;
    private final AtomicBoolean stopped = new AtomicBoolean();

    public UiLoop(Screen screen, KeySource keys, TerminalFrame frame, DecisionSource source, StepRunner steps) {
        this(screen, keys, frame, source, steps, null);
    }

    /** @param usage the periodic usage reads' source, null for none */
    public UiLoop(Screen screen, KeySource keys, TerminalFrame frame, DecisionSource source, StepRunner steps, UsageSource usage) {
        this.screen = screen;
        this.keys = keys;
        this.frame = frame;
        this.effects = new EffectRunner(source, steps, usage, events::add);
    }

    /** Opens the UI on {@code terminal} with decisions already loaded; returns when the user quits. */
    public static void open(Terminal terminal, TerminalFrame frame, DecisionSource source, StepRunner steps, Loaded first) throws IOException {
        open(terminal, frame, source, steps, null, first);
    }

    public static void open(Terminal terminal, TerminalFrame frame, DecisionSource source, StepRunner steps, UsageSource usage, Loaded first)
            throws IOException {
        TerminalScreen screen = new TerminalScreen(terminal);
        new UiLoop(screen, screen::readInput, frame, source, steps, usage).run(first);
    }

    public void run(Loaded first) throws IOException {
        Thread restore = new Thread(this::stop, "stsresize-restore-terminal");
        Runtime.getRuntime().addShutdownHook(restore);
        try {
            screen.startScreen();
            screen.setCursorPosition(null);
            if (screen instanceof TerminalScreen ts) {
                ts.getTerminal().addResizeListener((t, size) -> events.add(new UiEvent.Resized(size.getColumns(), size.getRows())));
            }
            Thread input = new Thread(this::readKeys, "stsresize-keys");
            input.setDaemon(true);
            input.start();
            TerminalSize size = screen.getTerminalSize();
            Transition start = Update.apply(UiState.initial(size.getColumns(), size.getRows()), new UiEvent.DecisionsLoaded(first));
            start.effects().forEach(effects::run); // the first load starts the usage timer
            UiState state = start.state();
            loop(state);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            effects.close();
            stop();
            try {
                Runtime.getRuntime().removeShutdownHook(restore);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: the terminal is restored either way
            }
        }
    }

    private void loop(UiState initial) throws IOException, InterruptedException {
        UiState state = initial;
        draw(state, true);
        while (true) {
            UiEvent e = events.take();
            boolean whole = false;
            // apply every event already waiting before drawing once: a burst of keys or progress costs one redraw
            while (e != null) {
                Transition t = Update.apply(state, e);
                state = t.state();
                for (Effect effect : t.effects()) {
                    if (effect instanceof Effect.Quit) {
                        return;
                    }
                    if (effect instanceof Effect.Redraw) {
                        whole = true;
                    } else {
                        effects.run(effect);
                    }
                }
                e = events.poll();
            }
            draw(state, whole);
        }
    }

    /**
     * Draws a state on the screen's back buffer, then to the terminal: only the cells that changed, or
     * every cell after a resize or when asked ({@code whole}). A resized terminal keeps, moves or drops
     * what was on it as it pleases (tmux reflows it, xterm crops it): the cells lanterna last sent are no
     * longer what is shown, so a delta against them leaves old rows and loses new ones.
     */
    void draw(UiState state, boolean whole) throws IOException {
        boolean resized = screen.doResizeIfNecessary() != null;
        frame.draw(state, screen.newTextGraphics());
        screen.refresh(whole || resized ? Screen.RefreshType.COMPLETE : Screen.RefreshType.DELTA);
    }

    private void readKeys() {
        try {
            while (!stopped.get()) {
                KeyStroke k = keys.read();
                Key key = KeyMapping.of(k);
                if (key != null) {
                    events.add(new UiEvent.Pressed(key));
                    if (key.kind() == Key.Kind.EOF) {
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            if (!stopped.get()) {
                events.add(new UiEvent.Pressed(Key.of(Key.Kind.EOF)));
            }
        }
    }

    private void stop() {
        if (stopped.compareAndSet(false, true)) {
            try {
                screen.stopScreen();
                if (screen instanceof TerminalScreen ts) {
                    ts.getTerminal().close();
                }
            } catch (IOException | RuntimeException ignored) {
                // nothing more can be done for a terminal that refuses to be restored
            }
        }
    }
}
