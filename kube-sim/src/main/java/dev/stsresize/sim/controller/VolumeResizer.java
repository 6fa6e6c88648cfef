package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.admission.Quantities;
import dev.stsresize.sim.store.StoreEvent;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The expand controller (pkg/controller/volume/expand/expand_controller.go), which only announces
 * {@code ExternalExpanding} for CSI volumes, and the CSI external-resizer (kubernetes-csi/external-resizer,
 * pkg/controller/expand_and_recover.go) chosen per StorageClass: {@code online} and {@code offline}
 * mark allocatedResources and {@code ControllerResizeInProgress} with condition {@code Resizing},
 * grow the PV, then leave the claim at {@code NodeResizePending} with condition
 * {@code FileSystemResizePending} for the kubelet (which finishes at once for online, only when a pod
 * mounts the claim anew for offline); {@code infeasible} ends at {@code ControllerResizeInfeasible}
 * with a warning; {@code failing} marks the resize in progress and then fails every attempt with a
 * transient error, as external-resizer does when ControllerExpandVolume answers {@code Unavailable}
 * (pkg/controller/expand_and_recover.go: a {@code VolumeResizing} event, the RPC, a
 * {@code VolumeResizeFailed} warning; the status stays {@code ControllerResizeInProgress}, and
 * pkg/controller/controller.go's {@code syncPVCs} puts the claim back with {@code AddRateLimited}, an
 * exponential backoff from {@code --retry-interval-start} to {@code --retry-interval-max}, 5 minutes);
 * {@code none} never changes anything — what the reference saw with no resizer, and
 * what a class gets whose CSI driver has no CSIDriver object ({@link Context#resizerOf}).
 */
final class VolumeResizer extends Controller {
    static final String FS_PENDING_MESSAGE = "Waiting for user to (re-)start a pod to finish file system resize of volume on node.";
    private final Api resizer;
    private final Pacer pacer = new Pacer();
    private final Set<String> announced = ConcurrentHashMap.newKeySet();
    /** Failed attempts per claim UID and request, for the workqueue's exponential backoff. */
    private final java.util.Map<String, Integer> failures = new ConcurrentHashMap<>();
    /** external-resizer's default {@code --retry-interval-max}. */
    static final long RETRY_MAX_MILLIS = 5 * 60 * 1000;

    VolumeResizer(Context ctx) {
        super(ctx);
        this.resizer = ctx.api("csi-resizer");
    }

    @Override
    String name() {
        return "volume-resizer";
    }

    @Override
    String component() {
        return ControllerManager.CSI_RESIZER;
    }

    @Override
    List<Key> keysFor(StoreEvent e) {
        if (e.resource().equals(ctx.kinds().claims()) && e.type() != StoreEvent.Type.DELETED) {
            return List.of(new Key(e.namespace(), e.name()));
        }
        if (e.resource().equals(ctx.kinds().csiDrivers()) && e.type() == StoreEvent.Type.ADDED) {
            // a driver deployed now: its external-resizer starts and lists every claim (the informer's initial list)
            return initialKeys();
        }
        return List.of();
    }

    @Override
    List<Key> initialKeys() {
        return resizer.list(ctx.kinds().claims(), "").stream().map(c -> new Key(ObjectMeta.ns(c), ObjectMeta.name(c))).toList();
    }

    @Override
    void sync(Key key) {
        ObjectNode claim = resizer.get(ctx.kinds().claims(), key.namespace(), key.name());
        if (claim == null || ObjectMeta.deleting(claim) || !"Bound".equals(claim.path("status").path("phase").asText())) {
            return;
        }
        String request = claim.path("spec").path("resources").path("requests").path("storage").asText("");
        String capacity = claim.path("status").path("capacity").path("storage").asText("");
        if (request.isEmpty() || capacity.isEmpty() || Quantities.compare(request, capacity) <= 0) {
            return;
        }
        String uid = ObjectMeta.uid(claim);
        if (announced.add(uid + "/" + request)) {
            ctx.events().normal("volume_expand", claim, "ExternalExpanding", "waiting for an external controller to expand this PVC");
        }
        String mode = ctx.resizerOf(claim);
        String allocated = claim.path("status").path("allocatedResources").path("storage").asText("");
        String state = claim.path("status").path("allocatedResourceStatuses").path("storage").asText("");
        String driver = ctx.storageClassOf(claim) == null ? "" : ctx.storageClassOf(claim).path("provisioner").asText();
        String volume = claim.path("spec").path("volumeName").asText();
        switch (mode) {
            case "online", "offline" -> {
                boolean inProgress = "ControllerResizeInProgress".equals(state) && request.equals(allocated);
                if (!inProgress && !(NodeExpansion.pending(claim) && request.equals(allocated))) {
                    markInProgress(claim, request, driver, volume);
                } else if (inProgress && pacer.due(this, key, uid + "/" + request, ctx.timings().resizeMillis())) {
                    expandVolume(claim, request, volume);
                }
            }
            case "infeasible" -> {
                if (!("ControllerResizeInfeasible".equals(state) && request.equals(allocated))
                        && pacer.due(this, key, uid + "/" + request, ctx.timings().resizeMillis())) {
                    infeasible(claim, request, driver, volume);
                }
            }
            case "failing" -> {
                // a request lowered while the controller resize is in progress after a transient (not final) error
                // does not change what is attempted: expand_and_recover.go keeps newSize = allocatedSize
                boolean inProgress = "ControllerResizeInProgress".equals(state) && !allocated.isEmpty();
                String size = inProgress && Quantities.compare(request, allocated) < 0 ? allocated : request;
                if (!(inProgress && size.equals(allocated))) {
                    markInProgress(claim, request, driver, volume);
                    failures.put(uid + "/" + request, 0);
                    size = request;
                }
                String attempt = uid + "/" + size;
                int failed = failures.getOrDefault(attempt, 0);
                if (pacer.due(this, key, attempt + "/" + failed, backoff(failed))) {
                    failAttempt(claim, size, driver, volume);
                    failures.put(attempt, failed + 1);
                    requeue(key, 1); // the next attempt is paced from now
                }
            }
            default -> { } // none: no resizer; only the expand controller's event above
        }
    }

    private void markInProgress(ObjectNode claim, String request, String driver, String volume) {
        ObjectNode st = claim.withObject("/status");
        st.withObject("/allocatedResources").put("storage", request);
        st.withObject("/allocatedResourceStatuses").put("storage", "ControllerResizeInProgress");
        NodeExpansion.removeConditions(st, "Resizing", "FileSystemResizePending", "ControllerResizeError");
        condition(st, "Resizing", null);
        resizer.updateStatus(ctx.kinds().claims(), claim);
        ctx.events().normal("external-resizer " + driver, claim, "Resizing", "External resizer is resizing volume " + volume);
    }

    /** ControllerExpandVolume succeeded: the PV grows; the file system waits for the kubelet. */
    private void expandVolume(ObjectNode claim, String request, String volume) {
        ObjectNode pv = resizer.get(ctx.kinds().volumes(), "", volume);
        if (pv != null) {
            pv.withObject("/spec").withObject("/capacity").put("storage", request);
            resizer.update(ctx.kinds().volumes(), pv);
        }
        ObjectNode st = claim.withObject("/status");
        st.withObject("/allocatedResourceStatuses").put("storage", NodeExpansion.PENDING);
        NodeExpansion.removeConditions(st, "Resizing");
        condition(st, "FileSystemResizePending", FS_PENDING_MESSAGE);
        resizer.updateStatus(ctx.kinds().claims(), claim);
        String driver = ctx.storageClassOf(claim) == null ? "" : ctx.storageClassOf(claim).path("provisioner").asText();
        ctx.events().normal("external-resizer " + driver, claim, "FileSystemResizeRequired", "Require file system resize of volume on node");
    }

    private void infeasible(ObjectNode claim, String request, String driver, String volume) {
        String error = "resize volume \"" + volume + "\" by resizer \"" + driver + "\" failed: rpc error: code = OutOfRange desc = "
                + "requested size " + request + " exceeds the largest volume this driver can provision";
        ObjectNode st = claim.withObject("/status");
        st.withObject("/allocatedResources").put("storage", request);
        st.withObject("/allocatedResourceStatuses").put("storage", "ControllerResizeInfeasible");
        NodeExpansion.removeConditions(st, "Resizing", "ControllerResizeError");
        condition(st, "ControllerResizeError", error);
        resizer.updateStatus(ctx.kinds().claims(), claim);
        ctx.events().warning("external-resizer " + driver, claim, "VolumeResizeFailed", error);
    }

    /** The workqueue's exponential failure backoff (client-go util/workqueue ItemExponentialFailureRateLimiter). */
    private long backoff(int failed) {
        long base = Math.max(1, ctx.timings().resizeMillis());
        return failed >= 30 ? RETRY_MAX_MILLIS : Math.min(RETRY_MAX_MILLIS, base << failed);
    }

    /**
     * One attempt that fails with a transient error: the claim is not written; only the two events say it. The
     * driver's words are the class's annotation {@value ControllerManager#RESIZER_ERROR_ANNOTATION} where it
     * has one (a real driver's known failure, rehearsed), after callResizeOnPlugin's own prefix.
     */
    private void failAttempt(ObjectNode claim, String request, String driver, String volume) {
        ObjectNode sc = ctx.storageClassOf(claim);
        String words = sc == null ? "" : sc.path("metadata").path("annotations").path(ControllerManager.RESIZER_ERROR_ANNOTATION).asText("");
        ctx.events().normal("external-resizer " + driver, claim, "Resizing", "External resizer is resizing volume " + volume);
        ctx.events().warning("external-resizer " + driver, claim, "VolumeResizeFailed", "resize volume \"" + volume + "\" by resizer \""
                + driver + "\" failed: " + (words.isEmpty() ? "rpc error: code = Unavailable desc = the storage backend did not answer"
                + " the expansion of " + request : words));
    }

    private void condition(ObjectNode status, String type, String message) {
        ArrayNode conds = status.withArray("conditions");
        ObjectNode c = conds.addObject().put("type", type).put("status", "True").putNull("lastProbeTime")
                .put("lastTransitionTime", resizer.store().now());
        if (message != null) {
            c.put("message", message);
        }
    }
}
