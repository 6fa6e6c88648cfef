package dev.stsresize.converge;

import dev.stsresize.cluster.RequestLogRules;
import dev.stsresize.sim.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules no converge may break, read from what the server received: each request keeps
 * {@link RequestLogRules} (no PersistentVolume deleted; every DELETE of a StatefulSet with
 * {@code propagationPolicy: Orphan} and a UID precondition; of a claim, a copy pod or a run's own record Secret
 * with a UID precondition; nothing else deleted; no PV's claimRef removed), and a claim is deleted only after its
 * copy's proof was read: a GET of a copy pod's log in its namespace, then a GET of a PersistentVolume (the re-read
 * that finds it {@code Retain}), both before the DELETE; a copy's temporary claim only after its copy pod's delete.
 */
final class SafetyInvariant {
    private SafetyInvariant() {}

    static List<String> violations(List<RecordedRequest> log) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < log.size(); i++) {
            RecordedRequest r = log.get(i);
            String broken = RequestLogRules.violation(r.method(), r.path(), r.body());
            if (broken != null) {
                out.add(broken);
            } else if (r.method().equals("DELETE") && r.path().matches(".*/persistentvolumeclaims/[^/]+") && !proofReadBefore(log, i, r)) {
                out.add("DELETE " + r.path() + " without first reading a copy pod's log in " + r.namespace()
                        + " and then the claim's PersistentVolume");
            } else if (r.method().equals("DELETE") && r.path().matches(".*/persistentvolumeclaims/stsresize-copy-[^/]+")
                    && !copyPodDeletedBefore(log, i, r)) {
                out.add("DELETE " + r.path() + " before its copy pod was deleted: a pod, even Completed, holds the claim's"
                        + " pvc-protection finalizer, and its volume would not be Released for the re-point");
            }
        }
        return out;
    }

    /** Whether, before request {@code at} (the temporary claim's delete), the copy pod of the same name was deleted. */
    private static boolean copyPodDeletedBefore(List<RecordedRequest> log, int at, RecordedRequest delete) {
        String name = delete.path().substring(delete.path().lastIndexOf('/') + 1);
        String pod = "/api/v1/namespaces/" + delete.namespace() + "/pods/" + name;
        return log.subList(0, at).stream().anyMatch(r -> r.method().equals("DELETE") && r.path().equals(pod) && r.status() < 300);
    }

    /** Whether, before request {@code at}, a copy pod's log of the claim's namespace was read and after it a PV. */
    private static boolean proofReadBefore(List<RecordedRequest> log, int at, RecordedRequest delete) {
        boolean copyLogRead = false;
        boolean volumeReadAfter = false;
        String copyLog = "/api/v1/namespaces/" + delete.namespace() + "/pods/stsresize-copy-[^/]+/log";
        for (RecordedRequest r : log.subList(0, at)) {
            if (!r.method().equals("GET") || r.status() >= 300) {
                continue;
            }
            if (r.path().matches(copyLog)) {
                copyLogRead = true;
                volumeReadAfter = false;
            } else if (copyLogRead && r.path().matches("/api/v1/persistentvolumes/[^/]+")) {
                volumeReadAfter = true;
            }
        }
        return volumeReadAfter;
    }
}
