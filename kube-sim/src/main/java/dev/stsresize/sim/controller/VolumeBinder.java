package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.admission.Quantities;
import dev.stsresize.sim.store.StoreEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The PV controller (pkg/controller/volume/persistentvolume/pv_controller.go) and a CSI
 * external-provisioner. A claim is unbound until it carries {@code pv.kubernetes.io/bind-completed}
 * (syncClaim → syncUnboundClaim / syncBoundClaim). An unbound claim without {@code spec.volumeName}
 * takes what findMatchingVolume (component-helpers storage/volume/pv_helpers.go, through index.go's
 * access-mode groups) finds: a PV pre-bound to it by {@code claimRef} {namespace, name} (whatever its class
 * or phase), else the smallest Available PV of its class that fits; else a PV is provisioned (a class whose
 * provisioner is {@code kubernetes.io/no-provisioner} gets {@code ProvisioningFailed} instead); a
 * {@code WaitForFirstConsumer} claim waits until the scheduler selects a node. A claim that names its PV
 * ({@code spec.volumeName}) binds to it when the PV has no claimRef or a claimRef naming this claim without
 * another uid (IsVolumeBoundToClaim); a PV claimed by another claim leaves it Pending with FailedBinding.
 * A PV whose claim is gone (or was re-created with another uid) goes Released, keeping its claimRef: under
 * Retain it stays so until someone re-points or clears the claimRef (syncVolume: a claimRef without uid is
 * Available for that claim only, none at all Available for any claim of its class); under Delete it is deleted.
 * The pvc-protection finalizer is {@link ClaimProtection}'s.
 */
final class VolumeBinder extends Controller {
    static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";
    static final String BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
    static final String BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
    private static final String CLAIM = "pvc/";
    private static final String VOLUME = "pv/";
    private final Api api;
    private final Api provisioner;
    private final Pacer pacer = new Pacer();
    private final Set<String> told = ConcurrentHashMap.newKeySet();

    VolumeBinder(Context ctx) {
        super(ctx);
        this.api = ctx.api("kube-controller-manager");
        this.provisioner = ctx.api("csi-provisioner");
    }

    @Override
    String name() {
        return "persistentvolume-controller";
    }

    @Override
    List<Key> keysFor(StoreEvent e) {
        Kinds k = ctx.kinds();
        List<Key> keys = new ArrayList<>();
        JsonNode o = e.object();
        if (e.resource().equals(k.claims())) {
            keys.add(new Key(e.namespace(), CLAIM + e.name()));
            String volume = o.path("spec").path("volumeName").asText("");
            if (e.type() == StoreEvent.Type.DELETED && !volume.isEmpty()) {
                keys.add(new Key("", VOLUME + volume));
            }
            if (e.type() == StoreEvent.Type.DELETED) {
                // a PV that was pre-bound to this claim, or bound to it (syncVolume's claim lookup by name)
                api.list(k.volumes(), "").stream().filter(v -> refersTo(v.path("spec").path("claimRef"), e.namespace(), e.name()))
                        .forEach(v -> keys.add(new Key("", VOLUME + ObjectMeta.name(v))));
            }
        } else if (e.resource().equals(k.volumes())) {
            keys.add(new Key("", VOLUME + e.name()));
            JsonNode ref = o.path("spec").path("claimRef");
            if (ref.isMissingNode() || ref.isNull()) {
                pendingClaims().forEach(c -> keys.add(new Key(ObjectMeta.ns(c), CLAIM + ObjectMeta.name(c))));
            } else {
                keys.add(new Key(ref.path("namespace").asText(), CLAIM + ref.path("name").asText()));
            }
            // a claim that named this volume before it existed, or before its claimRef pointed to it
            api.list(ctx.kinds().claims(), "").stream().filter(c -> e.name().equals(c.path("spec").path("volumeName").asText())
                    && !"Bound".equals(c.path("status").path("phase").asText())).forEach(c -> keys.add(new Key(ObjectMeta.ns(c), CLAIM + ObjectMeta.name(c))));
        }
        return keys;
    }

