package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.NamespaceScope;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pods and claims of one StatefulSet, name → UID, as read: what must still be there, with the
 * same UIDs, after the orphan delete and the re-apply.
 */
record Dependents(Map<String, String> pods, Map<String, String> claims) {
    Dependents {
        pods = Map.copyOf(pods);
        claims = Map.copyOf(claims);
    }

    /**
     * Pods matching the StatefulSet's selector that it controls ({@code ownerUid}) or that nobody
     * controls (orphans waiting for adoption), and the named claims.
     */
    static Dependents read(Cluster cluster, ObjectNode sts, String ownerUid, Collection<String> claimNames) {
        String ns = Objects.namespace(sts);
        // the two LISTs asked together
        java.util.List<java.util.concurrent.Callable<dev.stsresize.cluster.ObjectList>> lists = new java.util.ArrayList<>();
        lists.add(() -> cluster.listPods(ns, Objects.selector(sts.path("spec").path("selector"))));
        if (!claimNames.isEmpty()) {
            lists.add(() -> cluster.listClaims(NamespaceScope.of(ns)));
        }
        java.util.List<dev.stsresize.cluster.ObjectList> answers = Together.all(lists);
        Map<String, String> pods = new LinkedHashMap<>();
        for (ObjectNode p : answers.get(0).items()) {
            String controller = Objects.controllerUid(p);
            if (controller.isEmpty() || controller.equals(ownerUid)) {
                pods.put(Objects.name(p), Objects.uid(p));
            }
        }
        Map<String, String> claims = new LinkedHashMap<>();
        if (answers.size() > 1) {
            for (ObjectNode c : answers.get(1).items()) {
                if (claimNames.contains(Objects.name(c))) {
                    claims.put(Objects.name(c), Objects.uid(c));
                }
            }
        }
        return new Dependents(pods, claims);
    }

    /** What of {@code before} is missing or has another UID in {@code this}; empty when all are there. */
    String lostSince(Dependents before) {
        StringBuilder b = new StringBuilder();
        before.pods.forEach((n, uid) -> {
            if (!uid.equals(pods.get(n))) {
                b.append(b.length() == 0 ? "" : "; ").append("pod ").append(n)
                        .append(pods.containsKey(n) ? " has a new UID " + pods.get(n) + " (was " + uid + ")" : " is gone");
            }
        });
        before.claims.forEach((n, uid) -> {
            if (!uid.equals(claims.get(n))) {
                b.append(b.length() == 0 ? "" : "; ").append("claim ").append(n)
                        .append(claims.containsKey(n) ? " has a new UID " + claims.get(n) + " (was " + uid + ")" : " is GONE");
            }
        });
        return b.toString();
    }
}
