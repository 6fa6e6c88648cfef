package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The kubeconfig user's {@code as}, {@code as-uid}, {@code as-groups} and {@code as-user-extra}
 * (or {@code --as}, {@code --as-uid}, {@code --as-group}), sent as client-go's
 * impersonatingRoundTripper sends them (staging/src/k8s.io/client-go/transport/round_trippers.go):
 * {@code Impersonate-User}, {@code Impersonate-Uid}, one {@code Impersonate-Group} per group and
 * {@code Impersonate-Extra-<key>} per value, on every request, over http too (client_config.go sets
 * it before its TLS-only credentials).
 */
final class Impersonation implements Interceptor {
    private final String user;
    private final String uid;
    private final List<String> groups;
    private final Map<String, List<String>> extra;

    private Impersonation(String user, String uid, List<String> groups, Map<String, List<String>> extra) {
        this.user = user;
        this.uid = uid;
        this.groups = groups;
        this.extra = extra;
    }

    /**
     * None when the user impersonates no one; refused as client-go's validateAuthInfo refuses a uid,
     * groups or extras without a user to impersonate.
     */
    static Optional<Impersonation> of(ObjectNode kubeconfigUser, String who) {
        String user = kubeconfigUser.path("as").asText("");
        String uid = kubeconfigUser.path("as-uid").asText("");
        List<String> groups = new ArrayList<>();
        kubeconfigUser.path("as-groups").forEach(g -> groups.add(g.asText()));
        Map<String, List<String>> extra = new LinkedHashMap<>();
        kubeconfigUser.path("as-user-extra").fields().forEachRemaining(e -> {
            List<String> values = new ArrayList<>();
            (e.getValue().isArray() ? e.getValue() : List.<JsonNode>of(e.getValue())).forEach(v -> values.add(v.asText()));
            extra.put(e.getKey(), values);
        });
        if (user.isEmpty()) {
            if (!uid.isEmpty() || !groups.isEmpty() || !extra.isEmpty()) {
                throw new UserError("requesting uid, groups or user-extra for " + who + " without impersonating a user"
                        + " (kubectl refuses it too): add --as USER, or drop --as-uid and --as-group.");
            }
            return Optional.empty();
        }
        return Optional.of(new Impersonation(user, uid, List.copyOf(groups), extra));
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        if (request.header("Impersonate-User") != null) {
            return chain.proceed(request);
        }
        Request.Builder b = request.newBuilder().header("Impersonate-User", user);
        if (!uid.isEmpty()) {
            b.header("Impersonate-Uid", uid);
        }
        groups.forEach(g -> b.addHeader("Impersonate-Group", g));
        extra.forEach((k, values) -> values.forEach(v -> b.addHeader("Impersonate-Extra-" + headerKeyEscape(k), v)));
        return chain.proceed(b.build());
    }

    /** client-go's headerKeyEscape: bytes that are not an HTTP token character (or %) are %-encoded. */
    static String headerKeyEscape(String key) {
        StringBuilder out = new StringBuilder();
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            boolean legal = c < 127 && (Character.isLetterOrDigit(c) || "%!#$&'*+-.^_`|~".indexOf(c) >= 0);
            out.append(legal ? String.valueOf((char) c) : String.format("%%%02X", c));
        }
        return out.toString();
    }
}
