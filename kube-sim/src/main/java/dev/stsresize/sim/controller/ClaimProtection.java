package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.StoreEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The pvc-protection controller (pkg/controller/volume/pvcprotection/pvc_protection_controller.go): a claim being
 * deleted keeps its finalizer {@code kubernetes.io/pvc-protection} while a pod of its namespace uses it, and loses it
 * once none does. podUsesPVC, the same from v1.24 to v1.32: a pod uses a claim when it is scheduled
 * ({@code spec.nodeName} set) and one of its volumes names the claim, whatever its phase: a Succeeded or Failed pod
 * holds the claim until the pod is deleted. (podIsShutDown, a deleted pod with a zero grace period, frees only generic
 * ephemeral volumes; {@code IsPodTerminated} only decides which pod events make the controller look again:
 * enqueuePVCs.) A pod not yet scheduled does not hold it.
 */
final class ClaimProtection extends Controller {
    private final Api api;

    ClaimProtection(Context ctx) {
        super(ctx);
        this.api = ctx.api("kube-controller-manager");
    }

    @Override
    String name() {
        return "pvc-protection-controller";
    }

    @Override
    List<Key> keysFor(StoreEvent e) {
        Kinds k = ctx.kinds();
        if (e.resource().equals(k.claims())) {
            return e.type() != StoreEvent.Type.DELETED && deletionCandidate(e.object()) ? List.of(new Key(e.namespace(), e.name())) : List.of();
        }
        if (e.resource().equals(k.pods())) {
            JsonNode pod = e.object();
            String phase = pod.path("status").path("phase").asText("");
            boolean terminated = phase.equals("Succeeded") || phase.equals("Failed");
            // enqueuePVCs: only pods that can let a claim go
            if (e.type() == StoreEvent.Type.DELETED || terminated || pod.path("spec").path("nodeName").asText("").isEmpty()) {
                List<Key> keys = new ArrayList<>();
                Kubelet.claimNames(pod).forEach(c -> keys.add(new Key(e.namespace(), c)));
                return keys;
            }
        }
        return List.of();
    }

    @Override
    List<Key> initialKeys() {
        return api.list(ctx.kinds().claims(), "").stream().filter(ClaimProtection::deletionCandidate)
                .map(c -> new Key(ObjectMeta.ns(c), ObjectMeta.name(c))).toList();
    }

    /** protectionutil.IsDeletionCandidate. */
    private static boolean deletionCandidate(JsonNode claim) {
        return ObjectMeta.deleting(claim) && ObjectMeta.finalizers(claim).contains(StatefulSetPods.CLAIM_PROTECTION);
    }

    @Override
    void sync(Key key) {
        ObjectNode claim = api.get(ctx.kinds().claims(), key.namespace(), key.name());
        if (claim == null || !deletionCandidate(claim)) {
            return;
        }
        for (ObjectNode pod : api.list(ctx.kinds().pods(), key.namespace())) {
            if (podUsesClaim(pod, key.name())) {
                return; // that pod's deletion, or its end, brings the claim back here
            }
        }
        List<String> fs = ObjectMeta.finalizers(claim);
        fs.remove(StatefulSetPods.CLAIM_PROTECTION);
        ObjectMeta.setFinalizers(claim, fs);
        api.update(ctx.kinds().claims(), claim);
    }

    /** podUsesPVC for a persistentVolumeClaim volume. */
    static boolean podUsesClaim(JsonNode pod, String claim) {
        return !pod.path("spec").path("nodeName").asText("").isEmpty() && Kubelet.claimNames(pod).contains(claim);
    }
}
