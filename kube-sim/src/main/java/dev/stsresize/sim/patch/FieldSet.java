package dev.stsresize.sim.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A set of field paths, shaped as structured-merge-diff's fieldpath.Set: the paths that end here
 * ({@code members}) and the sets below each element ({@code children}). A path may be both a
 * member and a prefix of others — a list item owned as a whole and field by field.
 * Mutable while built; the set operations return new sets.
 */
final class FieldSet {
    private final TreeSet<PathElement> members = new TreeSet<>();
    private final TreeMap<PathElement, FieldSet> children = new TreeMap<>();

    void insert(List<PathElement> path) {
        if (path.isEmpty()) {
            return;
        }
        FieldSet at = this;
        for (int i = 0; i < path.size() - 1; i++) {
            at = at.children.computeIfAbsent(path.get(i), pe -> new FieldSet());
        }
        at.members.add(path.get(path.size() - 1));
    }

    boolean has(List<PathElement> path) {
        FieldSet at = child(path.subList(0, Math.max(0, path.size() - 1)));
        return !path.isEmpty() && at != null && at.members.contains(path.get(path.size() - 1));
    }

    /** True when {@code path} or any path below it is in the set. */
    boolean hasAtOrBelow(List<PathElement> path) {
        if (has(path)) {
            return true;
        }
        FieldSet below = child(path);
        return below != null && !below.isEmpty();
    }

    private FieldSet child(List<PathElement> prefix) {
        FieldSet at = this;
        for (PathElement pe : prefix) {
            at = at.children.get(pe);
            if (at == null) {
                return null;
            }
        }
        return at;
    }

    boolean isEmpty() {
        return members.isEmpty() && children.values().stream().allMatch(FieldSet::isEmpty);
    }

    FieldSet union(FieldSet other) {
        FieldSet out = copy();
        other.forEach(out::insert);
        return out;
    }

    /** Paths of this set that are not, exactly, in {@code other} (fieldpath.Set.Difference). */
    FieldSet difference(FieldSet other) {
        FieldSet out = new FieldSet();
        forEach(p -> {
            if (!other.has(p)) {
                out.insert(p);
            }
        });
        return out;
    }

    FieldSet intersection(FieldSet other) {
        FieldSet out = new FieldSet();
        forEach(p -> {
            if (other.has(p)) {
                out.insert(p);
            }
        });
        return out;
    }

    /** The paths that pass {@code keep}. */
    FieldSet filter(java.util.function.Predicate<List<PathElement>> keep) {
        FieldSet out = new FieldSet();
        forEach(p -> {
            if (keep.test(p)) {
                out.insert(p);
            }
        });
        return out;
    }

    FieldSet copy() {
        FieldSet out = new FieldSet();
        forEach(out::insert);
        return out;
    }

    /** Every path, in fieldpath.Set.Iterate order: this level's members, then each child's paths. */
    void forEach(Consumer<List<PathElement>> action) {
        walk(new ArrayList<>(), action);
    }

    private void walk(List<PathElement> prefix, Consumer<List<PathElement>> action) {
        for (PathElement m : members) {
            List<PathElement> p = new ArrayList<>(prefix);
            p.add(m);
            action.accept(List.copyOf(p));
        }
        for (Map.Entry<PathElement, FieldSet> c : children.entrySet()) {
            prefix.add(c.getKey());
            c.getValue().walk(prefix, action);
            prefix.remove(prefix.size() - 1);
        }
    }

    List<List<PathElement>> paths() {
        List<List<PathElement>> all = new ArrayList<>();
        forEach(all::add);
        return all;
    }

    TreeSet<PathElement> members() {
        return members;
    }

    TreeMap<PathElement, FieldSet> children() {
        return children;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSet other && paths().equals(other.paths());
    }

    @Override
    public int hashCode() {
        return paths().hashCode();
    }

    /** Paths one per line, as in conflict messages: ".spec.replicas". */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        forEach(p -> b.append(b.length() > 0 ? "\n" : "").append(FieldSet.text(p)));
        return b.toString();
    }

    static String text(List<PathElement> path) {
        StringBuilder b = new StringBuilder();
        path.forEach(pe -> b.append(pe));
        return b.toString();
    }
}