    private static boolean refersTo(JsonNode ref, String namespace, String name) {
        return ref.path("namespace").asText().equals(namespace) && ref.path("name").asText().equals(name);
    }

    @Override
    List<Key> initialKeys() {
        List<Key> keys = new ArrayList<>();
        api.list(ctx.kinds().claims(), "").forEach(c -> keys.add(new Key(ObjectMeta.ns(c), CLAIM + ObjectMeta.name(c))));
        api.list(ctx.kinds().volumes(), "").forEach(v -> keys.add(new Key("", VOLUME + ObjectMeta.name(v))));
        return keys;
    }

    @Override
    void sync(Key key) {
        if (key.name().startsWith(CLAIM)) {
            ObjectNode claim = api.get(ctx.kinds().claims(), key.namespace(), key.name().substring(CLAIM.length()));
            if (claim != null) {
                syncClaim(key, claim);
            }
        } else {
            ObjectNode pv = api.get(ctx.kinds().volumes(), "", key.name().substring(VOLUME.length()));
            if (pv != null) {
                syncVolume(pv);
            }
        }
    }

    private List<ObjectNode> pendingClaims() {
        return api.list(ctx.kinds().claims(), "").stream()
                .filter(c -> c.path("spec").path("volumeName").asText("").isEmpty() && !ObjectMeta.deleting(c)).toList();
    }

    /**
     * syncClaim: by AnnBindCompleted. A claim loaded Bound without the annotation (a snapshot written by hand) is
     * left as given, where a real controller would add the annotation.
     */
    private void syncClaim(Key key, ObjectNode claim) {
        if (claim.path("metadata").path("annotations").has(BIND_COMPLETED)) {
            syncBoundClaim(key, claim);
        } else if (!"Bound".equals(claim.path("status").path("phase").asText())) {
            syncUnboundClaim(key, claim);
        }
    }

    /** syncUnboundClaim: the claim did not name a PV (the controller finds or provisions one), or did. */
    private void syncUnboundClaim(Key key, ObjectNode claim) {
        String requested = claim.path("spec").path("volumeName").asText("");
        if (!requested.isEmpty()) {
            bindRequestedVolume(key, claim, requested);
            return;
        }
        String uid = ObjectMeta.uid(claim);
        ObjectNode sc = ctx.storageClassOf(claim);
        boolean delayed = sc != null && "WaitForFirstConsumer".equals(sc.path("volumeBindingMode").asText("Immediate"))
                && !claim.path("metadata").path("annotations").has(Kubelet.SELECTED_NODE);
        ObjectNode pv = findMatchingVolume(claim, delayed);
        if (pv != null) {
            bind(key, claim, pv);
            return;
        }
        String cls = claim.path("spec").path("storageClassName").asText("");
        if (delayed) {
            once(uid + "/wffc", () -> ctx.events().normal(name(), claim, "WaitForFirstConsumer",
                    "waiting for first consumer to be created before binding"));
            return;
        }
        if (cls.isEmpty()) {
            once(uid + "/nc", () -> ctx.events().normal(name(), claim, "FailedBinding",
                    "no persistent volumes available for this claim and no storage class is set"));
            return;
        }
        if (sc == null) {
            once(uid + "/nf", () -> ctx.events().warning(name(), claim, "ProvisioningFailed",
                    "storageclass.storage.k8s.io \"" + cls + "\" not found"));
            return;
        }
        String driver = sc.path("provisioner").asText();
        if (driver.equals(NO_PROVISIONER)) {
            once(uid + "/np", () -> ctx.events().warning(name(), claim, "ProvisioningFailed",
                    "no volume plugin matched name: " + NO_PROVISIONER));
            return;
        }
        once(uid + "/ext", () -> ctx.events().normal(name(), claim, "ExternalProvisioning", "Waiting for a volume to be created "
                + "either by the external provisioner '" + driver + "' or manually by the system administrator. If volume "
                + "creation is delayed, please verify that the provisioner is running and correctly registered."));
        if (pacer.due(this, key, uid + "/provision", ctx.timings().provisionMillis())) {
            bind(key, claim, provision(claim, sc));
        }
    }

