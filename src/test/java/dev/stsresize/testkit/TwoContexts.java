package dev.stsresize.testkit;

/**
 * A kubeconfig of two contexts whose clusters nothing answers at: what completion offers from a kubeconfig alone.
 * Contexts prod (the current one, cluster c1 at https://127.0.0.1:1) and staging (cluster c2 at https://127.0.0.1:2),
 * both as user u1 with token t.
 */
public final class TwoContexts {
    public static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            current-context: prod
            contexts:
            - {name: prod, context: {cluster: c1, user: u1}}
            - {name: staging, context: {cluster: c2, user: u1}}
            clusters:
            - {name: c1, cluster: {server: https://127.0.0.1:1}}
            - {name: c2, cluster: {server: https://127.0.0.1:2}}
            users:
            - {name: u1, user: {token: t}}
            """;

    private TwoContexts() {}
}
