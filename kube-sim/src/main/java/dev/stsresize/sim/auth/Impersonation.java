package dev.stsresize.sim.auth;

import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.request.RequestInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The impersonation filter (staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go): the
 * {@code Impersonate-User}, {@code Impersonate-Group}, {@code Impersonate-Uid} and {@code Impersonate-Extra-*}
 * headers that {@code kubectl --as/--as-group/--as-uid} send, each authorised for the requester with verb
 * {@code impersonate} on users, groups, serviceaccounts (for a "system:serviceaccount:NS:NAME" user),
 * uids or userextras/KEY; the request then runs as the impersonated user. The uid and extras are checked
 * and then not modelled further (no authenticator here reads them).
 */
public final class Impersonation {
    static final String USER = "Impersonate-User";
    static final String GROUP = "Impersonate-Group";
    static final String UID = "Impersonate-Uid";
    static final String EXTRA_PREFIX = "Impersonate-Extra-";

    private final Authorizer authorizer;

    public Impersonation(Authorizer authorizer) {
        this.authorizer = authorizer;
    }

    /**
     * One thing asked to act as, authorised on its own (buildImpersonationRequests); {@code reference} is the
     * Go ObjectReference it makes, as %v prints it (Kind Namespace Name UID APIVersion ResourceVersion FieldPath).
     */
    private record Wanted(String group, String resource, String subresource, String namespace, String name, String reference) {}

    /** Groups, a uid or extras without a user: buildImpersonationRequests' error, a 500 in plain text. */
    public static final class WithoutUser extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WithoutUser(String message) {
            super(message);
        }
    }

    /**
     * The user the request runs as: {@code requester} without impersonation headers.
     *
     * @param headers the request's headers, names in any case, each with all its values
     * @throws WithoutUser for groups, uid or extras without a user
     * @throws ApiError 403 naming the first thing not allowed
     */
    public User apply(User requester, Map<String, List<String>> headers) {
        Map<String, List<String>> h = new LinkedHashMap<>();
        headers.forEach((k, v) -> h.computeIfAbsent(k.toLowerCase(Locale.ROOT), x -> new ArrayList<>()).addAll(v));
        String userName = first(h.get(USER.toLowerCase(Locale.ROOT)));
        List<String> groupsAsked = h.getOrDefault(GROUP.toLowerCase(Locale.ROOT), List.of());
        String uid = first(h.get(UID.toLowerCase(Locale.ROOT)));
        List<Wanted> wanted = new ArrayList<>();
        String[] serviceAccount = userName.isEmpty() ? null : Identities.serviceAccountOf(userName);
        if (!userName.isEmpty()) {
            wanted.add(serviceAccount != null
                    ? new Wanted("", "serviceaccounts", "", serviceAccount[0], serviceAccount[1],
                            ref("ServiceAccount", serviceAccount[0], serviceAccount[1], "", "", ""))
                    : new Wanted("", "users", "", "", userName, ref("User", "", userName, "", "", "")));
        }
        for (String g : groupsAsked) {
            wanted.add(new Wanted("", "groups", "", "", g, ref("Group", "", g, "", "", "")));
        }
        boolean extras = false;
        for (Map.Entry<String, List<String>> e : h.entrySet()) {
            if (e.getKey().startsWith(EXTRA_PREFIX.toLowerCase(Locale.ROOT))) {
                extras = true;
                String key = e.getKey().substring(EXTRA_PREFIX.length());
                for (String v : e.getValue()) {
                    wanted.add(new Wanted("authentication.k8s.io", "userextras", key, "", v,
                            ref("UserExtra", "", v, "", "authentication.k8s.io/v1", key)));
                }
            }
        }
        if (!uid.isEmpty()) {
            wanted.add(new Wanted("authentication.k8s.io", "uids", "", "", uid, ref("UID", "", uid, "", "authentication.k8s.io/v1", "")));
        }
        if (wanted.isEmpty()) {
            return requester;
        }
        if ((!groupsAsked.isEmpty() || extras || !uid.isEmpty()) && userName.isEmpty()) {
            throw new WithoutUser("requested " + describe(wanted) + " without impersonating a user");
        }
        for (Wanted w : wanted) {
            RequestInfo asked = new RequestInfo(true, "impersonate", w.group(), "", w.resource(), w.subresource(), w.namespace(),
                    w.name(), "");
            Authorizer.Decision d = authorizer.authorize(requester, asked);
            if (!d.allowed()) {
                throw Authorizer.forbidden(requester, asked, d.reason());
            }
        }
        List<String> groups = new ArrayList<>();
        if (serviceAccount != null && groupsAsked.isEmpty()) {
            groups.addAll(Identities.serviceAccountGroups(serviceAccount[0]));
        }
        groups.addAll(groupsAsked);
        if (!userName.equals(Identities.ANONYMOUS)) {
            if (!groups.contains(Identities.AUTHENTICATED) && !groups.contains(Identities.UNAUTHENTICATED)) {
                groups.add(Identities.AUTHENTICATED);
            }
        } else if (!groups.contains(Identities.UNAUTHENTICATED)) {
            groups.add(Identities.UNAUTHENTICATED);
        }
        return new User(userName, List.copyOf(groups));
    }

    private static String first(List<String> values) {
        return values == null || values.isEmpty() ? "" : values.get(0);
    }

    private static String ref(String kind, String namespace, String name, String uid, String apiVersion, String fieldPath) {
        return "{" + String.join(" ", kind, namespace, name, uid, apiVersion, "", fieldPath) + "}";
    }

    private static String describe(List<Wanted> wanted) {
        List<String> parts = new ArrayList<>();
        for (Wanted w : wanted) {
            parts.add(w.reference());
        }
        return "[" + String.join(" ", parts) + "]";
    }
}
