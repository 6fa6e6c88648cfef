package dev.stsresize.sim.auth;

import java.util.List;

/**
 * The non-resource URLs of the bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go):
 * system:discovery (bound to system:authenticated) and system:public-info-viewer (bound to
 * system:authenticated and system:unauthenticated). A trailing "*" matches any rest, as RBAC's
 * NonResourceURLMatches does.
 */
final class NonResourcePaths {
    private static final List<String> DISCOVERY = List.of("/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi",
            "/openapi/*", "/readyz", "/version", "/version/");
    private static final List<String> PUBLIC_INFO = List.of("/healthz", "/livez", "/readyz", "/version", "/version/");

    private NonResourcePaths() {}

    static boolean allowed(User user, String path) {
        boolean authenticated = user.isAuthenticated();
        boolean unauthenticated = user.groups().contains(Identities.UNAUTHENTICATED);
        return (authenticated && matches(DISCOVERY, path)) || ((authenticated || unauthenticated) && matches(PUBLIC_INFO, path));
    }

    private static boolean matches(List<String> rules, String path) {
        for (String rule : rules) {
            if (rule.equals(path) || (rule.endsWith("*") && path.startsWith(rule.substring(0, rule.length() - 1)))) {
                return true;
            }
        }
        return false;
    }
}
