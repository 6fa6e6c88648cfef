package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.sim.tls.CertificateAuthority;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who a request is, as kube-apiserver decides it (staging/src/k8s.io/apiserver/pkg/authentication/request/x509,
 * bearertoken, anonymous; pkg/endpoints/filters/impersonation.go): over HTTPS only, with the raw answers.
 */
class AuthenticationTest {
    static final String CLAIMS = "/api/v1/namespaces/prod/persistentvolumeclaims";
    static final String UNAUTHORIZED = """
            {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}""";
    SimCluster sim;

    @BeforeEach
    void start() {
        sim = SimCluster.start();
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: robot, namespace: prod}\n"));
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    record Answer(int code, String body) {}

    Answer get(OkHttpClient client, String path, Map<String, List<String>> headers) {
        Request.Builder b = new Request.Builder().url(sim.url() + path);
        headers.forEach((k, vs) -> vs.forEach(v -> b.addHeader(k, v)));
        try (Response r = client.newCall(b.build()).execute()) {
            return new Answer(r.code(), r.body().string());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Trusts the cluster's CA and presents {@code cert} (or none). */
    OkHttpClient client(CertificateAuthority.Issued cert) {
        return client(cert, false);
    }

    OkHttpClient client(CertificateAuthority.Issued cert, boolean sendWhateverTheServerLists) {
        try {
            KeyManagerFactory kmf = null;
            if (cert != null) {
                KeyStore ks = KeyStore.getInstance("PKCS12");
                ks.load(null, null);
                ks.setKeyEntry("me", cert.key(), "x".toCharArray(), new Certificate[] {cert.certificate()});
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(ks, "x".toCharArray());
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            javax.net.ssl.KeyManager[] keys = kmf == null ? null : kmf.getKeyManagers();
            if (keys != null && sendWhateverTheServerLists) {
                javax.net.ssl.X509ExtendedKeyManager k = (javax.net.ssl.X509ExtendedKeyManager) keys[0];
                keys = new javax.net.ssl.KeyManager[] {new javax.net.ssl.X509ExtendedKeyManager() {
                    @Override
                    public String[] getClientAliases(String type, java.security.Principal[] issuers) {
                        return new String[] {"me"};
                    }

                    @Override
                    public String chooseClientAlias(String[] type, java.security.Principal[] issuers, java.net.Socket s) {
                        return "me";
                    }

                    @Override
                    public String chooseEngineClientAlias(String[] type, java.security.Principal[] issuers, javax.net.ssl.SSLEngine e) {
                        return "me";
                    }

                    @Override
                    public String[] getServerAliases(String type, java.security.Principal[] issuers) {
                        return null;
                    }

                    @Override
                    public String chooseServerAlias(String type, java.security.Principal[] issuers, java.net.Socket s) {
                        return null;
                    }

                    @Override
                    public java.security.cert.X509Certificate[] getCertificateChain(String alias) {
                        return k.getCertificateChain(alias);
                    }

                    @Override
                    public java.security.PrivateKey getPrivateKey(String alias) {
                        return k.getPrivateKey(alias);
                    }
                }};
            }
            ctx.init(keys, new javax.net.ssl.TrustManager[] {sim.trustManager()}, null);
            return new OkHttpClient.Builder().sslSocketFactory(ctx.getSocketFactory(), sim.trustManager()).build();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, List<String>> bearer(String token) {
        return Map.of("Authorization", List.of("Bearer " + token));
    }

    String lastUser() {
        List<RecordedRequest> all = sim.requests();
        return all.get(all.size() - 1).user();
    }

    @Test
    void the_kubeconfig_admin_is_a_client_certificate_of_system_masters() {
        Answer a = get(client(sim.adminCertificate()), CLAIMS, Map.of());
        assertThat(a.code()).as(a.body()).isEqualTo(200);
        assertThat(lastUser()).isEqualTo("kubernetes-admin");
        assertThat(sim.kubeconfig()).contains("server: https://127.0.0.1:", "certificate-authority-data: ", "client-certificate-data: ",
                "client-key-data: ").doesNotContain("sa-token");
    }

    @Test
    void a_client_certificate_names_the_user_by_cn_and_its_groups_by_o() {
        Answer a = get(client(sim.clientCertificate("alice", List.of("dev"))), CLAIMS, Map.of());
        assertThat(a.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + "\"persistentvolumeclaims is forbidden: User \\\"alice\\\" cannot list resource \\\"persistentvolumeclaims\\\" in API group "
                + "\\\"\\\" in the namespace \\\"prod\\\"\",\"reason\":\"Forbidden\",\"details\":{\"kind\":\"persistentvolumeclaims\"},\"code\":403}");
        sim.load(Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: dev-view, namespace: prod}\n"
                + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\n"
                + "subjects: [{kind: Group, name: dev, apiGroup: rbac.authorization.k8s.io}]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: view}\n"
                        + "rules: [{apiGroups: [''], resources: [persistentvolumeclaims], verbs: [list]}]\n"));
        assertThat(get(client(sim.clientCertificate("alice", List.of("dev"))), CLAIMS, Map.of()).code()).as("group dev may list").isEqualTo(200);
    }

    @Test
    void a_certificate_of_another_ca_is_a_401_not_a_failed_handshake() {
        CertificateAuthority.Issued foreign = CertificateAuthority.create("elsewhere").issueClient("kubernetes-admin", List.of("system:masters"));
        // a TLS client sends no certificate whose issuer the server did not list (then it is anonymous): this one insists
        Answer a = get(client(foreign, true), "/version", Map.of());
        assertThat(a.code()).isEqualTo(401);
        assertThat(a.body()).isEqualTo(UNAUTHORIZED);
        assertThat(get(client(foreign), "/version", Map.of()).code()).as("offered only where it fits: anonymous").isEqualTo(200);
    }

    @Test
    void a_bearer_token_nobody_issued_is_a_401_even_for_the_version() {
        assertThat(get(client(null), "/version", bearer("sim-0000")).body()).isEqualTo(UNAUTHORIZED);
        assertThat(get(client(null), CLAIMS, bearer(sim.adminToken())).code()).isEqualTo(200);
    }

    @Test
    void no_credentials_is_system_anonymous_who_may_read_the_version_and_nothing_else() {
        OkHttpClient none = client(null);
        assertThat(get(none, "/version", Map.of()).code()).isEqualTo(200);
        Answer api = get(none, "/api", Map.of());
        assertThat(api.code()).isEqualTo(403);
        assertThat(api.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + "\"forbidden: User \\\"system:anonymous\\\" cannot get path \\\"/api\\\"\",\"reason\":\"Forbidden\",\"details\":{},\"code\":403}");
        Answer claims = get(none, CLAIMS, Map.of());
        assertThat(claims.code()).isEqualTo(403);
        assertThat(claims.body()).contains("persistentvolumeclaims is forbidden: User \\\"system:anonymous\\\" cannot list resource");
        assertThat(lastUser()).isEqualTo("system:anonymous");
    }

    @Test
    void with_anonymous_auth_off_no_credentials_is_a_401() {
        try (SimCluster strict = SimCluster.start(SimOptions.defaults().withAnonymousAuth(false))) {
            SimCluster saved = sim;
            sim = strict;
            try {
                assertThat(get(client(null), "/version", Map.of()).body()).isEqualTo(UNAUTHORIZED);
            } finally {
                sim = saved;
            }
        }
    }

    @Test
    void plain_http_is_not_served() {
        OkHttpClient plain = new OkHttpClient();
        Request req = new Request.Builder().url(sim.url().replace("https://", "http://") + "/version").build();
        assertThatThrownBy(() -> plain.newCall(req).execute().close()).isInstanceOf(IOException.class);
    }

    @Test
    void impersonation_needs_the_impersonate_verb_on_what_is_impersonated() {
        String robot = sim.tokenFor("prod", "robot");
        Map<String, List<String>> asAlice = Map.of("Authorization", List.of("Bearer " + robot), "Impersonate-User", List.of("alice"));
        Answer denied = get(client(null), CLAIMS, asAlice);
        assertThat(denied.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + "\"users \\\"alice\\\" is forbidden: User \\\"system:serviceaccount:prod:robot\\\" cannot impersonate resource \\\"users\\\" "
                + "in API group \\\"\\\" at the cluster scope\",\"reason\":\"Forbidden\",\"details\":{\"name\":\"alice\",\"kind\":\"users\"},"
                + "\"code\":403}");
        sim.load(Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: impersonate-alice}\n"
                        + "rules: [{apiGroups: [''], resources: [users], verbs: [impersonate], resourceNames: [alice]}]\n"),
                Fixtures.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: robot-as-alice}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: impersonate-alice}\n"
                        + "subjects: [{kind: ServiceAccount, name: robot, namespace: prod}]\n"));
        Answer asAliceNow = get(client(null), CLAIMS, asAlice);
        assertThat(asAliceNow.body()).as("allowed to be alice, who may not list claims")
                .contains("User \\\"alice\\\" cannot list resource \\\"persistentvolumeclaims\\\"");
        assertThat(lastUser()).isEqualTo("alice");
        Answer groupToo = get(client(null), CLAIMS, Map.of("Authorization", List.of("Bearer " + robot),
                "Impersonate-User", List.of("alice"), "Impersonate-Group", List.of("system:masters")));
        assertThat(groupToo.body()).as("each group asked is authorised too").contains(
                "groups \\\"system:masters\\\" is forbidden: User \\\"system:serviceaccount:prod:robot\\\" cannot impersonate resource \\\"groups\\\"");
        Answer noUser = get(client(sim.adminCertificate()), CLAIMS, Map.of("Impersonate-Group", List.of("probe-group")));
        assertThat(noUser.code()).isEqualTo(500);
        assertThat(noUser.body()).as("the real answer, text/plain (captured from kube-apiserver)").isEqualTo("Internal Server Error: "
                + "\"/api/v1/namespaces/prod/persistentvolumeclaims\": requested [{Group  probe-group    }] without impersonating a user\n");
        Answer admin = get(client(sim.adminCertificate()), CLAIMS, Map.of("Impersonate-User", List.of("system:serviceaccount:prod:robot")));
        assertThat(admin.body()).as("the admin may be the ServiceAccount, with its groups").contains(
                "User \\\"system:serviceaccount:prod:robot\\\" cannot list resource");
    }

    @Test
    void token_requests_issue_a_new_token_each_time_that_acts_as_the_service_account_until_it_expires() {
        SimClient admin = SimClient.admin(sim);
        SimClient.Answer tr = admin.send("POST", "/api/v1/namespaces/prod/serviceaccounts/robot/token", "application/json",
                "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{\"expirationSeconds\":600,"
                        + "\"audiences\":[\"vault\"]}}");
        assertThat(tr.code()).as(tr.body()).isEqualTo(201);
        assertThat(tr.json().at("/spec/audiences").toString()).isEqualTo("[\"vault\"]");
        assertThat(tr.json().at("/spec/expirationSeconds").asLong()).isEqualTo(600);
        get(client(null), CLAIMS, bearer(tr.json().at("/status/token").asText()));
        assertThat(lastUser()).isEqualTo("system:serviceaccount:prod:robot");
        SimClient.Answer tooShort = admin.send("POST", "/api/v1/namespaces/prod/serviceaccounts/robot/token", "application/json",
                "{\"spec\":{\"expirationSeconds\":60}}");
        assertThat(tooShort.code()).isEqualTo(422);
        // the real answer (kube-apiserver, captured): the TokenRequest has no name, so "" and no details.name
        assertThat(tooShort.json()).isEqualTo(Reference.json("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"TokenRequest.authentication.k8s.io \\"\\" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes",
                 "reason":"Invalid","details":{"group":"authentication.k8s.io","kind":"TokenRequest","causes":[{"reason":"FieldValueInvalid",
                 "message":"Invalid value: 60: may not specify a duration less than 10 minutes","field":"spec.expirationSeconds"}]},"code":422}"""));
    }

    @Test
    void an_expired_token_no_longer_authenticates() {
        var now = new java.util.concurrent.atomic.AtomicReference<>(java.time.Instant.parse("2026-12-01T00:00:00Z"));
        java.time.Clock clock = new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public java.time.Instant instant() {
                return now.get();
            }
        };
        var tokens = new dev.stsresize.sim.auth.Tokens(clock);
        String t = tokens.request("prod", "robot", now.get().plusSeconds(600));
        assertThat(tokens.user(t)).map(u -> u.name()).hasValue("system:serviceaccount:prod:robot");
        now.set(now.get().plusSeconds(600));
        assertThat(tokens.user(t)).isEmpty();
    }
}
