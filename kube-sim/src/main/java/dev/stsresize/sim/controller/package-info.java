/**
 * The simulated cluster's controllers: what happens between requests on a real cluster, paced by
 * {@link dev.stsresize.sim.controller.Speed} ({@code fast} for tests, {@code realistic} for people).
 *
 * <h2>Tour</h2>
 * <ul>
 *   <li>{@link dev.stsresize.sim.controller.ControllerManager} — {@code ControllerManager.start(sim, Speed.fast)};
 *       one thread turns store events into keys, one thread runs every sync in time order (so a
 *       controller reacting after 0 ms always runs before one reacting after 2 ms: deterministic
 *       tests); {@code awaitIdle} for "nothing left to do"; {@code failures()} for unexpected errors.
 *       It also switches the registry to graceful pod deletion and installs the PodDisruptionBudget
 *       eviction check; {@code close()} undoes both.</li>
 *   <li>{@code StatefulSetController} (+ {@code StatefulSetPods}, {@code Revisions}, {@code ClaimRetention}) —
 *       claims, pods, revisions, adoption, retention owner references, scale down, rolling update, status.</li>
 *   <li>{@code GarbageCollector} — Orphan (references first, then the finalizer), Foreground, and
 *       the dependents of vanished owners (Background).</li>
 *   <li>{@code Kubelet} — scheduling, Pending → Running → Ready, node expansion, grace periods.</li>
 *   <li>{@code VolumeBinder} — static binding, provisioning, WaitForFirstConsumer, pvc/pv protection, reclaim.</li>
 *   <li>{@code VolumeResizer} — the expand controller's ExternalExpanding and a resizer per StorageClass
 *       (annotation {@code sim.stsresize.dev/resizer}: online, offline, infeasible, none).</li>
 *   <li>{@code DisruptionController} and {@code DisruptionBudgetEviction} — PodDisruptionBudget status and the 429.</li>
 * </ul>
 *
 * <h2>Invariants</h2>
 * Controllers read the store and write only through the registry (validation, admission,
 * managedFields, optimistic concurrency), each under its own field manager; a conflict means a
 * stale read and the key is looked at again shortly. Every sync reads fresh state (level-triggered),
 * so a missed event costs time, never correctness. A settled snapshot (the demo) stays untouched.
 */
package dev.stsresize.sim.controller;
