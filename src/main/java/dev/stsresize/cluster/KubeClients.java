package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import io.kubernetes.client.util.credentials.Authentication;
import io.kubernetes.client.util.credentials.ClientCertificateAuthentication;
import io.kubernetes.client.util.credentials.RefreshAuthentication;
import io.kubernetes.client.util.credentials.TokenFileAuthentication;
import io.kubernetes.client.util.credentials.UsernamePasswordAuthentication;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import okhttp3.OkHttpClient;

/**
 * Builds the client-java {@link ApiClient} the way kubectl connects: the merged kubeconfig (see
 * {@link KubeconfigLoader}) with the flags' overrides, or the pod's service account when there is no
 * kubeconfig and the process runs in a pod.
 */
public final class KubeClients {
    /** Exec plugins are re-run this often: tokens of common plugins live 15 minutes or more. */
    static final Duration EXEC_TOKEN_REFRESH = Duration.ofMinutes(5);

    private KubeClients() {}

    /**
     * @param version the product version, for the User-Agent {@code kubectl-stsresize/<version>}
     * @param diagnostics where {@code -v} writes (the command's stderr)
     */
    public static ClusterConnection connect(ConnectionSettings settings, ClientEnvironment env, String version,
            PrintWriter diagnostics) {
        Optional<Kubeconfig> kubeconfig = KubeconfigLoader.load(settings, env);
        if (kubeconfig.isPresent()) {
            return fromKubeconfig(kubeconfig.get().select(settings), settings, env, version, diagnostics);
        }
        if (InCluster.available(env)) {
            return InCluster.connect(settings, env, version, diagnostics);
        }
        throw new UserError("no kubeconfig found: " + env.home().resolve(".kube/config")
                + " does not exist and KUBECONFIG is not set; pass --kubeconfig FILE, set KUBECONFIG,"
                + " or run inside a pod with a service account.");
    }

    static ClusterConnection fromKubeconfig(KubeconfigSelection selection, ConnectionSettings settings,
            ClientEnvironment env, String version, PrintWriter diagnostics) {
        ObjectNode cluster = selection.cluster();
        String server = withScheme(cluster.path("server").asText());
        ClientBuilder builder = new ClientBuilder().setBasePath(server);
        byte[] ca = bytes(cluster, "certificate-authority-data", "certificate-authority",
                "cluster \"" + selection.clusterName() + "\"", selection.files());
        if (ca != null) {
            builder.setCertificateAuthority(ca);
        }
        builder.setVerifyingSsl(!cluster.path("insecure-skip-tls-verify").asBoolean(false));
        String tlsServerName = cluster.path("tls-server-name").asText("");
        if (!tlsServerName.isEmpty()) {
            builder.setTlsServerName(tlsServerName);
        }
        List<Authentication> auth = authentications(selection);
        Proxies.Choice proxy = Proxies.choose(cluster, env, selection.clusterName());
        return finish(builder, auth, proxy, server, selection.origin(), selection.namespace(), settings, version,
                diagnostics);
    }

    private static List<Authentication> authentications(KubeconfigSelection selection) {
        ObjectNode user = selection.user();
        String who = "user \"" + selection.userName() + "\"";
        List<Authentication> auth = new ArrayList<>();
        if (user.has("auth-provider")) {
            throw new UserError("kubeconfig " + who + " uses the auth-provider \""
                    + user.path("auth-provider").path("name").asText() + "\", which kubectl itself no longer supports;"
                    + " switch it to its exec credential plugin (e.g. gke-gcloud-auth-plugin, kubelogin).");
        }
        byte[] cert = bytes(user, "client-certificate-data", "client-certificate", who, selection.files());
        byte[] key = bytes(user, "client-key-data", "client-key", who, selection.files());
        if (cert != null && key != null) {
            auth.add(new ClientCertificateAuthentication(cert, key));
        }
        String token = user.path("token").asText("");
        String tokenFile = user.path("tokenFile").asText("");
        if (!token.isEmpty()) {
            auth.add(new AccessTokenAuthentication(token));
        } else if (!tokenFile.isEmpty()) {
            requireFile(Path.of(tokenFile), "tokenFile", who, selection.files());
            auth.add(new TokenFileAuthentication(tokenFile));
        }
        String username = user.path("username").asText("");
        if (!username.isEmpty() && token.isEmpty()) {
            auth.add(new UsernamePasswordAuthentication(username, user.path("password").asText("")));
        }
        if (auth.isEmpty() && user.path("exec") instanceof ObjectNode exec) {
            auth.add(execAuthentication(new ExecCredentialPlugin(exec, selection.userName())));
        }
        return auth;
    }

