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
 * The PV controller (pkg/controller/volume/persistentvolume/pv_controller.go), a CSI
 * external-provisioner and the pvc/pv-protection controllers: a pending claim binds to the smallest
 * Available PV of its class that fits, else gets a PV provisioned (a class whose provisioner is
 * {@code kubernetes.io/no-provisioner} gets {@code ProvisioningFailed} instead); a
 * {@code WaitForFirstConsumer} claim waits until the scheduler selects a node; a deleted claim's
 * finalizer goes once no pod uses it, and its PV is released (and deleted under reclaimPolicy Delete).
 */
final class VolumeBinder extends Controller {
    static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";
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
        } else if (e.resource().equals(k.volumes())) {
            keys.add(new Key("", VOLUME + e.name()));
            JsonNode ref = o.path("spec").path("claimRef");
            if (ref.isMissingNode()) {
                pendingClaims().forEach(c -> keys.add(new Key(ObjectMeta.ns(c), CLAIM + ObjectMeta.name(c))));
            } else if (ref.path("uid").asText("").isEmpty()) {
                keys.add(new Key(ref.path("namespace").asText(), CLAIM + ref.path("name").asText()));
            }
            // a claim that named this volume before it existed
            api.list(ctx.kinds().claims(), "").stream().filter(c -> e.name().equals(c.path("spec").path("volumeName").asText())
                    && !"Bound".equals(c.path("status").path("phase").asText())).forEach(c -> keys.add(new Key(ObjectMeta.ns(c), CLAIM + ObjectMeta.name(c))));
        } else if (e.resource().equals(k.pods()) && e.type() == StoreEvent.Type.DELETED) {
            Kubelet.claimNames(o).forEach(c -> keys.add(new Key(e.namespace(), CLAIM + c)));
        }
        return keys;
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

    private void syncClaim(Key key, ObjectNode claim) {
        if (ObjectMeta.deleting(claim)) {
            releaseProtection(claim);
            return;
        }
        String requested = claim.path("spec").path("volumeName").asText("");
        if (!requested.isEmpty()) {
            if (!"Bound".equals(claim.path("status").path("phase").asText("Pending"))) {
                bindRequestedVolume(claim, requested);
            }
            return;
        }
        ObjectNode sc = ctx.storageClassOf(claim);
        String uid = ObjectMeta.uid(claim);
        if (sc == null) {
            String cls = claim.path("spec").path("storageClassName").asText("");
            if (cls.isEmpty()) {
                once(uid + "/nc", () -> ctx.events().normal(name(), claim, "FailedBinding",
                        "no persistent volumes available for this claim and no storage class is set"));
            } else {
                once(uid + "/nf", () -> ctx.events().warning(name(), claim, "ProvisioningFailed",
                        "storageclass.storage.k8s.io \"" + cls + "\" not found"));
            }
            return;
        }
        boolean delayed = "WaitForFirstConsumer".equals(sc.path("volumeBindingMode").asText("Immediate"));
        if (delayed && !claim.path("metadata").path("annotations").has(Kubelet.SELECTED_NODE)) {
            once(uid + "/wffc", () -> ctx.events().normal(name(), claim, "WaitForFirstConsumer",
                    "waiting for first consumer to be created before binding"));
            return;
        }
        ObjectNode pv = findVolume(claim);
        if (pv != null) {
            bind(claim, pv);
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
            bind(claim, provision(claim, sc));
        }
    }

    /**
     * syncUnboundClaim with spec.volumeName set (pv_controller.go, "User asked for a specific PV"): a
     * missing PV leaves the claim Pending; a PV that is unclaimed, or pre-bound to this claim by name
     * (claimRef without uid, as kubectl creates a static pair), binds if checkVolumeSatisfyClaim passes,
     * else a VolumeMismatch warning; a PV claimed by another claim leaves it Pending.
     */
    private void bindRequestedVolume(ObjectNode claim, String volume) {
        ObjectNode pv = api.get(ctx.kinds().volumes(), "", volume);
        if (pv == null || ObjectMeta.deleting(pv)) {
            return;
        }
        JsonNode ref = pv.path("spec").path("claimRef");
        boolean mine = ref.isMissingNode() || (ref.path("name").asText().equals(ObjectMeta.name(claim))
                && ref.path("namespace").asText().equals(ObjectMeta.ns(claim))
                && (ref.path("uid").asText("").isEmpty() || ref.path("uid").asText().equals(ObjectMeta.uid(claim))));
        if (!mine) {
            return;
        }
        String mismatch = mismatch(pv, claim);
        if (mismatch != null) {
            once(ObjectMeta.uid(claim) + "/mismatch/" + volume, () -> ctx.events().warning(name(), claim, "VolumeMismatch",
                    "Cannot bind to requested volume \"" + volume + "\": " + mismatch));
            return;
        }
        bind(claim, pv, false);
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

    private ObjectNode findVolume(ObjectNode claim) {
        String cls = claim.path("spec").path("storageClassName").asText("");
        String request = claim.path("spec").path("resources").path("requests").path("storage").asText("0");
        ObjectNode best = null;
        for (ObjectNode pv : api.list(ctx.kinds().volumes(), "")) {
            JsonNode ref = pv.path("spec").path("claimRef");
            boolean free = ref.isMissingNode() || (ref.path("name").asText().equals(ObjectMeta.name(claim))
                    && ref.path("namespace").asText().equals(ObjectMeta.ns(claim)) && ref.path("uid").asText("").isEmpty());
            String cap = pv.path("spec").path("capacity").path("storage").asText("0");
            if (free && !ObjectMeta.deleting(pv) && cls.equals(pv.path("spec").path("storageClassName").asText(""))
                    && Quantities.compare(cap, request) >= 0 && modesFit(claim, pv)
                    && (best == null || Quantities.compare(cap, best.path("spec").path("capacity").path("storage").asText()) < 0)) {
                best = pv;
            }
        }
        return best;
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

    private void bind(ObjectNode claim, ObjectNode pv) {
        bind(claim, pv, true);
    }

    /**
     * bindVolumeToClaim, then bindClaimToVolume, then the claim's status; {@code controllerChose}: the
     * claim named no volume, so it gets AnnBoundByController (a user's pre-bound claim does not).
     */
    private void bind(ObjectNode claim, ObjectNode pv, boolean controllerChose) {
        pv.withObject("/spec").putObject("claimRef").put("apiVersion", "v1").put("kind", "PersistentVolumeClaim")
                .put("namespace", ObjectMeta.ns(claim)).put("name", ObjectMeta.name(claim)).put("uid", ObjectMeta.uid(claim))
                .put("resourceVersion", claim.path("metadata").path("resourceVersion").asText());
        pv = api.update(ctx.kinds().volumes(), pv);
        pv.withObject("/status").put("phase", "Bound");
        pv = api.updateStatus(ctx.kinds().volumes(), pv);
        claim.withObject("/spec").put("volumeName", ObjectMeta.name(pv));
        ObjectNode ann = claim.withObject("/metadata").withObject("annotations");
        ann.put("pv.kubernetes.io/bind-completed", "yes");
        if (controllerChose) {
            ann.put("pv.kubernetes.io/bound-by-controller", "yes");
        }
        String driver = pv.path("metadata").path("annotations").path("pv.kubernetes.io/provisioned-by").asText("");
        if (!driver.isEmpty()) {
            ann.put("volume.beta.kubernetes.io/storage-provisioner", driver);
            ann.put("volume.kubernetes.io/storage-provisioner", driver);
        }
        claim = api.update(ctx.kinds().claims(), claim);
        ObjectNode st = claim.withObject("/status");
        st.put("phase", "Bound");
        st.set("accessModes", pv.path("spec").path("accessModes").deepCopy());
        st.set("capacity", pv.path("spec").path("capacity").deepCopy());
        api.updateStatus(ctx.kinds().claims(), claim);
    }

    /** The pvc-protection controller: the finalizer goes once no running pod mounts the claim. */
    private void releaseProtection(ObjectNode claim) {
        List<String> fs = ObjectMeta.finalizers(claim);
        if (!fs.contains(StatefulSetPods.CLAIM_PROTECTION)) {
            return;
        }
        for (ObjectNode pod : api.list(ctx.kinds().pods(), ObjectMeta.ns(claim))) {
            String phase = pod.path("status").path("phase").asText("Pending");
            if (Kubelet.claimNames(pod).contains(ObjectMeta.name(claim)) && !phase.equals("Succeeded") && !phase.equals("Failed")) {
                return; // that pod's DELETED event brings the claim back
            }
        }
        fs.remove(StatefulSetPods.CLAIM_PROTECTION);
        ObjectMeta.setFinalizers(claim, fs);
        api.update(ctx.kinds().claims(), claim);
    }

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
        if (ref.isMissingNode()) {
            if (!phase.equals("Available")) {
                pv.withObject("/status").put("phase", "Available");
                api.updateStatus(ctx.kinds().volumes(), pv);
            }
            return;
        }
        if (ref.path("uid").asText("").isEmpty()) {
            return; // pre-bound to a claim by name: the claim's sync binds it
        }
        ObjectNode claim = api.get(ctx.kinds().claims(), ref.path("namespace").asText(), ref.path("name").asText());
        if (claim != null && ObjectMeta.uid(claim).equals(ref.path("uid").asText())) {
            return;
        }
        if (!phase.equals("Released") && !phase.equals("Failed")) {
            pv.withObject("/status").put("phase", "Released");
            pv = api.updateStatus(ctx.kinds().volumes(), pv);
        }
        if ("Delete".equals(pv.path("spec").path("persistentVolumeReclaimPolicy").asText())) {
            provisioner.delete(ctx.kinds().volumes(), pv, null);
        }
    }
}
