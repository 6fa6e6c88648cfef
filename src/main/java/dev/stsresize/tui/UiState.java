package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Everything the screen shows, immutable: the views draw it and nothing else; only {@link Update}
 * makes the next one. {@code cursor} indexes {@link #visible()}; {@code scroll} is the first line of
 * the diff or help; {@code columns} and {@code rows} are the terminal's size. {@code marked} holds the
 * "namespace/name" of the StatefulSets marked with Space; {@code edit} is the manifest being edited ({@code e}), or null;
 * {@code usage} the last usage read, or null before the first.
 */
public record UiState(Loaded loaded, boolean loading, int cursor, String filter, boolean filtering, SortOrder sort,
        View view, View back, int scroll, Flash flash, Dialog dialog, Wizard wizard, Set<String> marked, SizeEdit edit, UsageIndex usage, int columns,
        int rows, List<Decision> visible) {

    /**
     * {@code visible} is derived: the rows of the list, the filter applied (case-insensitive, on name,
     * verdict, reason and class), then the sort. Passing null computes it; the withers that do not
     * change its inputs pass it along, so a keystroke with 2,000 StatefulSets does not filter and sort again.
     */
    public UiState {
        marked = Set.copyOf(marked);
        if (visible == null) {
            String f = filter.toLowerCase(Locale.ROOT);
            visible = loaded.decisions().stream()
                    .filter(d -> f.isEmpty() || Texts.searchable(d).contains(f))
                    .sorted(sort.comparator(usage))
                    .toList();
        }
    }

    public static UiState initial(int columns, int rows) {
        return new UiState(Loaded.empty(), true, 0, "", false, SortOrder.NAME, View.LIST, View.LIST, 0, null, null, null,
                Set.of(), null, null, columns, rows, null);
    }

    /** The decision under the cursor, or null when the list is empty. */
    public Decision selected() {
        List<Decision> v = visible;
        return v.isEmpty() ? null : v.get(Math.min(cursor, v.size() - 1));
    }

    UiState withLoaded(Loaded l, boolean isLoading) {
        return new UiState(l, isLoading, cursor, filter, filtering, sort, view, back, scroll, flash, dialog, wizard, marked, edit, usage, columns, rows, null);
    }

    UiState withLoading(boolean b) {
        return new UiState(loaded, b, cursor, filter, filtering, sort, view, back, scroll, flash, dialog, wizard, marked, edit, usage, columns, rows, visible);
    }

    UiState withCursor(int c) {
        return new UiState(loaded, loading, c, filter, filtering, sort, view, back, scroll, flash, dialog, wizard, marked, edit, usage, columns, rows, visible);
    }

    UiState withFilter(String f, boolean editing) {
        return new UiState(loaded, loading, cursor, f, editing, sort, view, back, scroll, flash, dialog, wizard, marked, edit, usage, columns, rows, f.equals(filter) ? visible : null);
    }

    UiState withSort(SortOrder s) {
        return new UiState(loaded, loading, cursor, filter, filtering, s, view, back, scroll, flash, dialog, wizard, marked, edit, usage, columns, rows, null);
    }

    /** Another view, from its first line; {@code from} is where Esc returns. */
    UiState withView(View v, View from) {
        return new UiState(loaded, loading, cursor, filter, filtering, sort, v, from, 0, flash, dialog, wizard, marked, edit, usage, columns, rows, visible);
    }

    UiState withScroll(int s) {
        return new UiState(loaded, loading, cursor, filter, filtering, sort, view, back, s, flash, dialog, wizard, marked, edit, usage, columns, rows, visible);
    }

    UiState withFlash(Flash f) {
        return new UiState(loaded, loading, cursor, filter, filtering, sort, view, back, scroll, f, dialog, wizard, marked, edit, usage, columns, rows, visible);
    }

    UiState withDialog(Dialog d) {
        return new UiState(loaded, loading, cursor, filter, filtering, sort, view, back, scroll, flash, d, wizard, marked, edit, usage, columns, rows, visible);
    }

    UiState withWizard(Wizard w) {
        return new UiState(loaded, loading, cursor, filter, filtering, sort, view, back, scroll, flash, dialog, w, marked, edit, usage, columns, rows, visible);
    }

    UiState withSize(int c, int r) {
        return new UiState(loaded, loading, cursor, filter, filtering, sort, view, back, scroll, flash, dialog, wizard, marked, edit, usage, c, r, visible);
    }

    UiState withMarked(Set<String> m) {
        return new UiState(loaded, loading, cursor, filter, filtering, sort, view, back, scroll, flash, dialog, wizard, m, edit, usage, columns, rows, visible);
    }

    UiState withEdit(SizeEdit e) {
        return new UiState(loaded, loading, cursor, filter, filtering, sort, view, back, scroll, flash, dialog, wizard, marked, e, usage, columns, rows, visible);
    }

    /** A new usage read: the list is sorted again only when it sorts by usage. */
    UiState withUsage(UsageIndex u) {
        return new UiState(loaded, loading, cursor, filter, filtering, sort, view, back, scroll, flash, dialog, wizard, marked, edit, u, columns,
                rows, sort == SortOrder.USED ? null : visible);
    }
}
