package dev.stsresize.cluster;

import java.util.Objects;
import java.util.Optional;

/** Which namespaces a LIST covers: one, or all of them ({@code -A}). */
public final class NamespaceScope {
    private static final NamespaceScope ALL = new NamespaceScope(null);

    private final String namespace;

    private NamespaceScope(String namespace) {
        this.namespace = namespace;
    }

    public static NamespaceScope all() {
        return ALL;
    }

    public static NamespaceScope of(String namespace) {
        if (namespace == null || namespace.isEmpty()) {
            throw new IllegalArgumentException("a namespace scope needs a namespace name; use NamespaceScope.all() for -A");
        }
        return new NamespaceScope(namespace);
    }

    /** The namespace, or empty for all namespaces. */
    public Optional<String> namespace() {
        return Optional.ofNullable(namespace);
    }

    public boolean isAll() {
        return namespace == null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NamespaceScope other && Objects.equals(namespace, other.namespace);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(namespace);
    }

    @Override
    public String toString() {
        return namespace == null ? "all namespaces" : "namespace " + namespace;
    }
}
