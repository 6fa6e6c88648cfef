package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.Authentication;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import okhttp3.OkHttpClient;

/**
 * Builds the client-java {@link ApiClient} the way kubectl connects: the merged kubeconfig (see
 * {@link KubeconfigLoader}) with the flags' overrides, or the pod's service account when there is no
 * kubeconfig and the process runs in a pod.
 */
public final class KubeClients {
    private KubeClients() {}

    /**
     * @param version the product version, for the User-Agent {@code kubectl-stsresize/<version>}
     * @param diagnostics where {@code -v} writes (the command's stderr)
     */
    public static ClusterConnection connect(ConnectionSettings settings, ClientEnvironment env, String version,
            PrintWriter diagnostics) {
        Optional<Kubeconfig> kubeconfig = KubeconfigLoader.load(settings, env);
        if (kubeconfig.isEmpty() && settings.overrides().server().isPresent()) {
            // as kubectl: --server needs no kubeconfig (the other flags then say who connects)
            kubeconfig = Optional.of(new Kubeconfig(java.util.Map.of(), java.util.Map.of(), java.util.Map.of(), "", List.of()));
        }
        if (kubeconfig.isPresent()) {
            return fromKubeconfig(kubeconfig.get().select(settings), settings, env, version, diagnostics);
        }
        if (InCluster.available(env)) {
            return InCluster.connect(settings, env, version, diagnostics);
        }
        throw new UserError("no kubeconfig found: " + HomeDirectory.recommendedKubeconfig(env.home().toString())
                + (env.home().toString().isEmpty() ? " (HOME is not set, so kubectl too looks in the working directory)"
                        : " ($HOME/.kube/config)")
                + " does not exist and KUBECONFIG is not set; pass --kubeconfig FILE, set KUBECONFIG,"
                + " or run inside a pod with a service account.");
    }

    static ClusterConnection fromKubeconfig(KubeconfigSelection selection, ConnectionSettings settings,
            ClientEnvironment env, String version, PrintWriter diagnostics) {
        ObjectNode cluster = selection.cluster();
        String server = withScheme(cluster.path("server").asText());
        if (okhttp3.HttpUrl.parse(server) == null) {
            // the kubeconfig and --server are the user's input: a bad address is their error, found before any request
            throw new UserError(selection.origin() + ": the server address \"" + cluster.path("server").asText() + "\" is not a"
                    + " URL (like https://10.0.0.1:6443); fix the cluster's server in the kubeconfig, or pass --server URL.");
        }
        ClientBuilder builder = new LeanApiClient.Builder().setBasePath(server);
        byte[] ca = KubeconfigData.bytes(cluster, "certificate-authority-data", "certificate-authority",
                "cluster \"" + selection.clusterName() + "\"", selection.files());
        if (ca != null) {
            builder.setCertificateAuthority(ca);
        }
        boolean insecure = cluster.path("insecure-skip-tls-verify").asBoolean(false);
        if (insecure && ca != null) {
            // client-go's transport.TLSConfigFor refuses the pair; --insecure-skip-tls-verify alone clears the kubeconfig's CA
            throw new UserError(selection.origin() + ": specifying a root certificates file with the insecure flag is not"
                    + " allowed (kubectl refuses it too); drop --insecure-skip-tls-verify or --certificate-authority,"
                    + " or the one of them the kubeconfig sets.");
        }
        builder.setVerifyingSsl(!insecure);
        String tlsServerName = cluster.path("tls-server-name").asText("");
        if (!tlsServerName.isEmpty()) {
            builder.setTlsServerName(tlsServerName);
        }
        // kubectl's rule (clientcmd reads the user only when IsConfigTransportTLS): no credential,
        // not even an exec plugin run, for a plain-http server, where it would travel in clear
        Optional<Impersonation> impersonation = Impersonation.of(selection.user(), "user \"" + selection.userName() + "\"");
        List<Authentication> auth = new java.util.ArrayList<>(server.regionMatches(true, 0, "https://", 0, 8)
                ? UserAuthentication.from(selection, env.terminal()) : List.of());
        impersonation.ifPresent(i -> auth.add(client -> client.setHttpClient(
                client.getHttpClient().newBuilder().addInterceptor(i).build())));
        Proxies.Choice proxy = Proxies.choose(cluster, env, selection.clusterName());
        return finish(builder, auth, proxy, server, selection.origin(), selection.namespace(), settings, version,
                diagnostics);
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

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
