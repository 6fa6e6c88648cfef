package dev.stsresize.tui;

import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import java.util.ArrayList;
import java.util.List;

/**
 * The writes converging a decision makes, each as the kubectl command that does the same: the operator
 * reads exactly what will happen, and can do it by hand if the tool is not at hand next time.
 */
public final class WriteCommands {
    private WriteCommands() {}

    public static String growClaim(String namespace, ClaimState c) {
        return "kubectl patch pvc " + c.name() + " -n " + namespace + " --type merge -p '{\"spec\":{\"resources\":{\"requests\":{\"storage\":\""
                + c.target() + "\"}}}}'";
    }

    public static String orphanDelete(String namespace, String name) {
        return "kubectl delete --raw /apis/apps/v1/namespaces/" + namespace + "/statefulsets/" + name + " -f options.json";
    }

    /** The DeleteOptions body: Orphan keeps pods and claims; the UID precondition refuses a StatefulSet re-created meanwhile. */
    public static String deleteOptions(String uid) {
        return "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\""
                + (uid.isEmpty() ? "<uid of the live StatefulSet>" : uid) + "\"}}";
    }

    public static String reapply(String manifest) {
        return "kubectl apply --server-side -f " + (manifest.isEmpty() ? "<manifest>" : manifest);
    }

    /** Every write in order: one patch per claim to grow, then for a recreate the orphan delete and the re-apply. */
    public static List<String> all(Decision d, String uid, String manifest) {
        List<String> out = new ArrayList<>();
        if (!d.verdict().hasWork()) {
            return out;
        }
        for (ClaimState c : d.claimsToGrow()) {
            out.add(growClaim(d.namespace(), c));
        }
        if (d.recreate()) {
            out.add(orphanDelete(d.namespace(), d.name()));
            out.add(reapply(manifest));
        }
        return out;
    }
}
