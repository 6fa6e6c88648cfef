package dev.stsresize.sim.auth;

import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.tls.CertificateAuthority;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * Who a request is, as kube-apiserver's authentication chain decides (pkg/kubeapiserver/authenticator/config.go):
 * a union of the x509 client-certificate authenticator (staging/src/k8s.io/apiserver/pkg/authentication/request/x509:
 * a chain to the client CA with client-auth usage; CN the user, each O a group) and the bearer-token one
 * (request/bearertoken/bearertoken.go: "Authorization: Bearer TOKEN"; a token nobody issued is an error,
 * "invalid bearer token"), wrapped so that an error is a 401 and no credential at all is the anonymous user
 * (request/anonymous, union.NewFailOnError); then group.AuthenticatedGroupAdder adds system:authenticated.
 */
public final class Authenticator {
    private final CertificateAuthority clientCa;
    private final Tokens tokens;
    private final boolean anonymousAuth;

    public Authenticator(CertificateAuthority clientCa, Tokens tokens, boolean anonymousAuth) {
        this.clientCa = clientCa;
        this.tokens = tokens;
        this.anonymousAuth = anonymousAuth;
    }

    /**
     * @param peerCertificates the client's TLS certificates, or null/empty
     * @param authorization the Authorization header, or null
     * @throws ApiError 401 for a credential that does not authenticate, or no credential with anonymous auth off
     */
    public User authenticate(X509Certificate[] peerCertificates, String authorization) {
        List<String> errors = new ArrayList<>();
        Optional<User> user = x509(peerCertificates, errors).or(() -> bearer(authorization, errors));
        if (user.isPresent()) {
            return withAuthenticatedGroup(user.get());
        }
        if (errors.isEmpty() && anonymousAuth) {
            return User.anonymous();
        }
        throw unauthorized();
    }

    /** responsewriters' 401: the same body whatever failed. */
    public static ApiError unauthorized() {
        return ApiError.of(401, "Unauthorized", "Unauthorized", null);
    }

    private Optional<User> x509(X509Certificate[] chain, List<String> errors) {
        if (chain == null || chain.length == 0) {
            return Optional.empty();
        }
        X509Certificate leaf = chain[0];
        if (!clientCa.verifiesClient(leaf)) {
            errors.add("verifying certificate " + leaf.getSerialNumber() + " failed");
            return Optional.empty();
        }
        X500Name subject = X500Name.getInstance(leaf.getSubjectX500Principal().getEncoded());
        String cn = first(subject);
        if (cn.isEmpty()) {
            return Optional.empty(); // CommonNameUserConversion: no CN, not this authenticator's user
        }
        List<String> groups = new ArrayList<>();
        for (RDN o : subject.getRDNs(BCStyle.O)) {
            groups.add(IETFUtils.valueToString(o.getFirst().getValue()));
        }
        return Optional.of(new User(cn, groups));
    }

    private static String first(X500Name subject) {
        RDN[] cn = subject.getRDNs(BCStyle.CN);
        return cn.length == 0 ? "" : IETFUtils.valueToString(cn[0].getFirst().getValue());
    }

    private Optional<User> bearer(String header, List<String> errors) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        String[] parts = header.trim().split(" ", 3);
        if (parts.length < 2 || !parts[0].toLowerCase(Locale.ROOT).equals("bearer") || parts[1].isEmpty()) {
            return Optional.empty();
        }
        Optional<User> user = tokens.user(parts[1]);
        if (user.isEmpty()) {
            errors.add("invalid bearer token");
        }
        return user;
    }

    /** group.AuthenticatedGroupAdder: every authenticated user is in system:authenticated. */
    static User withAuthenticatedGroup(User u) {
        if (u.name().equals(Identities.ANONYMOUS) || u.groups().contains(Identities.AUTHENTICATED) || u.groups().contains(Identities.UNAUTHENTICATED)) {
            return u;
        }
        List<String> groups = new ArrayList<>(u.groups());
        groups.add(Identities.AUTHENTICATED);
        return new User(u.name(), List.copyOf(groups));
    }
}
