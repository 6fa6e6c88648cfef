package dev.stsresize.cluster;

import dev.stsresize.UserError;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import io.kubernetes.client.util.credentials.Authentication;
import io.kubernetes.client.util.credentials.TokenFileAuthentication;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The pod's own service account, as kubectl uses it inside a pod when no kubeconfig exists. */
final class InCluster {
    private InCluster() {}

    static boolean available(ClientEnvironment env) {
        return env.variable("KUBERNETES_SERVICE_HOST").isPresent()
                && env.variable("KUBERNETES_SERVICE_PORT").isPresent()
                && Files.isRegularFile(env.serviceAccountDir().resolve("token"));
    }

    static ClusterConnection connect(ConnectionSettings settings, ClientEnvironment env, String version,
            PrintWriter diagnostics) {
        String host = env.variable("KUBERNETES_SERVICE_HOST").orElseThrow();
        String port = env.variable("KUBERNETES_SERVICE_PORT").orElseThrow();
        String server = "https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        Path dir = env.serviceAccountDir();
        ClientBuilder builder = new LeanApiClient.Builder().setBasePath(server);
        // client-go's inClusterClientConfig takes only --token and --certificate-authority from the flags
        Path ca = settings.overrides().certificateAuthority().map(Path::of).orElse(dir.resolve("ca.crt"));
        try {
            if (Files.isRegularFile(ca)) {
                builder.setCertificateAuthority(Files.readAllBytes(ca));
            }
            String namespace = settings.namespace().orElse(readNamespace(dir));
            Authentication token = settings.overrides().token().<Authentication>map(AccessTokenAuthentication::new)
                    .orElseGet(() -> new TokenFileAuthentication(dir.resolve("token").toString()));
            return KubeClients.finish(builder, List.of(token),
                    Proxies.choose(ObjectNodes.empty(), env, "in-cluster"), server, "the service account of this pod (" + dir + ")", namespace, settings, version, diagnostics);
        } catch (IOException e) {
            throw new UserError("cannot read the pod's service account in " + dir + " (" + e.getMessage()
                    + "); mount the service-account token, or pass --kubeconfig FILE.", e);
        }
    }

    private static String readNamespace(Path dir) throws IOException {
        Path file = dir.resolve("namespace");
        String ns = Files.isRegularFile(file) ? Files.readString(file).strip() : "";
        return ns.isEmpty() ? "default" : ns;
    }
}
