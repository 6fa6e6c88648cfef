package dev.stsresize.converge;

import dev.stsresize.cluster.KubeCluster;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import java.util.ArrayList;
import java.util.List;

/**
 * One write of a run, as a value built from the request itself, and its ONE rendering as the kubectl
 * command that sends the same request ({@link #kubectl()}): the plan's writes to come, the UI's diff
 * and gates, and the progress lines all print it from here, so what the operator reads is what is
 * sent, and can be done by hand. Each command matches what {@link KubeCluster} sends: the claim patch a
 * merge patch under the plugin's field manager; the orphan delete the DeleteOptions body (Orphan, UID
 * precondition); the re-apply ONE object, server-side, forcing conflicts, under the run's manager.
 */
public sealed interface Write {
    /** The file the re-apply command names: the one StatefulSet the plugin sends, not the whole manifest. */
    String REAPPLY_FILE = "statefulset.json";
    /** The file the orphan delete's command reads its DeleteOptions from, where the body is shown apart. */
    String DELETE_OPTIONS_FILE = "options.json";

    String namespace();

    /** The Lease that locks the run and the Secret that keeps its record (no one kubectl command makes both). */
    record Lock(String namespace, String name) implements Write {
        @Override
        public String command() {
            return "";
        }
    }

    /** The merge patch of one claim's storage request. */
    record ClaimPatch(String namespace, String claim, String target) implements Write {
        public static ClaimPatch of(String namespace, ClaimState c) {
            return new ClaimPatch(namespace, c.name(), c.target().toString());
        }

        @Override
        public String command() {
            return "kubectl patch pvc " + claim + " -n " + namespace + " --type merge --field-manager=" + KubeCluster.PATCH_FIELD_MANAGER
                    + " -p '{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"" + target + "\"}}}}'";
        }
    }

    /** The delete of the StatefulSet alone: Orphan keeps pods and claims, the UID refuses one re-created meanwhile ("" not known yet). */
    record OrphanDelete(String namespace, String name, String uid) implements Write {
        /** The DeleteOptions body sent. */
        public String options() {
            return "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\""
                    + (uid.isEmpty() ? "<uid of the live StatefulSet>" : uid) + "\"}}";
        }

        @Override
        public String command() {
            return "kubectl delete --raw /apis/apps/v1/namespaces/" + namespace + "/statefulsets/" + name + " -f " + DELETE_OPTIONS_FILE;
        }
    }

    /** The server-side apply of the declared StatefulSet as re-applied ("" manager: not known yet). */
    record Apply(String namespace, String name, String fieldManager) implements Write {
        /** What {@link #REAPPLY_FILE} holds. */
        public String file() {
            return "StatefulSet " + namespace + "/" + name + " as declared, with the live replicas and partition when the manifest"
                    + " differs, and the owners' labels and annotations (only this object is applied, not the whole manifest)";
        }

        @Override
        public String command() {
            return "kubectl apply --server-side --force-conflicts --field-manager="
                    + (fieldManager.isEmpty() ? "<manager of spec.template>" : fieldManager) + " -f " + REAPPLY_FILE;
        }
    }

    /** The backup created again after a failed re-apply, so the pods have their owner back. */
    record Create(String namespace, String name) implements Write {
        @Override
        public String command() {
            return "kubectl create -f <backup>";
        }
    }

    /** One pod evicted through the Eviction API (PodDisruptionBudgets hold) to finish a file system resize. */
    record Eviction(String namespace, String pod) implements Write {
        @Override
        public String command() {
            return "kubectl evict (POST pods/" + pod + "/eviction)";
        }
    }

    /**
     * The merge patch of one PV's reclaim policy, at the resourceVersion it was read ("" not known yet): a PV written
     * since answers 409 (the patch carries the resourceVersion, as {@code KubeCluster.patchVolumeReclaimPolicy} sends it).
     */
    record VolumeReclaimPolicy(String namespace, String volume, String policy, String resourceVersion) implements Write {
        @Override
        public String command() {
            return "kubectl patch pv " + volume + " --type merge --field-manager=" + KubeCluster.PATCH_FIELD_MANAGER + " -p '{"
                    + version(resourceVersion) + "\"spec\":{\"persistentVolumeReclaimPolicy\":\"" + policy + "\"}}'";
        }
    }