    /**
     * syncUnboundClaim with spec.volumeName set (pv_controller.go, "User asked for a specific PV"): a
     * missing PV leaves the claim Pending; a PV without claimRef binds if checkVolumeSatisfyClaim passes,
     * else a VolumeMismatch warning; a PV whose claimRef names this claim (IsVolumeBoundToClaim: no uid, or
     * this claim's) binds without that check; a PV claimed by another claim leaves it Pending with FailedBinding.
     */
    private void bindRequestedVolume(Key key, ObjectNode claim, String volume) {
        ObjectNode pv = api.get(ctx.kinds().volumes(), "", volume);
        if (pv == null) {
            return;
        }
        JsonNode ref = pv.path("spec").path("claimRef");
        if (ref.isMissingNode() || ref.isNull()) {
            String mismatch = mismatch(pv, claim);
            if (mismatch != null) {
                once(ObjectMeta.uid(claim) + "/mismatch/" + volume, () -> ctx.events().warning(name(), claim, "VolumeMismatch",
                        "Cannot bind to requested volume \"" + volume + "\": " + mismatch));
                return;
            }
            bind(key, claim, pv);
        } else if (isVolumeBoundToClaim(pv, claim)) {
            bind(key, claim, pv);
        } else {
            once(ObjectMeta.uid(claim) + "/taken/" + volume + "/" + ref.path("uid").asText(), () -> ctx.events().warning(name(), claim,
                    "FailedBinding", "volume \"" + volume + "\" already bound to a different claim."));
        }
    }

    /**
     * syncBoundClaim: the claim's PV is gone or lost its claimRef to another claim (Lost, terminal), has no
     * claimRef (bound again), or is this claim's (the binding is finished: the claim's status, if its write
     * was lost).
     */
    private void syncBoundClaim(Key key, ObjectNode claim) {
        String volume = claim.path("spec").path("volumeName").asText("");
        if (volume.isEmpty()) {
            lost(claim, "ClaimLost", "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!");
            return;
        }
        ObjectNode pv = api.get(ctx.kinds().volumes(), "", volume);
        if (pv == null) {
            lost(claim, "ClaimLost", "Bound claim has lost its PersistentVolume. Data on the volume is lost!");
            return;
        }
        JsonNode ref = pv.path("spec").path("claimRef");
        if (ref.isMissingNode() || ref.isNull() || ref.path("uid").asText("").equals(ObjectMeta.uid(claim))) {
            bind(key, claim, pv);
        } else {
            lost(claim, "ClaimMisbound", "Two claims are bound to the same volume, this one is bound incorrectly");
        }
    }

    private void lost(ObjectNode claim, String reason, String message) {
        if ("Lost".equals(claim.path("status").path("phase").asText())) {
            return;
        }
        claim.withObject("/status").put("phase", "Lost");
        api.updateStatus(ctx.kinds().claims(), claim);
        ctx.events().warning(name(), claim, reason, message);
    }

    /** checkVolumeSatisfyClaim's refusals, in its order; null when the volume fits. */
    private static String mismatch(ObjectNode pv, ObjectNode claim) {
        String request = claim.path("spec").path("resources").path("requests").path("storage").asText("0");
        String cap = pv.path("spec").path("capacity").path("storage").asText("0");
        if (Quantities.compare(cap, request) < 0) {
            return "requested PV is too small";
        }
        if (!claim.path("spec").path("storageClassName").asText("").equals(pv.path("spec").path("storageClassName").asText(""))) {
            return "storageClassName does not match";
        }
        if (!claim.path("spec").path("volumeMode").asText("Filesystem").equals(pv.path("spec").path("volumeMode").asText("Filesystem"))) {
            return "incompatible volumeMode";
        }
        if (!modesFit(claim, pv)) {
            return "incompatible accessMode";
        }
        return null;
    }

    private void once(String id, Runnable r) {
        if (told.add(id)) {
            r.run();
        }
    }

