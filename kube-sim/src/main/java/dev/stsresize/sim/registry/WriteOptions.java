package dev.stsresize.sim.registry;

import java.util.ArrayList;
import java.util.List;

/**
 * The options of one write as the handlers decode them from the query (create.go, update.go, patch.go):
 * {@code dryRun=All}, the field manager (the {@code fieldManager} query parameter, else the client's
 * user-agent product as the real server derives it), {@code force} for apply, and
 * {@code fieldValidation} (Strict, Warn, Ignore; empty means Warn). {@code warnings} collects what
 * the answer carries as {@code Warning} headers (unknown fields under Warn).
 */
public record WriteOptions(boolean dryRun, String fieldManager, boolean force, FieldValidation validation, List<String> warnings) {
    /** metav1.FieldValidation*: what the decoder does with a field the schema does not declare. */
    public enum FieldValidation { STRICT, WARN, IGNORE }

    /** A controller's write: unknown fields dropped silently, as client-go sends no fieldValidation and reads no warnings. */
    public static WriteOptions by(String fieldManager) {
        return new WriteOptions(false, fieldManager, false, FieldValidation.IGNORE, new ArrayList<>());
    }

    public WriteOptions withDryRun(boolean d) {
        return new WriteOptions(d, fieldManager, force, validation, warnings);
    }

    public WriteOptions withForce(boolean f) {
        return new WriteOptions(dryRun, fieldManager, f, validation, warnings);
    }

    public boolean strict() {
        return validation == FieldValidation.STRICT;
    }
}
