package dev.stsresize.tui;

import dev.stsresize.converge.ClaimGrower;
import dev.stsresize.converge.ReadBack;
import java.util.List;

/**
 * One claim as last read while the wizard runs: its request, its capacity and the target, the
 * conditions the resizer set, and where that leaves it. Plain data: the runner reads the claims, the
 * wizard shows them, {@link Update} only stores them.
 *
 * @param conditions the claim's condition types that are True (Resizing, FileSystemResizePending, …)
 * @param latest its resizer's latest word ("" none read): the newest Event about it and its allocation status
 */
public record ClaimProgress(String name, String request, String capacity, String target, List<String> conditions, State state,
        String message, String latest) {

    /** Where a claim stands toward its target. */
    public enum State {
        /** the request is below the target: not patched yet */
        REQUESTED_LESS("to grow"),
        /** the request is at the target, the capacity not yet */
        RESIZING("resizing"),
        /** the volume grew; the file system grows when a pod using it restarts (or online, by the kubelet) */
        FILE_SYSTEM_PENDING("file system pending"),
        /** the capacity reached the target */
        GROWN("grown"),
        /** the resizer says the size cannot be had */
        INFEASIBLE("infeasible"),
        /** the claim no longer exists */
        GONE("gone"),
        /** a claim to copy, still on its old volume */
        TO_COPY("to copy"),
        /** a claim to copy, on its old volume while its copy pod runs */
        COPYING("copying"),
        /** a copied claim on its way to its new volume: deleted after its proof, or created again and not yet Bound */
        REBINDING("re-binding to its new volume"),
        /** a copied claim Bound at the target on its new volume */
        COPIED("copied");

        private final String label;

        State(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public ClaimProgress {
        conditions = List.copyOf(conditions);
        message = message == null ? "" : message;
        latest = latest == null ? "" : latest;
    }

    public ClaimProgress(String name, String request, String capacity, String target, List<String> conditions, State state,
            String message) {
        this(name, request, capacity, target, conditions, state, message, "");
    }

    /** Each claim as the converge read it ({@code ClaimGrower}, the wait's own reading), in the wizard's words. */
    public static List<ClaimProgress> of(List<ClaimGrower.ClaimStatus> read) {
        return read.stream().map(ClaimProgress::of).toList();
    }

    /** Each claim to copy as the converge read it with its copy pod ({@code ReadBack.copies}), in the wizard's words. */
    public static List<ClaimProgress> ofCopies(List<ReadBack.CopyStatus> read) {
        return read.stream().map(c -> new ClaimProgress(c.name(), c.request(), c.capacity(), c.target(), List.of(), switch (c.stage()) {
            case TO_COPY -> State.TO_COPY;
            case COPYING -> State.COPYING;
            case REBINDING -> State.REBINDING;
            case COPIED -> State.COPIED;
        }, "")).toList();
    }

    private static ClaimProgress of(ClaimGrower.ClaimStatus c) {
        State state = switch (c.state()) {
            case REQUESTED_LESS -> State.REQUESTED_LESS;
            case WAITING -> State.RESIZING;
            case FILE_SYSTEM_PENDING -> State.FILE_SYSTEM_PENDING;
            case GROWN -> State.GROWN;
            case INFEASIBLE -> State.INFEASIBLE;
            case GONE -> State.GONE;
        };
        String message = state == State.INFEASIBLE || state == State.GONE ? c.message() : "";
        return new ClaimProgress(c.name(), c.request(), c.capacity(), c.to(), c.conditions(), state, message, c.latest());
    }
}
