package dev.stsresize.sim.registry;

/**
 * The options of one write: {@code dryRun=All}, the field manager (the {@code fieldManager} query
 * parameter, else the client's user-agent product as the real server derives it), {@code force} for
 * apply, and {@code fieldValidation=Strict}.
 */
public record WriteOptions(boolean dryRun, String fieldManager, boolean force, boolean strict) {
    public static WriteOptions by(String fieldManager) {
        return new WriteOptions(false, fieldManager, false, false);
    }

    public WriteOptions withDryRun(boolean d) {
        return new WriteOptions(d, fieldManager, force, strict);
    }

    public WriteOptions withForce(boolean f) {
        return new WriteOptions(dryRun, fieldManager, f, strict);
    }
}
