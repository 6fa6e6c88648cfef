package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.tui.Key.Kind;
import java.time.Duration;
import java.util.List;

/**
 * Usage in the UI, as {@link Update}'s part for it: each read is kept and the next one asked for on a timer
 * ({@link Effect.ReadUsage}); what cannot be read is said once, as information, never as an error; {@code u}
 * lists every StatefulSet of the namespaces in scope, fullest first. PURE.
 */
final class UsageFlow {
    /** Often enough to measure growth within minutes, seldom enough to cost one summary per node now and then. */
    static final Duration INTERVAL = Duration.ofSeconds(20);

    private UsageFlow() {}

    /**
     * Whether a view shows usage. The wizard does not: while it runs, the 200 summaries of a large cluster
     * every 20 s would only add load to an API server that is busy with the run's writes.
     */
    static boolean shownIn(View v) {
        return v != View.WIZARD;
    }

    static Transition read(UiState s, UiEvent.UsageRead u) {
        boolean pause = !shownIn(s.view());
        UsageIndex next = new UsageIndex(u.report(), u.sampledFor(), pause);
        UiState state = s.withUsage(next);
        String before = s.usage() == null ? "" : s.usage().status();
        if (!next.any() && !next.status().equals(before) && s.dialog() == null && s.flash() == null) {
            state = state.withFlash(Flash.info(next.status())); // once: the header keeps saying it
        }
        Decision selected = s.selected();
        if (selected != null && state.visible() != s.visible()) {
            state = state.withCursor(indexOf(state.visible(), selected));
        }
        return pause ? Transition.of(state) : Transition.of(state, new Effect.ReadUsage(INTERVAL));
    }

    /** After any event: a screen that shows usage again after a pause asks for a read now (and the timer goes on from it). */
    static Transition resumeIfShown(Transition t) {
        UiState s = t.state();
        if (s.usage() == null || !s.usage().paused() || !shownIn(s.view())) {
            return t;
        }
        List<Effect> effects = new java.util.ArrayList<>(t.effects());
        effects.add(new Effect.ReadUsage(Duration.ZERO));
        return new Transition(s.withUsage(s.usage().resumed()), effects);
    }

    /** The usage view's rows: every StatefulSet read, fullest first. */
    static List<StatefulSetUsage> rows(UiState s) {
        return s.usage() == null ? List.of() : s.usage().report().fullestFirst();
    }

    static Transition key(UiState s, Key k) {
        if (k.kind() == Kind.ESCAPE || k.is('u') || k.kind() == Kind.LEFT) {
            return Transition.of(s.withView(View.LIST, View.LIST));
        }
        if (k.kind() == Kind.ENTER) {
            List<StatefulSetUsage> rows = rows(s);
            if (rows.isEmpty()) {
                return Transition.of(s);
            }
            StatefulSetUsage u = rows.get(Math.min(s.scroll(), rows.size() - 1));
            int at = -1;
            for (int i = 0; i < s.visible().size(); i++) {
                if (Loaded.key(s.visible().get(i)).equals(u.key())) {
                    at = i;
                }
            }
            if (at < 0) {
                return Transition.of(s.withFlash(Flash.warn(u.key() + " is not in the manifest (or the filter hides it): add it to the"
                        + " manifest to resize it here")));
            }
            return Transition.of(s.withCursor(at).withView(View.DIFF, View.LIST));
        }
        // the usage view's cursor is its scroll: one row per StatefulSet
        int n = rows(s).size();
        int c = s.scroll();
        int next = switch (k.kind()) {
            case UP -> c - 1;
            case DOWN -> c + 1;
            case PAGE_UP -> c - Layout.listRows(s.rows());
            case PAGE_DOWN -> c + Layout.listRows(s.rows());
            case HOME -> 0;
            case END -> n - 1;
            case CHAR -> k.ch() == 'k' ? c - 1 : k.ch() == 'j' ? c + 1 : k.ch() == 'g' ? 0 : k.ch() == 'G' ? n - 1 : c;
            default -> c;
        };
        return Transition.of(s.withScroll(Math.max(0, Math.min(n - 1, next))));
    }

    private static int indexOf(List<Decision> visible, Decision d) {
        for (int i = 0; i < visible.size(); i++) {
            if (Loaded.key(visible.get(i)).equals(Loaded.key(d))) {
                return i;
            }
        }
        return 0;
    }
}
