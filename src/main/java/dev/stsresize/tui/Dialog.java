package dev.stsresize.tui;

/** A box over the body that takes every key until answered. */
public sealed interface Dialog {
    String title();

    String message();

    /** Quit while a write is in flight or the StatefulSet is absent: {@code y} quits, anything else stays. */
    record ConfirmQuit(String title, String message) implements Dialog {}

    /** An interrupted run found at start: {@code y} resumes it in a wizard, anything else leaves it for later. */
    record Resume(String title, String message, String key) implements Dialog {}

    /** The way back after a failed resize: {@code y} lowers the requests of the claims whose resize did not complete. */
    record Revert(String title, String message, String key) implements Dialog {}

    /** An error to read in full (a server's message does not fit the flash line); any key closes it. */
    record Error(String title, String message) implements Dialog {}
}