    private static Authentication execAuthentication(ExecCredentialPlugin plugin) {
        ExecCredentialPlugin.Credential first = plugin.run();
        if (!first.token().isEmpty()) {
            RefreshAuthentication refreshing = new RefreshAuthentication(
                    new java.util.function.Supplier<String>() {
                        private ExecCredentialPlugin.Credential pending = first;

                        @Override
                        public String get() {
                            // the first token is the one just obtained: no second run of the plugin
                            ExecCredentialPlugin.Credential c = pending != null ? pending : plugin.run();
                            pending = null;
                            return c.token();
                        }
                    },
                    EXEC_TOKEN_REFRESH);
            refreshing.setExpiry(Instant.now().plus(EXEC_TOKEN_REFRESH));
            return refreshing;
        }
        return new ClientCertificateAuthentication(first.clientCertificatePem().getBytes(StandardCharsets.UTF_8),
                first.clientKeyPem().getBytes(StandardCharsets.UTF_8));
    }

    /** Applies credentials, User-Agent, timeout and the request log; the one place an ApiClient is finished. */
    static ClusterConnection finish(ClientBuilder builder, List<Authentication> auth, Proxies.Choice proxy,
            String server, String origin, String namespace, ConnectionSettings settings, String version,
            PrintWriter diagnostics) {
        ApiClient client;
        try {
            builder.setAuthentication(apiClient -> auth.forEach(a -> a.provide(apiClient)));
            client = builder.build();
        } catch (RuntimeException e) {
            throw new UserError("cannot set up the connection of " + origin + ": " + rootMessage(e)
                    + "; check the certificates and keys it names (kubectl config view --raw shows them).", e);
        }
        client.setUserAgent("kubectl-stsresize/" + version);
        OkHttpClient.Builder http = client.getHttpClient().newBuilder()
                .callTimeout(settings.requestTimeout())
                .proxySelector(proxy.selector());
        if (!proxy.userInfo().isEmpty()) {
            http.proxyAuthenticator(new ProxyBasicAuth(proxy.userInfo()));
        }
        if (settings.verbosity() >= 6) {
            http.addInterceptor(new RequestLog(diagnostics, settings.verbosity()));
        }
        client.setHttpClient(http.build());
        return new ClusterConnection(client, server, origin, namespace);
    }

    /** kubectl's rule (client-go's DefaultServerURL): no scheme means https. */
    static String withScheme(String server) {
        return server.contains("://") ? server : "https://" + server;
    }

    private static byte[] bytes(ObjectNode entry, String dataField, String fileField, String who, String files) {
        String data = entry.path(dataField).asText("");
        if (!data.isEmpty()) {
            try {
                return Base64.getMimeDecoder().decode(data);
            } catch (IllegalArgumentException e) {
                throw new UserError("the " + dataField + " of kubeconfig " + who + " in " + files
                        + " is not valid base64; fix it (kubectl config view --raw shows it).", e);
            }
        }
        String file = entry.path(fileField).asText("");
        if (file.isEmpty()) {
            return null;
        }
        Path path = Path.of(file);
        requireFile(path, fileField, who, files);
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new UserError("cannot read " + path + ", the " + fileField + " of kubeconfig " + who + " ("
                    + e.getMessage() + "); check its permissions.", e);
        }
    }

    private static void requireFile(Path path, String field, String who, String files) {
        if (!Files.isRegularFile(path)) {
            throw new UserError("the " + field + " file " + path + " of kubeconfig " + who + " in " + files
                    + " does not exist; fix the path in the kubeconfig, or pick another --context.");
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
