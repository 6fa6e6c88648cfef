/**
 * The converge procedure of docs/design.md, steps 1–9, as one state machine over the {@code Cluster} port.
 *
 * <p>{@link dev.stsresize.converge.Assessor} reads (one LIST of StatefulSets and of claims per
 * namespace, StorageClasses and CSIDrivers once), decides (the pure {@code plan.Decider}) and proves with the server
 * (access reviews, dry runs). {@link dev.stsresize.converge.Convergence} is then the run of one assessed
 * StatefulSet, the one machine every driver advances — {@link dev.stsresize.converge.Converger} for
 * {@code apply} and {@code resume}, {@code tui.source.ClusterSteps} for the UI's wizard: lock and record
 * ({@link dev.stsresize.converge.LeaseLock}, {@link dev.stsresize.converge.Journal}), grow
 * ({@link dev.stsresize.converge.ClaimGrower}), wait, orphan-delete ({@link dev.stsresize.converge.OrphanDelete}),
 * re-apply or restore ({@link dev.stsresize.converge.Reapply}), verify adoption from the objects
 * ({@link dev.stsresize.converge.AdoptionCheck}), record Events ({@link dev.stsresize.converge.Events}),
 * each action one of {@link dev.stsresize.converge.Steps}. A resumed run is the same machine, started
 * from the position its record and the cluster say.
 *
 * <p>UI-agnostic: progress goes out as {@link dev.stsresize.converge.ProgressEvent}s and
 * {@link dev.stsresize.converge.WaitTick}s to a {@link dev.stsresize.converge.Progress}; what a human
 * decides comes in as values (the machine stops at a gate until answered; the CLI's
 * {@link dev.stsresize.converge.Gate} answers with prompts or {@code --yes}); every wait goes through
 * one {@link dev.stsresize.converge.Waiter}; a {@link dev.stsresize.converge.StopRequest} stops a run
 * at its next safe point with its record kept. Threads: the {@code Assessor}'s parallel LISTs and
 * proofs, a step's requests sent {@code Together}, the {@code Events}' sender and the Lease's renewer;
 * a run itself advances on the thread of whoever drives it. No
 * picocli, no client-java here: the cluster is reached through the {@code Cluster} port only.
 */
package dev.stsresize.converge;
