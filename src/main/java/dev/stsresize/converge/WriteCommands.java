package dev.stsresize.converge;

import dev.stsresize.cluster.KubeCluster;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import java.util.ArrayList;
import java.util.List;

/**
 * The ONE place the plugin's writes are spelled as the kubectl commands that send the same requests
 * (the diff's "writes to come", the wizard, the progress lines): the operator reads exactly what will
 * happen, and can do it by hand. Each command sends what {@link KubeCluster} sends: the claim patch a
 * merge patch with the plugin's field manager; the orphan delete the DeleteOptions body; the re-apply
 * ONE object (the declared StatefulSet as re-applied), server-side, forcing conflicts, under the field
 * manager the run uses.
 */
public final class WriteCommands {
    /** The file the re-apply command names: the one StatefulSet the plugin sends, not the whole manifest. */
    public static final String REAPPLY_FILE = "statefulset.json";

    private WriteCommands() {}

    public static String growClaim(String namespace, ClaimState c) {
        return growClaim(namespace, c.name(), c.target().toString());
    }

    public static String growClaim(String namespace, String claim, String target) {
        return "kubectl patch pvc " + claim + " -n " + namespace + " --type merge --field-manager=" + KubeCluster.PATCH_FIELD_MANAGER
                + " -p '{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"" + target + "\"}}}}'";
    }

    public static String orphanDelete(String namespace, String name) {
        return "kubectl delete --raw /apis/apps/v1/namespaces/" + namespace + "/statefulsets/" + name + " -f options.json";
    }

    /** The DeleteOptions body: Orphan keeps pods and claims; the UID precondition refuses a StatefulSet re-created meanwhile. */
    public static String deleteOptions(String uid) {
        return "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\""
                + (uid.isEmpty() ? "<uid of the live StatefulSet>" : uid) + "\"}}";
    }

    /** The orphan delete with its body inline, for a progress line that must stand alone. */
    public static String orphanDeleteInline(String namespace, String name, String uid) {
        return "kubectl delete --raw /apis/apps/v1/namespaces/" + namespace + "/statefulsets/" + name + " -f <(echo '"
                + deleteOptions(uid) + "')";
    }

    /** {@code fieldManager}: the manager the run re-applies with (empty while not known yet). */
    public static String reapply(String fieldManager) {
        return "kubectl apply --server-side --force-conflicts --field-manager="
                + (fieldManager.isEmpty() ? "<manager of spec.template>" : fieldManager) + " -f " + REAPPLY_FILE;
    }

    /** What {@link #REAPPLY_FILE} holds. */
    public static String reapplyFile(String namespace, String name) {
        return "StatefulSet " + namespace + "/" + name + " as declared, with the live replicas and partition when the manifest"
                + " differs, and the owners' labels and annotations (only this object is applied, not the whole manifest)";
    }

    /** Every write in order: one patch per claim to grow, then for a recreate the orphan delete and the re-apply. */
    public static List<String> all(Decision d, String fieldManager) {
        List<String> out = new ArrayList<>();
        if (!d.verdict().hasWork()) {
            return out;
        }
        for (ClaimState c : d.claimsToGrow()) {
            out.add(growClaim(d.namespace(), c));
        }
        if (d.recreate()) {
            out.add(orphanDelete(d.namespace(), d.name()));
            out.add(reapply(fieldManager));
        }
        return out;
    }
}
