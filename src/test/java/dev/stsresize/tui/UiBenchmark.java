package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.screen.TerminalScreen;
import com.googlecode.lanterna.terminal.virtual.DefaultVirtualTerminal;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Plan;
import dev.stsresize.tui.terminal.TerminalFrame;
import dev.stsresize.tui.terminal.Theme;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Keystroke to redraw with 2,000 StatefulSets loaded: Update plus a full frame drawn and refreshed on a
 * 200x60 virtual terminal, per key. Goal: 50 ms. Excluded by default; run with
 * {@code mvn test -Dtest=UiBenchmark -Dsurefire.excludedGroups=none}.
 */
@Tag("bench")
class UiBenchmark {
    @Test
    void keystrokeToRedrawWith2000StatefulSets() throws Exception {
        Loaded demo = DemoDecisions.loaded();
        List<Decision> many = new ArrayList<>();
        Map<String, String> uids = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            Decision d = demo.decisions().get(i % demo.decisions().size());
            String ns = "team-" + (i / 50);
            Decision copy = d instanceof Plan p
                    ? new Plan(ns, p.name() + "-" + i, p.verdict(), p.templates(), p.claims(), p.warnings(), p.detail())
                    : new dev.stsresize.plan.Refusal(ns, d.name() + "-" + i, ((dev.stsresize.plan.Refusal) d).findings(), d.templates(),
                            d.claims(), d.warnings());
            many.add(copy);
            uids.put(Loaded.key(copy), "uid-" + i);
        }
        Loaded loaded = new Loaded(many, uids, "bench", "offline", "all namespaces", "bench.yaml");
        DefaultVirtualTerminal vt = new DefaultVirtualTerminal(new TerminalSize(200, 60));
        TerminalScreen screen = new TerminalScreen(vt);
        screen.startScreen();
        TerminalFrame frame = new TerminalFrame(new Theme(true), Glyphs.UNICODE);
        UiState state = Update.apply(UiState.initial(200, 60), new UiEvent.DecisionsLoaded(loaded)).state();

        String keys = "jjjjjjjjjjGgjjjjkkkks/team-1" + "\n" + "jjjjs";
        long[] micros = new long[keys.length() * 10];
        int n = 0;
        for (int round = -3; round < 10; round++) { // three rounds to warm the JIT up, not measured
            for (char c : keys.toCharArray()) {
                Key key = c == '\n' ? Key.of(Key.Kind.ENTER) : Key.ch(c);
                long start = System.nanoTime();
                state = Update.apply(state, new UiEvent.Pressed(key)).state();
                frame.draw(state, screen.newTextGraphics());
                screen.refresh();
                if (round >= 0) {
                    micros[n++] = (System.nanoTime() - start) / 1000;
                }
            }
            state = Update.apply(state, new UiEvent.Pressed(Key.of(Key.Kind.ESCAPE))).state();
        }
        screen.stopScreen();
        long[] sorted = Arrays.copyOf(micros, n);
        Arrays.sort(sorted);
        long median = sorted[n / 2];
        long p95 = sorted[(int) (n * 0.95)];
        long max = sorted[n - 1];
        System.out.printf("keystroke to redraw, 2000 StatefulSets, 200x60, %d keys: median %.1f ms, p95 %.1f ms, max %.1f ms (goal 50 ms)%n",
                n, median / 1000.0, p95 / 1000.0, max / 1000.0);
        assertThat(p95).as("p95 keystroke to redraw in microseconds").isLessThan(50_000);
    }
}
