package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Quantity;
import java.util.Map;
import java.util.Optional;

/**
 * A claim's request before the run that raised it, kept on the claim itself (annotation {@value #ANNOTATION})
 * by the very merge patch that raises the request: it outlives the run's record, which a failed run deletes,
 * so {@code revert} finds it after any ending. Read back as untrusted input: anyone who may patch the claim
 * may have written it, so it is used only as a quantity between the claim's capacity and its current
 * request.
 */
public final class SizeBefore {
    public static final String ANNOTATION = "stsresize.dev/size-before";

    private SizeBefore() {}

    /** What the raising patch writes beside the request: the request it replaces (nothing when there was none). */
    static Map<String, String> written(String requestBefore) {
        return requestBefore == null || requestBefore.isEmpty() ? Map.of() : Map.of(ANNOTATION, requestBefore);
    }

    /** What the lowering patch writes beside the request: the annotation removed, its size given back. */
    static Map<String, String> cleared() {
        java.util.HashMap<String, String> m = new java.util.HashMap<>();
        m.put(ANNOTATION, null);
        return m;
    }

    /** The annotation as written, "" when absent. */
    static String raw(ObjectNode claim) {
        return Metadata.textOrEmpty(claim, "metadata", "annotations", ANNOTATION);
    }

    /**
     * The size the annotation names, if it is a quantity below the claim's request and not below its capacity;
     * empty otherwise (absent, unreadable, at or above the request: nothing to go back to).
     */
    static Optional<Quantity> of(ObjectNode claim) {
        Quantity before = Quantity.parseOrNull(raw(claim));
        Quantity request = Quantity.parseOrNull(Metadata.textOrEmpty(claim, "spec", "resources", "requests", "storage"));
        Quantity capacity = Quantity.parseOrNull(Metadata.textOrEmpty(claim, "status", "capacity", "storage"));
        if (before == null || request == null || !before.isLessThan(request)) {
            return Optional.empty();
        }
        if (capacity != null && before.isLessThan(capacity)) {
            return Optional.of(capacity); // never below what the volume already has
        }
        return Optional.of(before);
    }
}
