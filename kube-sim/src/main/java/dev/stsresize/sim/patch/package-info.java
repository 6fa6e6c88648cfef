/**
 * The patch algorithms of the simulated kube-apiserver, pure functions over Jackson trees:
 * {@link dev.stsresize.sim.patch.Patches} (JSON, merge and strategic merge patch) and
 * {@link dev.stsresize.sim.patch.FieldManagement} (server-side apply and managedFields).
 *
 * <p>Map from here to the Kubernetes source they follow: {@code JsonPatch}/{@code MergePatch} —
 * evanphx/json-patch v4 as endpoints/handlers/patch.go uses it; {@code StrategicMerge},
 * {@code ElementOrder} — apimachinery util/strategicpatch; {@code MergeKeys} — the patch and list
 * tags of k8s.io/api; {@code FieldSet}, {@code FieldsV1}, {@code PathElement}, {@code ObjectFields},
 * {@code ApplyMerge}, {@code Ownership} — sigs.k8s.io/structured-merge-diff (fieldpath, typed,
 * merge); {@code ServerSideApply}, {@code UpdateRecorder}, {@code TrackedFields},
 * {@code LastApplied}, {@code ApplyConflicts}, {@code ManagedFieldsCodec} — apimachinery
 * util/managedfields/internal (the field manager chain).
 *
 * <p>For the server that calls them: {@code time} is stored verbatim and entries sort by it as a
 * string, so pass RFC 3339 UTC seconds ("2026-12-03T08:00:00Z"). Call {@code recordUpdate} after
 * every create, update and json/merge/strategic patch (before = null on create) with the manager
 * from {@code fieldManager} or the user agent, and subresource "status" (or "scale") for writes
 * there; {@code updated} should carry the managedFields the client sent (a PUT) or the patch
 * produced — sent ones replace the live ones, as on the real server. Reset status (and for status
 * writes, everything else) as the strategies do before or after calling; these functions only
 * leave those fields out of ownership.
 */
package dev.stsresize.sim.patch;
