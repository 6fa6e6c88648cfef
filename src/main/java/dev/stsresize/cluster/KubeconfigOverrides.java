package dev.stsresize.cluster;

import java.util.List;
import java.util.Optional;

/**
 * kubectl's flags that override the chosen kubeconfig cluster and user, with kubectl's meaning
 * (k8s.io/cli-runtime genericclioptions/config_flags.go binds them to clientcmd.ConfigOverrides;
 * client-go tools/clientcmd/client_config.go getCluster and getAuthInfo merge them over the
 * kubeconfig's entries, field by field).
 *
 * @param server {@code --server}/{@code -s}: the cluster's server; also clears the kubeconfig's tls-server-name
 * @param certificateAuthority {@code --certificate-authority}: a CA file, replacing the cluster's CA and insecure flag
 * @param insecureSkipTlsVerify {@code --insecure-skip-tls-verify}: replaces the cluster's CA settings
 * @param tlsServerName {@code --tls-server-name}
 * @param token {@code --token}: the user's bearer token (an exec plugin then never runs)
 * @param clientCertificate {@code --client-certificate}: a certificate file
 * @param clientKey {@code --client-key}: a key file
 * @param as {@code --as}: the user to impersonate
 * @param asGroups {@code --as-group}, repeatable
 * @param asUid {@code --as-uid}
 */
public record KubeconfigOverrides(Optional<String> server, Optional<String> certificateAuthority,
        boolean insecureSkipTlsVerify, Optional<String> tlsServerName, Optional<String> token,
        Optional<String> clientCertificate, Optional<String> clientKey, Optional<String> as, List<String> asGroups,
        Optional<String> asUid) {

    public static final KubeconfigOverrides NONE = new KubeconfigOverrides(Optional.empty(), Optional.empty(), false,
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
            Optional.empty());

    public KubeconfigOverrides {
        // an empty flag value overrides nothing, as mergo skips empty fields
        server = nonEmpty(server);
        certificateAuthority = nonEmpty(certificateAuthority);
        tlsServerName = nonEmpty(tlsServerName);
        token = nonEmpty(token);
        clientCertificate = nonEmpty(clientCertificate);
        clientKey = nonEmpty(clientKey);
        as = nonEmpty(as);
        asGroups = asGroups == null ? List.of() : asGroups.stream().filter(g -> !g.isEmpty()).toList();
        asUid = nonEmpty(asUid);
    }

    private static Optional<String> nonEmpty(Optional<String> s) {
        return s == null ? Optional.empty() : s.filter(v -> !v.isEmpty());
    }
}
