package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import io.kubernetes.client.util.credentials.Authentication;
import io.kubernetes.client.util.credentials.ClientCertificateAuthentication;
import io.kubernetes.client.util.credentials.TokenFileAuthentication;
import io.kubernetes.client.util.credentials.UsernamePasswordAuthentication;
import io.kubernetes.client.util.SSLUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.spec.InvalidKeySpecException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The credentials of a kubeconfig user, as client-java authentications: a client certificate (any
 * key format BouncyCastle reads: EC, RSA PKCS#1, PKCS#8), a token or token file, basic auth, or an
 * exec credential plugin when the user has no static credential.
 */
final class UserAuthentication {
    private UserAuthentication() {}

    static List<Authentication> from(KubeconfigSelection selection, boolean terminal) {
        ObjectNode user = selection.user();
        String who = "user \"" + selection.userName() + "\"";
        List<Authentication> auth = new ArrayList<>();
        if (user.has("auth-provider")) {
            throw new UserError("kubeconfig " + who + " uses the auth-provider \""
                    + user.path("auth-provider").path("name").asText() + "\", which kubectl-stsresize does not support;"
                    + " switch it to an exec credential plugin (kubelogin for OIDC, gke-gcloud-auth-plugin for GKE).");
        }
        // client-go's validateAuthInfo: these pairs are errors in kubectl, not a silent choice
        both(user, "client-certificate-data", "client-certificate", who, "--client-certificate");
        both(user, "client-key-data", "client-key", who, "--client-key");
        byte[] cert = KubeconfigData.bytes(user, "client-certificate-data", "client-certificate", who, selection.files());
        byte[] key = KubeconfigData.bytes(user, "client-key-data", "client-key", who, selection.files());
        if (cert != null && key != null) {
            auth.add(clientCertificate(cert, key, who + " in " + selection.files()));
        } else if (cert != null) {
            throw new UserError("client-key-data or client-key must be specified for " + who + " to use the clientCert"
                    + " authentication method (kubectl refuses it too); pass --client-key FILE, or set it in the kubeconfig.");
        }
        String token = user.path("token").asText("");
        String tokenFile = user.path("tokenFile").asText("");
        if (!token.isEmpty()) {
            if (!headerSafe(token)) {
                throw new UserError("the token of kubeconfig " + who + " (or --token) holds a line break or another control"
                        + " character, which no bearer token has and no HTTP header can carry; copy it again without them.");
            }
            auth.add(new AccessTokenAuthentication(token));
        } else if (!tokenFile.isEmpty()) {
            KubeconfigData.requireFile(Path.of(tokenFile), "tokenFile", who, selection.files());
            auth.add(new TokenFileAuthentication(tokenFile));
        }
        String username = user.path("username").asText("");
        if (!username.isEmpty() && token.isEmpty()) {
            auth.add(new UsernamePasswordAuthentication(username, user.path("password").asText("")));
        }
        if (auth.isEmpty() && user.path("exec") instanceof ObjectNode exec) {
            auth.add(execAuthentication(
                    new ExecCredentialPlugin(exec, selection.userName(), selection.cluster(), terminal)));
        }
        return auth;
    }

    /** What OkHttp (and Go's net/http) accept in a header value: tab and visible ASCII. */
    static boolean headerSafe(String value) {
        return value.chars().allMatch(c -> c == '\t' || c >= 0x20 && c <= 0x7e);
    }

    private static void both(ObjectNode user, String data, String file, String who, String flag) {
        if (!user.path(data).asText("").isEmpty() && !user.path(file).asText("").isEmpty()) {
            throw new UserError(data + " and " + file + " are both specified for " + who + " (kubectl refuses it too):"
                    + " the kubeconfig's " + data + " and " + flag + " or its " + file + "; keep one (--user picks"
                    + " another user).");
        }
    }

    private static Authentication execAuthentication(ExecCredentialPlugin plugin) {
        ExecCredentialPlugin.Credential first = plugin.run();
        if (!first.token().isEmpty()) {
            return new ExecTokenAuthentication(plugin, first, Clock.systemUTC());
        }
        return clientCertificate(first.clientCertificatePem().getBytes(StandardCharsets.UTF_8),
                first.clientKeyPem().getBytes(StandardCharsets.UTF_8), "the exec plugin's credential");
    }

    /** Reads both first, so a bad one is named here instead of failing deep inside the TLS setup. */
    private static Authentication clientCertificate(byte[] cert, byte[] key, String whose) {
        try {
            if (CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(cert)).isEmpty()) {
                throw new CertificateException("no certificate found");
            }
        } catch (CertificateException e) {
            throw new UserError("the client certificate of kubeconfig " + whose + " is not a PEM certificate ("
                    + e.getMessage() + "); fix it (kubectl config view --raw shows it), or pick another --context.", e);
        }
        try {
            SSLUtils.loadKey(key);
        } catch (IOException | InvalidKeySpecException | RuntimeException e) {
            // no cause: a parser's message may quote the key, and --debug prints the causes
            throw new UserError("the client key of kubeconfig " + whose + " is not a PEM private key that can be read"
                    + " (EC, RSA PKCS#1 or PKCS#8, unencrypted); fix it (kubectl config view --raw shows it),"
                    + " or pick another --context.");
        }
        return new ClientCertificateAuthentication(cert, key);
    }
}