    /**
     * FindMatchingVolume (component-helpers/storage/volume/pv_helpers.go) over the PVs whose access modes hold the
     * claim's (index.go findByClaim): skip a PV claimed by another claim, too small, of another volumeMode or being
     * deleted; return the first PV pre-bound to this claim; with binding delayed, nothing else; else the smallest
     * Available PV of the claim's class.
     */
    private ObjectNode findMatchingVolume(ObjectNode claim, boolean delayBinding) {
        String cls = claim.path("spec").path("storageClassName").asText("");
        String request = claim.path("spec").path("resources").path("requests").path("storage").asText("0");
        ObjectNode smallest = null;
        for (ObjectNode pv : api.list(ctx.kinds().volumes(), "")) {
            JsonNode ref = pv.path("spec").path("claimRef");
            boolean claimed = !ref.isMissingNode() && !ref.isNull();
            String cap = pv.path("spec").path("capacity").path("storage").asText("0");
            if (!modesFit(claim, pv) || (claimed && !isVolumeBoundToClaim(pv, claim)) || Quantities.compare(cap, request) < 0
                    || !volumeMode(claim).equals(volumeMode(pv)) || ObjectMeta.deleting(pv)) {
                continue;
            }
            if (claimed) {
                return pv;
            }
            if (delayBinding || !"Available".equals(pv.path("status").path("phase").asText())
                    || !cls.equals(pv.path("spec").path("storageClassName").asText(""))) {
                continue;
            }
            if (smallest == null || Quantities.compare(cap, smallest.path("spec").path("capacity").path("storage").asText()) < 0) {
                smallest = pv;
            }
        }
        return smallest;
    }

    /** storagehelpers.IsVolumeBoundToClaim: the claimRef names this claim, and has no uid or this claim's. */
    static boolean isVolumeBoundToClaim(JsonNode pv, JsonNode claim) {
        JsonNode ref = pv.path("spec").path("claimRef");
        if (ref.isMissingNode() || ref.isNull() || !refersTo(ref, ObjectMeta.ns(claim), ObjectMeta.name(claim))) {
            return false;
        }
        String uid = ref.path("uid").asText("");
        return uid.isEmpty() || uid.equals(ObjectMeta.uid(claim));
    }

    private static String volumeMode(JsonNode o) {
        return o.path("spec").path("volumeMode").asText("Filesystem");
    }

    private static boolean modesFit(JsonNode claim, JsonNode pv) {
        List<String> offered = new ArrayList<>();
        pv.path("spec").path("accessModes").forEach(m -> offered.add(m.asText()));
        for (JsonNode m : claim.path("spec").path("accessModes")) {
            if (!offered.contains(m.asText())) {
                return false;
            }
        }
        return true;
    }

    private ObjectNode provision(ObjectNode claim, ObjectNode sc) {
        String driver = sc.path("provisioner").asText();
        ctx.events().normal(driver, claim, "Provisioning", "External provisioner is provisioning volume for claim \""
                + ObjectMeta.ns(claim) + "/" + ObjectMeta.name(claim) + "\"");
        String name = "pvc-" + ObjectMeta.uid(claim);
        ObjectNode pv = ObjectMeta.NODES.objectNode();
        pv.put("apiVersion", "v1");
        pv.put("kind", "PersistentVolume");
        ObjectNode meta = pv.putObject("metadata").put("name", name);
        meta.putObject("annotations").put("pv.kubernetes.io/provisioned-by", driver)
                .put("volume.kubernetes.io/provisioner-deletion-secret-name", "")
                .put("volume.kubernetes.io/provisioner-deletion-secret-namespace", "");
        meta.putArray("finalizers").add("kubernetes.io/pv-protection");
        ObjectNode spec = pv.putObject("spec");
        spec.set("accessModes", claim.path("spec").path("accessModes").deepCopy());
        spec.putObject("capacity").put("storage", claim.path("spec").path("resources").path("requests").path("storage").asText());
        spec.putObject("claimRef").put("apiVersion", "v1").put("kind", "PersistentVolumeClaim")
                .put("namespace", ObjectMeta.ns(claim)).put("name", ObjectMeta.name(claim)).put("uid", ObjectMeta.uid(claim))
                .put("resourceVersion", claim.path("metadata").path("resourceVersion").asText());
        spec.putObject("csi").put("driver", driver).put("volumeHandle", "vol-" + ObjectMeta.uid(claim).substring(0, 8));
        spec.put("persistentVolumeReclaimPolicy", sc.path("reclaimPolicy").asText("Delete"));
        spec.put("storageClassName", ObjectMeta.name(sc));
        spec.put("volumeMode", claim.path("spec").path("volumeMode").asText("Filesystem"));
        ObjectNode created = provisioner.create(ctx.kinds().volumes(), pv);
        ctx.events().normal(driver, claim, "ProvisioningSucceeded", "Successfully provisioned volume " + name);
        return created;
    }

