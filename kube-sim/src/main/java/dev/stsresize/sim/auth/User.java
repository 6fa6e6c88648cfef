package dev.stsresize.sim.auth;

import java.util.List;

/** An authenticated identity: name and groups, as the real authenticators produce them. */
public record User(String name, List<String> groups) {
    public static final String MASTERS = "system:masters";
    /** k8s.io/apiserver/pkg/authentication/user: the group every authenticated request has, and the anonymous one's. */
    public static final String AUTHENTICATED = "system:authenticated";
    public static final String UNAUTHENTICATED = "system:unauthenticated";
    public static final String ANONYMOUS = "system:anonymous";
    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    public static User admin() {
        return new User("kubernetes-admin", List.of(MASTERS, AUTHENTICATED));
    }

    /** What request/anonymous/anonymous.go makes of a request without credentials. */
    public static User anonymous() {
        return new User(ANONYMOUS, List.of(UNAUTHENTICATED));
    }

    public static User serviceAccount(String namespace, String name) {
        return new User(SERVICE_ACCOUNT_PREFIX + namespace + ":" + name, serviceAccountGroups(namespace));
    }

    /** pkg/serviceaccount MakeGroupNames, plus system:authenticated. */
    static List<String> serviceAccountGroups(String namespace) {
        return List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace, AUTHENTICATED);
    }

    /** "system:serviceaccount:NS:NAME" split into namespace and name, or null for any other user name. */
    static String[] serviceAccountOf(String userName) {
        if (!userName.startsWith(SERVICE_ACCOUNT_PREFIX)) {
            return null;
        }
        String[] p = userName.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", -1);
        return p.length == 2 && !p[0].isEmpty() && !p[1].isEmpty() ? p : null;
    }

    public boolean isAdmin() {
        return groups.contains(MASTERS);
    }

    public boolean isAuthenticated() {
        return groups.contains(AUTHENTICATED);
    }
}
