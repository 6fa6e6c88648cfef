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
     * The kubectl command that sends this request, standing alone: the DeleteOptions piped in on stdin
     * ({@code -f -}), so that it runs in any POSIX sh, not only in shells with process substitution.
     */
    default String kubectl() {
        if (this instanceof OrphanDelete d) {
            return "echo '" + d.options() + "' | " + command().replace(" -f " + DELETE_OPTIONS_FILE, " -f -");
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