    /**
     * bind: bindVolumeToClaim (the claimRef with this claim's uid and resourceVersion; AnnBoundByController when the PV
     * was not pre-bound to it), the PV's phase, bindClaimToVolume (volumeName, AnnBindCompleted; AnnBoundByController
     * when the controller chose the PV), then the claim's status. Each write only when something changes, as the Go
     * helpers do, so a bound pair synced again writes nothing. The claim's status write of a claim the user pre-bound
     * comes {@link Timings#claimBoundLagMillis} later: its PV shows Bound first.
     */
    private void bind(Key key, ObjectNode claim, ObjectNode pv) {
        String claimUid = ObjectMeta.uid(claim);
        JsonNode ref = pv.path("spec").path("claimRef");
        if (!isVolumeBoundToClaim(pv, claim) || !ref.path("uid").asText("").equals(claimUid)) {
            boolean preBound = isVolumeBoundToClaim(pv, claim);
            pv.withObject("/spec").putObject("claimRef").put("apiVersion", "v1").put("kind", "PersistentVolumeClaim")
                    .put("namespace", ObjectMeta.ns(claim)).put("name", ObjectMeta.name(claim)).put("uid", claimUid)
                    .put("resourceVersion", claim.path("metadata").path("resourceVersion").asText());
            if (!preBound) {
                pv.withObject("/metadata").withObject("annotations").put(BOUND_BY_CONTROLLER, "yes");
            }
            pv = api.update(ctx.kinds().volumes(), pv);
        }
        if (!"Bound".equals(pv.path("status").path("phase").asText())) {
            pv.withObject("/status").put("phase", "Bound");
            pv = api.updateStatus(ctx.kinds().volumes(), pv);
        }
        ObjectNode ann = claim.withObject("/metadata").withObject("annotations");
        boolean dirty = false;
        if (!ObjectMeta.name(pv).equals(claim.path("spec").path("volumeName").asText(""))) {
            claim.withObject("/spec").put("volumeName", ObjectMeta.name(pv));
            if (!ann.has(BOUND_BY_CONTROLLER)) {
                ann.put(BOUND_BY_CONTROLLER, "yes");
            }
            dirty = true;
        }
        if (!ann.has(BIND_COMPLETED)) {
            ann.put(BIND_COMPLETED, "yes");
            dirty = true;
        }
        String driver = pv.path("metadata").path("annotations").path("pv.kubernetes.io/provisioned-by").asText("");
        if (!driver.isEmpty() && !ann.has("volume.kubernetes.io/storage-provisioner")) {
            ann.put("volume.beta.kubernetes.io/storage-provisioner", driver);
            ann.put("volume.kubernetes.io/storage-provisioner", driver);
            dirty = true;
        }
        if (dirty) {
            claim = api.update(ctx.kinds().claims(), claim);
        }
        // updateClaimStatus: the phase, the access modes, and the capacity only when the claim becomes Bound (a
        // claim's capacity behind its PV's is a file system not grown yet)
        JsonNode st = claim.path("status");
        boolean becoming = !"Bound".equals(st.path("phase").asText());
        if (!becoming && st.path("accessModes").equals(pv.path("spec").path("accessModes"))) {
            return;
        }
        boolean userPreBound = !claim.path("metadata").path("annotations").has(BOUND_BY_CONTROLLER);
        if (becoming && userPreBound && !pacer.due(this, key, claimUid + "/status", ctx.timings().claimBoundLagMillis())) {
            return; // the status write met a 409; the next resync finishes it
        }
        ObjectNode status = claim.withObject("/status");
        status.put("phase", "Bound");
        status.set("accessModes", pv.path("spec").path("accessModes").deepCopy());
        if (becoming) {
            status.set("capacity", pv.path("spec").path("capacity").deepCopy());
        }
        api.updateStatus(ctx.kinds().claims(), claim);
    }

