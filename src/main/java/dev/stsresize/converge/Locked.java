package dev.stsresize.converge;

/** Another operator holds the StatefulSet's Lease: who, since when, and whether it has expired. */
public final class Locked extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Locked(String message) {
        super(message);
    }
}
