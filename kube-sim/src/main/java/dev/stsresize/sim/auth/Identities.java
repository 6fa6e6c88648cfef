package dev.stsresize.sim.auth;

import java.util.List;

/** The names k8s.io/apiserver/pkg/authentication/user and serviceaccount give to users and groups. */
final class Identities {
    static final String AUTHENTICATED = "system:authenticated";
    static final String UNAUTHENTICATED = "system:unauthenticated";
    static final String ANONYMOUS = "system:anonymous";
    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    private Identities() {}

    /** serviceaccount.MakeGroupNames. */
    static List<String> serviceAccountGroups(String namespace) {
        return List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace);
    }

    /** serviceaccount.SplitUsername: "system:serviceaccount:NS:NAME" as {NS, NAME}, or null for any other user name. */
    static String[] serviceAccountOf(String userName) {
        if (!userName.startsWith(SERVICE_ACCOUNT_PREFIX)) {
            return null;
        }
        String[] p = userName.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", -1);
        return p.length == 2 && !p[0].isEmpty() && !p[1].isEmpty() ? p : null;
    }
}
