package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The ServiceAccount stsresize of a namespace, bound to a Role of the given rules, as the tests that run
 * under narrow rights sign in: its token is in the kubeconfig under the context sim-NAMESPACE-stsresize.
 */
final class ServiceAccountRole {
    static final String STATEFULSETS = "{apiGroups: [apps], resources: [statefulsets], verbs: [get, list, watch, create, patch, delete]}";
    static final String STATEFULSETS_BUT_DELETE = "{apiGroups: [apps], resources: [statefulsets], verbs: [get, list, watch, create, patch]}";
    static final String CLAIMS = "{apiGroups: [''], resources: [persistentvolumeclaims], verbs: [get, list, watch, patch]}";
    static final String PODS = "{apiGroups: [''], resources: [pods], verbs: [get, list, watch]}";
    static final String REVISIONS = "{apiGroups: [apps], resources: [controllerrevisions], verbs: [list]}";
    static final String EVENTS = "{apiGroups: [events.k8s.io], resources: [events], verbs: [create]}";
    static final String LEASES = "{apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, create, update]}";
    static final String SECRETS = "{apiGroups: [''], resources: [secrets], verbs: [get, create, update, delete]}";

    /** Every verb a run needs. */
    static final String[] EVERY_VERB = {STATEFULSETS, CLAIMS, PODS, REVISIONS, EVENTS, LEASES, SECRETS};
    /** Every verb a run needs but deleting a StatefulSet: such a run is blocked before it writes. */
    static final String[] ALL_BUT_DELETE = {STATEFULSETS_BUT_DELETE, CLAIMS, PODS, REVISIONS, EVENTS, LEASES, SECRETS};
    /** Every verb a run needs but those on Leases and Secrets: such a run keeps its lock and record in the local journal only. */
    static final String[] WITHOUT_LEASES = {STATEFULSETS, CLAIMS, PODS, REVISIONS, EVENTS};

    private ServiceAccountRole() {}

    /** The Role of these rules in the namespace and its RoleBinding to the ServiceAccount stsresize there. */
    static List<ObjectNode> role(String ns, String... rules) {
        StringBuilder b = new StringBuilder("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: resizer, namespace: "
                + ns + "}\nrules:\n");
        for (String r : rules) {
            b.append("- ").append(r).append('\n');
        }
        return List.of(Harness.yaml(b.toString()), Harness.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"
                + "metadata: {name: resizer, namespace: " + ns + "}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: resizer}\n"
                + "subjects: [{kind: ServiceAccount, name: stsresize, namespace: " + ns + "}]\n"));
    }

    /** Loads the Role and its binding, gives the ServiceAccount a token, and returns the kubeconfig context that signs in with it. */
    static String signIn(Harness h, String ns, String... rules) {
        h.sim.load(role(ns, rules).toArray(ObjectNode[]::new));
        h.sim.tokenFor(ns, "stsresize");
        return "sim-" + ns + "-stsresize";
    }
}
