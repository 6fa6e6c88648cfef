package dev.stsresize.sim.auth;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bearer tokens and who they belong to: the admin's, and one per ServiceAccount asked for (long-lived,
 * as a legacy token Secret's), plus the bound tokens TokenRequest issues ({@link #request}: a new one per
 * request, refused from its expiry on). Tokens are opaque here, not signed JWTs.
 */
public final class Tokens {
    private final SecureRandom random = new SecureRandom();
    private final Map<String, User> byToken = new ConcurrentHashMap<>();
    private final Map<String, String> byUser = new ConcurrentHashMap<>();
    private final Map<String, Instant> expiries = new ConcurrentHashMap<>();
    private final Clock clock;
    private final String adminToken;

    public Tokens() {
        this(Clock.systemUTC());
    }

    public Tokens(Clock clock) {
        this.clock = clock;
        this.adminToken = issue(User.admin());
    }

    public String adminToken() {
        return adminToken;
    }

    /** The token of a ServiceAccount (the same one each call); authorised by RBAC objects in the store. */
    public synchronized String forServiceAccount(String namespace, String name) {
        User u = User.serviceAccount(namespace, name);
        String existing = byUser.get(u.name());
        return existing != null ? existing : issue(u);
    }

    /** A TokenRequest's token: a new one each call, not listed in {@link #all()}, refused from {@code expiry} on. */
    public String request(String namespace, String name, Instant expiry) {
        byte[] b = new byte[16];
        random.nextBytes(b);
        String token = "sim-" + HexFormat.of().formatHex(b);
        expiries.put(token, expiry);
        byToken.put(token, User.serviceAccount(namespace, name));
        return token;
    }

    public Optional<User> user(String token) {
        Instant expiry = token == null ? null : expiries.get(token);
        if (expiry != null && !clock.instant().isBefore(expiry)) {
            return Optional.empty();
        }
        return Optional.ofNullable(token == null ? null : byToken.get(token));
    }

    /** Every issued token by user name, for writing kubeconfig users. */
    public Map<String, String> all() {
        return Map.copyOf(byUser);
    }

    private String issue(User u) {
        byte[] b = new byte[16];
        random.nextBytes(b);
        String token = "sim-" + HexFormat.of().formatHex(b);
        byToken.put(token, u);
        byUser.put(u.name(), token);
        return token;
    }
}
