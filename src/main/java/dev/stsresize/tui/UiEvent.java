package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.plan.Decision;

/**
 * What {@link Update} reacts to: a key, a resize, or a result an {@link Effect} posted back from its
 * background thread. Results name the StatefulSet they are about, so a late one for a wizard the user
 * already left is recognised and dropped.
 */
public sealed interface UiEvent {
    record Pressed(Key key) implements UiEvent {}

    record Resized(int columns, int rows) implements UiEvent {}

    /** A load; its {@link Loaded#unproved()} rows wait for the server's proofs, which come as {@link DecisionsProved}. */
    record DecisionsLoaded(Loaded loaded) implements UiEvent {}

    /** The last load again, with the server's permissions and dry runs in (a verdict may have turned into a refusal). */
    record DecisionsProved(Loaded loaded) implements UiEvent {}

    record LoadFailed(String message) implements UiEvent {}

    /** One row decided again with the opt-in to the copy, proved: a copy plan, or why the copy cannot take it. */
    record CopyDecided(Decision decision) implements UiEvent {}

    /** The row could not be decided again with the copy (the cluster did not answer, an offline list): nothing changed. */
    record CopyRefused(String key, String message) implements UiEvent {}

    /** Something a running step did; {@code kubectl} is the equivalent command of a write ("" otherwise). */
    record StepProgress(String key, Phase step, String message, String kubectl, boolean warning) implements UiEvent {}

    /** The claims of the wizard's StatefulSet as just read (live progress toward capacity). */
    record ClaimsRead(String key, java.util.List<ClaimProgress> claims) implements UiEvent {}

    /** A wait of the wizard's running step goes on: what for, for how long (its claims come as {@link ClaimsRead}). */
    record WaitTicked(String key, WaitStatus status) implements UiEvent {}

    /** What the converge verified, read back from the objects. */
    record Summarized(String key, Summary summary) implements UiEvent {}

    /** A step ended; {@code message} says what was verified, or why it failed. */
    record StepFinished(String key, Phase step, boolean ok, String message) implements UiEvent {}

    /** The manifest's files with the new sizes, in memory: their diffs are shown before anything is written. */
    record EditPrepared(java.util.List<SizeEdit.FileChange> files) implements UiEvent {}

    /** The edit cannot be made (a Helm template, an anchor, a size not larger, a file changed since): nothing was written. */
    record EditRefused(String message) implements UiEvent {}

    /** The files are written. */
    record EditWritten(java.util.List<String> files) implements UiEvent {}

    /** A usage read, with the rates the successive reads give, and how long they span. */
    record UsageRead(dev.stsresize.usage.UsageReport report, java.time.Duration sampledFor) implements UiEvent {}
}
