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
        return with(c -> {
            c.loaded = l;
            c.loading = isLoading;
            c.visible = null;
        });
    }

    UiState withLoading(boolean b) {
        return with(c -> c.loading = b);
    }

    UiState withCursor(int i) {
        return with(c -> c.cursor = i);
    }

    UiState withFilter(String f, boolean editing) {
        return with(c -> {
            c.filter = f;
            c.filtering = editing;
            c.visible = f.equals(filter) ? visible : null;
        });
    }

    UiState withSort(SortOrder s) {
        return with(c -> {
            c.sort = s;
            c.visible = null;
        });
    }

    /** Another view, from its first line; {@code from} is where Esc returns. */
    UiState withView(View v, View from) {
        return with(c -> {
            c.view = v;
            c.back = from;
            c.scroll = 0;
        });
    }

    UiState withScroll(int s) {
        return with(c -> c.scroll = s);
    }

    UiState withFlash(Flash f) {
        return with(c -> c.flash = f);
    }

    UiState withDialog(Dialog d) {
        return with(c -> c.dialog = d);
    }

    UiState withWizard(Wizard w) {
        return with(c -> c.wizard = w);
    }

    UiState withSize(int columns, int rows) {
        return with(c -> {
            c.columns = columns;
            c.rows = rows;
        });
    }

    UiState withMarked(Set<String> m) {
        return with(c -> c.marked = m);
    }

    UiState withEdit(SizeEdit e) {
        return with(c -> c.edit = e);
    }

    /** A new usage read: the list is sorted again only when it sorts by usage. */
    UiState withUsage(UsageIndex u) {
        return with(c -> {
            c.usage = u;
            c.visible = sort == SortOrder.USED ? null : visible;
        });
    }

    /**
     * This state with what {@code change} sets on a copy of its components: each wither names only what it
     * changes, so a new component is one line in {@link Copy}, not one in every wither. A change that alters
     * what {@code visible} is derived from sets it to null (computed again); the others keep it.
     */
    private UiState with(java.util.function.Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return new UiState(c.loaded, c.loading, c.cursor, c.filter, c.filtering, c.sort, c.view, c.back, c.scroll, c.flash, c.dialog,
                c.wizard, c.marked, c.edit, c.usage, c.columns, c.rows, c.visible);
    }

    /** The components, to be changed before the next state is built from them. */
    private static final class Copy {
        Loaded loaded;
        boolean loading;
        int cursor;
        String filter;
        boolean filtering;
        SortOrder sort;
        View view;
        View back;
        int scroll;
        Flash flash;
        Dialog dialog;
        Wizard wizard;
        Set<String> marked;
        SizeEdit edit;
        UsageIndex usage;
        int columns;
        int rows;
        List<Decision> visible;

        Copy(UiState s) {
            loaded = s.loaded;
            loading = s.loading;
            cursor = s.cursor;
            filter = s.filter;
            filtering = s.filtering;
            sort = s.sort;
            view = s.view;
            back = s.back;
            scroll = s.scroll;
            flash = s.flash;
            dialog = s.dialog;
            wizard = s.wizard;
            marked = s.marked;
            edit = s.edit;
            usage = s.usage;
            columns = s.columns;
            rows = s.rows;
            visible = s.visible;
        }
    }
}