    /**
     * The merge patch that re-points a PV's claimRef to a claim's name, without uid or resourceVersion (never a removal
     * of claimRef: an Available PV without one is taken by any claim of its class).
     */
    record ClaimRefRepoint(String namespace, String volume, String claim, String resourceVersion) implements Write {
        @Override
        public String command() {
            return "kubectl patch pv " + volume + " --type merge --field-manager=" + KubeCluster.PATCH_FIELD_MANAGER + " -p '{"
                    + version(resourceVersion) + "\"spec\":{\"claimRef\":{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\","
                    + "\"namespace\":\"" + namespace + "\",\"name\":\"" + claim + "\",\"uid\":null,\"resourceVersion\":null,"
                    + "\"fieldPath\":null}}}'";
        }
    }

    /** A claim created: a copy's temporary claim, or the original name again on the new PV. */
    record ClaimCreate(String namespace, String claim) implements Write {
        @Override
        public String command() {
            return "kubectl create -f <claim " + claim + ">";
        }
    }

    /** A copy pod created (labelled as the plugin's, the claim read-only at /src). */
    record CopyPodCreate(String namespace, String pod) implements Write {
        @Override
        public String command() {
            return "kubectl create -f <copy pod " + pod + ">";
        }
    }

    /** The delete of a copy pod the run created, by its UID ("" not known yet). */
    record CopyPodDelete(String namespace, String pod, String uid) implements Write {
        /** The DeleteOptions body sent. */
        public String options() {
            return uidOptions(uid, "<uid of the copy pod>");
        }

        @Override
        public String command() {
            return "kubectl delete --raw /api/v1/namespaces/" + namespace + "/pods/" + pod + " -f " + DELETE_OPTIONS_FILE;
        }
    }

    /** The delete of a claim whose copy was verified and whose PV is Retain, by its UID ("" not known yet). */
    record ClaimDelete(String namespace, String claim, String uid) implements Write {
        /** The DeleteOptions body sent. */
        public String options() {
            return uidOptions(uid, "<uid of the claim>");
        }

        @Override
        public String command() {
            return "kubectl delete --raw /api/v1/namespaces/" + namespace + "/persistentvolumeclaims/" + claim + " -f " + DELETE_OPTIONS_FILE;
        }
    }

    private static String version(String resourceVersion) {
        return resourceVersion.isEmpty() ? "" : "\"metadata\":{\"resourceVersion\":\"" + resourceVersion + "\"},";
    }

    private static String uidOptions(String uid, String unknown) {
        return "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"preconditions\":{\"uid\":\"" + (uid.isEmpty() ? unknown : uid) + "\"}}";
    }

    /**
     * The kubectl command that sends this request, standing alone: the DeleteOptions piped in on stdin
     * ({@code -f -}), so that it runs in any POSIX sh, not only in shells with process substitution.
     */
    default String kubectl() {
        String options = this instanceof OrphanDelete d ? d.options()
                : this instanceof ClaimDelete c ? c.options()
                : this instanceof CopyPodDelete p ? p.options() : null;
        if (options != null) {
            return "echo '" + options + "' | " + command().replace(" -f " + DELETE_OPTIONS_FILE, " -f -");
        }
        return command();
    }

    /**
     * The kubectl command with the files it reads named, not inlined ({@link #DELETE_OPTIONS_FILE},
     * {@link #REAPPLY_FILE}); "" where no one command makes the write. Each kind renders itself here,
     * in this file, and nowhere else.
     */
    String command();

    /** The writes a decision leads to, in order: one patch per claim to grow, then for a recreate the orphan delete and the re-apply. */
    public static List<Write> planned(Decision d, String uid, String fieldManager) {
        List<Write> out = new ArrayList<>();
        if (!d.verdict().hasWork()) {
            return out;
        }
        for (ClaimState c : d.claimsToGrow()) {
            out.add(ClaimPatch.of(d.namespace(), c));
        }
        if (d.recreate()) {
            out.add(new OrphanDelete(d.namespace(), d.name(), uid));
            out.add(new Apply(d.namespace(), d.name(), fieldManager));
        }
        return out;
    }
}
