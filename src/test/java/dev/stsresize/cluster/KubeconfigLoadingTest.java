package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.UserError;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeconfigLoadingTest {
    @TempDir Path home;

    static final String FIRST = """
            current-context: alpha
            clusters:
            - name: shared
              cluster: {server: "https://first.example:6443", certificate-authority: ca.crt}
            - name: only-first
              cluster: {server: "https://only-first.example"}
            users:
            - name: shared
              user: {token: first-token, client-certificate: certs/me.crt, client-key: /abs/me.key}
            contexts:
            - name: alpha
              context: {cluster: shared, user: shared, namespace: alpha-ns}
            - name: shared
              context: {cluster: only-first, user: shared}
            """;

    static final String SECOND = """
            current-context: beta
            clusters:
            - name: shared
              cluster: {server: "https://second.example:6443"}
            - name: only-second
              cluster: {server: "https://only-second.example"}
            users:
            - name: shared
              user: {token: second-token}
            - name: exec-user
              user:
                exec: {apiVersion: client.authentication.k8s.io/v1, command: ./bin/get-token, args: [x]}
            contexts:
            - name: shared
              context: {cluster: only-second, user: shared}
            - name: beta
              context: {cluster: only-second, user: exec-user}
            """;

    Path first;
    Path second;

    void writeBoth() throws IOException {
        first = Kubeconfigs.write(home, "a/first.yaml", FIRST);
        second = Kubeconfigs.write(home, "b/second.yaml", SECOND);
    }

    Kubeconfig loadWithKubeconfigVariable(String value) {
        return KubeconfigLoader.load(ConnectionSettings.defaults(), Kubeconfigs.env(home, Map.of("KUBECONFIG", value)))
                .orElseThrow();
    }

    @Test
    void theFirstFileDefiningANameWinsForClustersUsersAndContexts() throws IOException {
        writeBoth();
        Kubeconfig merged = loadWithKubeconfigVariable(first + ":" + second);

        assertThat(merged.clusters().get("shared").path("server").asText()).isEqualTo("https://first.example:6443");
        assertThat(merged.users().get("shared").path("token").asText()).isEqualTo("first-token");
        assertThat(merged.contexts().get("shared").path("cluster").asText()).isEqualTo("only-first");
        assertThat(merged.clusters()).containsKeys("only-first", "only-second");
        assertThat(merged.users()).containsKey("exec-user");
    }

    @Test
    void currentContextComesFromTheFirstFileThatSetsIt() throws IOException {
        writeBoth();
        Path none = Kubeconfigs.write(home, "none.yaml", "clusters: []\n");
        assertThat(loadWithKubeconfigVariable(none + ":" + second + ":" + first).currentContext()).isEqualTo("beta");
        assertThat(loadWithKubeconfigVariable(first + ":" + second).currentContext()).isEqualTo("alpha");
    }

    @Test
    void missingFilesInKubeconfigAreSkippedAsKubectlSkipsThem() throws IOException {
        writeBoth();
        Kubeconfig merged = loadWithKubeconfigVariable(home.resolve("gone.yaml") + ":" + second);
        assertThat(merged.files()).containsExactly(second);
    }

    @Test
    void relativeFileReferencesAreResolvedAgainstTheFileThatHoldsThem() throws IOException {
        writeBoth();
        Kubeconfig merged = loadWithKubeconfigVariable(first + ":" + second);

        assertThat(merged.clusters().get("shared").path("certificate-authority").asText())
                .isEqualTo(home.resolve("a/ca.crt").toString());
        assertThat(merged.users().get("shared").path("client-certificate").asText())
                .isEqualTo(home.resolve("a/certs/me.crt").toString());
        assertThat(merged.users().get("shared").path("client-key").asText()).isEqualTo("/abs/me.key");
        assertThat(merged.users().get("exec-user").at("/exec/command").asText())
                .isEqualTo(home.resolve("b/bin/get-token").toString());
    }

    @Test
    void theKubeconfigFlagOverridesTheVariable() throws IOException {
        writeBoth();
        Kubeconfig loaded = KubeconfigLoader.load(ConnectionSettings.defaults().withKubeconfig(second),
                Kubeconfigs.env(home, Map.of("KUBECONFIG", first.toString()))).orElseThrow();
        assertThat(loaded.files()).containsExactly(second);
        assertThat(loaded.currentContext()).isEqualTo("beta");
    }

    @Test
    void withoutFlagOrVariableTheHomeConfigIsRead() throws IOException {
        Path config = Kubeconfigs.write(home, ".kube/config", FIRST);
        Kubeconfig loaded = KubeconfigLoader.load(ConnectionSettings.defaults(), Kubeconfigs.env(home)).orElseThrow();
        assertThat(loaded.files()).containsExactly(config);
    }

    @Test
    void noKubeconfigAnywhereIsEmptySoTheServiceAccountCanBeTried() {
        assertThat(KubeconfigLoader.load(ConnectionSettings.defaults(), Kubeconfigs.env(home))).isEmpty();
    }

    @Test
    void theContextsNamespaceIsTheDefaultNamespace() throws IOException {
        writeBoth();
        KubeconfigSelection s = loadWithKubeconfigVariable(first + ":" + second).select(ConnectionSettings.defaults());
        assertThat(s.contextName()).isEqualTo("alpha");
        assertThat(s.namespace()).isEqualTo("alpha-ns");
        assertThat(s.cluster().path("server").asText()).isEqualTo("https://first.example:6443");
    }

    @Test
    void aContextWithoutNamespaceMeansDefault() throws IOException {
        writeBoth();
        KubeconfigSelection s = loadWithKubeconfigVariable(first + ":" + second)
                .select(ConnectionSettings.defaults().withContext("shared"));
        assertThat(s.namespace()).isEqualTo("default");
    }

    @Test
    void theNamespaceFlagBeatsTheContextsNamespace() throws IOException {
        writeBoth();
        KubeconfigSelection s = loadWithKubeconfigVariable(first.toString())
                .select(ConnectionSettings.defaults().withNamespace("prod"));
        assertThat(s.namespace()).isEqualTo("prod");
    }

    @Test
    void contextClusterAndUserFlagsOverrideTheKubeconfig() throws IOException {
        writeBoth();
        Kubeconfig merged = loadWithKubeconfigVariable(first + ":" + second);
        ConnectionSettings flags = new ConnectionSettings(java.util.Optional.empty(), java.util.Optional.of("beta"),
                java.util.Optional.of("only-first"), java.util.Optional.of("shared"), java.util.Optional.empty(), false,
                java.time.Duration.ZERO, 0);

        KubeconfigSelection s = merged.select(flags);

        assertThat(s.contextName()).isEqualTo("beta");
        assertThat(s.cluster().path("server").asText()).isEqualTo("https://only-first.example");
        assertThat(s.user().path("token").asText()).isEqualTo("first-token");
    }

    @Test
    void anUnknownContextIsOneSentenceNamingItTheFilesAndTheChoices() throws IOException {
        writeBoth();
        Kubeconfig merged = loadWithKubeconfigVariable(first + ":" + second);

        assertThatThrownBy(() -> merged.select(ConnectionSettings.defaults().withContext("prod")))
                .isInstanceOf(UserError.class)
                .hasMessage("context \"prod\" is not defined in the kubeconfig " + first + ":" + second
                        + "; fix --context (one of: alpha, beta, shared) (kubectl config get-contexts lists them).");
    }

    @Test
    void aMissingKubeconfigFlagFileIsOneSentenceWithTheFix() {
        Path missing = home.resolve("nope.yaml");
        assertThatThrownBy(() -> KubeconfigLoader.load(ConnectionSettings.defaults().withKubeconfig(missing),
                Kubeconfigs.env(home)))
                .isInstanceOfSatisfying(UserError.class, e -> assertThat(e.exitCode()).isEqualTo(1))
                .hasMessage("the kubeconfig file " + missing + " given with --kubeconfig does not exist; pass the path"
                        + " of an existing kubeconfig, or drop --kubeconfig to use KUBECONFIG or ~/.kube/config.");
    }

    @Test
    void aKubeconfigVariableNamingOnlyMissingFilesIsAnError() {
        String value = home.resolve("x") + ":" + home.resolve("y");
        assertThatThrownBy(() -> loadWithKubeconfigVariable(value))
                .isInstanceOf(UserError.class)
                .hasMessage("none of the kubeconfig files in KUBECONFIG exists (" + value
                        + "); point KUBECONFIG at your cluster's kubeconfig, or pass --kubeconfig FILE.");
    }

    @Test
    void noKubeconfigAndNoPodIsOneSentenceWithTheFix() {
        assertThatThrownBy(() -> KubeClients.connect(ConnectionSettings.defaults(), Kubeconfigs.env(home), "1",
                new java.io.PrintWriter(new java.io.StringWriter())))
                .isInstanceOf(UserError.class)
                .hasMessage("no kubeconfig found: " + home.resolve(".kube/config") + " ($HOME/.kube/config) does not exist and KUBECONFIG is"
                        + " not set; pass --kubeconfig FILE, set KUBECONFIG, or run inside a pod with a service account.");
    }

    @Test
    void malformedYamlNamesTheFileAndTheLine() throws IOException {
        Path bad = Kubeconfigs.write(home, "bad.yaml", "clusters:\n- name: x\n  cluster: {server: [\n");
        assertThatThrownBy(() -> KubeconfigLoader.load(ConnectionSettings.defaults().withKubeconfig(bad),
                Kubeconfigs.env(home)))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("the kubeconfig file " + bad + " is not valid YAML (")
                .hasMessageContaining(", line ")
                .hasMessageEndingWith("); fix it, or pass another with --kubeconfig.")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aContextNamingAnUndefinedClusterSaysWhich() throws IOException {
        Path file = Kubeconfigs.write(home, "k.yaml", """
                current-context: c
                contexts:
                - name: c
                  context: {cluster: ghost, user: u}
                """);
        Kubeconfig k = KubeconfigLoader.merge(java.util.List.of(file));
        assertThatThrownBy(() -> k.select(ConnectionSettings.defaults()))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("context \"c\" names cluster \"ghost\", which is not defined in the kubeconfig " + file);
    }

    @Test
    void noCurrentContextAsksForContext() throws IOException {
        Path file = Kubeconfigs.write(home, "k.yaml", SECOND.replace("current-context: beta\n", ""));
        Kubeconfig k = KubeconfigLoader.merge(java.util.List.of(file));
        assertThatThrownBy(() -> k.select(ConnectionSettings.defaults()))
                .isInstanceOf(UserError.class)
                .hasMessage("the kubeconfig " + file + " sets no current-context; pass --context (one of: beta, shared),"
                        + " or set one with kubectl config use-context NAME.");
    }

    @Test
    void anEmptyKubeconfigFileIsAcceptedAsKubectlAcceptsIt() throws IOException {
        Path empty = Kubeconfigs.write(home, "empty.yaml", "");
        writeBoth();
        assertThat(loadWithKubeconfigVariable(empty + ":" + second).currentContext()).isEqualTo("beta");
    }
}