    /**
     * syncVolume: a PV without claimRef, or pre-bound by a claimRef without uid, is Available; one whose claim is gone
     * (none by that name, or one with another uid) is Released and reclaimed (Delete: deleted; Retain: kept, its
     * claimRef untouched); one bound to a claim that names it is Bound; one whose claim is bound elsewhere is unbound
     * (unbindVolume: the controller's claimRef removed, a user's pre-binding kept without its uid).
     */
    private void syncVolume(ObjectNode pv) {
        String phase = pv.path("status").path("phase").asText("Pending");
        if (ObjectMeta.deleting(pv)) {
            List<String> fs = ObjectMeta.finalizers(pv);
            if (!phase.equals("Bound") && fs.remove("kubernetes.io/pv-protection")) {
                ObjectMeta.setFinalizers(pv, fs);
                api.update(ctx.kinds().volumes(), pv);
            }
            return;
        }
        JsonNode ref = pv.path("spec").path("claimRef");
        if (ref.isMissingNode() || ref.isNull() || ref.path("uid").asText("").isEmpty()) {
            // unused, or reserved for a claim by name that the claim's sync binds
            setPhase(pv, "Available");
            return;
        }
        ObjectNode claim = api.get(ctx.kinds().claims(), ref.path("namespace").asText(), ref.path("name").asText());
        if (claim == null || !ObjectMeta.uid(claim).equals(ref.path("uid").asText())) {
            if (!phase.equals("Released") && !phase.equals("Failed")) {
                pv = setPhase(pv, "Released");
            }
            // reclaimVolume: Retain keeps the volume and its claimRef as they are
            if ("Delete".equals(pv.path("spec").path("persistentVolumeReclaimPolicy").asText())) {
                provisioner.delete(ctx.kinds().volumes(), pv, null);
            }
            return;
        }
        String claimsVolume = claim.path("spec").path("volumeName").asText("");
        if (claimsVolume.isEmpty()) {
            requeue(new Key(ObjectMeta.ns(claim), CLAIM + ObjectMeta.name(claim)), 1);
        } else if (claimsVolume.equals(ObjectMeta.name(pv))) {
            setPhase(pv, "Bound");
        } else if (pv.path("metadata").path("annotations").has("pv.kubernetes.io/provisioned-by")
                && "Delete".equals(pv.path("spec").path("persistentVolumeReclaimPolicy").asText())) {
            provisioner.delete(ctx.kinds().volumes(), pv, null); // provisioned for a claim that got another volume
        } else {
            unbindVolume(pv);
        }
    }

    private ObjectNode setPhase(ObjectNode pv, String phase) {
        if (phase.equals(pv.path("status").path("phase").asText())) {
            return pv;
        }
        pv.withObject("/status").put("phase", phase);
        return api.updateStatus(ctx.kinds().volumes(), pv);
    }

    /** unbindVolume: a binding the controller made goes; a user's pre-binding stays, without the claim's uid. */
    private void unbindVolume(ObjectNode pv) {
        ObjectNode annotations = pv.withObject("/metadata").withObject("annotations");
        if (annotations.has(BOUND_BY_CONTROLLER)) {
            ((ObjectNode) pv.get("spec")).remove("claimRef");
            annotations.remove(BOUND_BY_CONTROLLER);
        } else {
            ObjectNode ref = (ObjectNode) pv.path("spec").path("claimRef");
            ref.remove("uid");
            ref.remove("resourceVersion");
        }
        pv = api.update(ctx.kinds().volumes(), pv);
        setPhase(pv, "Available");
    }
}
