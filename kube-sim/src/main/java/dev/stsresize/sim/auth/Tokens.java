package dev.stsresize.sim.auth;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bearer tokens and who they belong to: the admin's (a static token, as in a token file), one long-lived
 * token per ServiceAccount asked for (as a legacy token Secret gives), and the bound tokens TokenRequest
 * issues (a new one per request, valid until its expiry). Tokens are opaque here, not signed JWTs.
 */
public final class Tokens {
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;
    private final Map<String, Issued> byToken = new ConcurrentHashMap<>();
    private final Map<String, String> byUser = new ConcurrentHashMap<>();
    private final String adminToken;

    private record Issued(User user, Instant expiry) {}

    public Tokens() {
        this(Clock.systemUTC());
    }

    public Tokens(Clock clock) {
        this.clock = clock;
        this.adminToken = issue(User.admin(), null);
        byUser.put(User.admin().name(), adminToken);
    }

    public String adminToken() {
        return adminToken;
    }

    /** The long-lived token of a ServiceAccount (the same one each call); authorised by RBAC objects in the store. */
    public synchronized String forServiceAccount(String namespace, String name) {
        User u = User.serviceAccount(namespace, name);
        String existing = byUser.get(u.name());
        if (existing != null) {
            return existing;
        }
        String token = issue(u, null);
        byUser.put(u.name(), token);
        return token;
    }

    /** A TokenRequest's token: a new one each call, refused from {@code expiry} on. */
    public String request(String namespace, String name, Instant expiry) {
        return issue(User.serviceAccount(namespace, name), expiry);
    }

    /** The user of a token that is known and not expired. */
    public Optional<User> user(String token) {
        Issued i = token == null ? null : byToken.get(token);
        if (i == null || (i.expiry() != null && !clock.instant().isBefore(i.expiry()))) {
            return Optional.empty();
        }
        return Optional.of(i.user());
    }

    /** Every long-lived token by user name, for writing kubeconfig users. */
    public Map<String, String> all() {
        return Map.copyOf(byUser);
    }

    private String issue(User u, Instant expiry) {
        byte[] b = new byte[16];
        random.nextBytes(b);
        String token = "sim-" + HexFormat.of().formatHex(b);
        byToken.put(token, new Issued(u, expiry));
        return token;
    }
}
