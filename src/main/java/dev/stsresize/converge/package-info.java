/**
 * The converge procedure of docs/design.md, steps 1–9, as explicit steps over the {@code Cluster} port.
 *
 * <p>{@link dev.stsresize.converge.Assessor} reads (one LIST of StatefulSets and of claims per
 * namespace, StorageClasses once), decides (the pure {@code plan.Decider}) and proves with the server
 * (access reviews, dry runs); {@link dev.stsresize.converge.Converger} then executes one assessed
 * StatefulSet: lock and record ({@link dev.stsresize.converge.LeaseLock}, {@link dev.stsresize.converge.Journal}),
 * grow ({@link dev.stsresize.converge.ClaimGrower}), orphan-delete ({@link dev.stsresize.converge.OrphanDelete}),
 * re-apply or restore ({@link dev.stsresize.converge.Reapply}), verify adoption from the objects
 * ({@link dev.stsresize.converge.AdoptionCheck}), record Events ({@link dev.stsresize.converge.Events}).
 *
 * <p>UI-agnostic: progress goes out as {@link dev.stsresize.converge.ProgressEvent}s to a
 * {@link dev.stsresize.converge.Progress}; decisions that need a human come in through a
 * {@link dev.stsresize.converge.Gate}. The CLI answers gates with prompts or {@code --yes}; a
 * terminal UI can answer them with its own dialogs. No picocli, no client-java here.
 */
package dev.stsresize.converge;
