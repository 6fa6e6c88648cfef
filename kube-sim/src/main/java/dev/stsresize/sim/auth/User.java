package dev.stsresize.sim.auth;

import java.util.List;

/** An authenticated identity: name and groups, as the real authenticators produce them. */
public record User(String name, List<String> groups) {
    public static final String MASTERS = "system:masters";

    public static User admin() {
        return new User("kubernetes-admin", List.of(MASTERS, "system:authenticated"));
    }

    public static User serviceAccount(String namespace, String name) {
        return new User("system:serviceaccount:" + namespace + ":" + name,
                List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated"));
    }

    public boolean isAdmin() {
        return groups.contains(MASTERS);
    }

    /** What request/anonymous/anonymous.go makes of a request without credentials. */
    public static User anonymous() {
        return new User(Identities.ANONYMOUS, List.of(Identities.UNAUTHENTICATED));
    }

    public boolean isAuthenticated() {
        return groups.contains(Identities.AUTHENTICATED);
    }
}
